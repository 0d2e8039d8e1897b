// First run: no user exists yet (the API answers 503 not_set_up), so the
// first administrator is created here and signed in.
import { useState } from 'preact/hooks';
import { setUp } from '../../api/session.ts';
import { useTitle } from '../../router/router-view.tsx';
import { useSession } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/field.tsx';
import { useAction } from '../../ui/status.tsx';

/** The first-run form. */
export function SetupScreen() {
  useTitle('Set up');
  const session = useSession();
  const [form, setForm] = useState({ display_name: '', username: '', email: '', password: '', workspace: '' });
  const create = useAction({ progress: 'Creating your account…', success: 'Welcome! Your account is ready.' });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });

  const submit = async (event: Event) => {
    event.preventDefault();
    const input = Object.fromEntries(Object.entries(form).filter(([, value]) => value !== '')) as typeof form;
    const result = await create.run(() => setUp(input));
    if (result) await session.signedIn(result.meta.csrf_token);
  };

  return (
    <main class="gate">
      <form class="gate__card" onSubmit={submit} noValidate>
        <h1>Set up git-cms</h1>
        <p>Create the first administrator. You can invite others afterwards.</p>
        <TextField label="Your name" autoComplete="name" value={form.display_name} onValue={set('display_name')} error={create.fieldErrors.display_name} />
        <TextField label="Username" required autoComplete="username" value={form.username} onValue={set('username')} error={create.fieldErrors.username} />
        <TextField label="Email" type="email" autoComplete="email" value={form.email} onValue={set('email')} error={create.fieldErrors.email} />
        <TextField
          label="Password"
          type="password"
          required
          autoComplete="new-password"
          hint="At least 8 characters."
          value={form.password}
          onValue={set('password')}
          error={create.fieldErrors.password}
        />
        <TextField label="Site name" hint="Shown as the name of your first workspace." value={form.workspace} onValue={set('workspace')} error={create.fieldErrors.workspace} />
        <Button type="submit" variant="primary" busy={create.busy}>
          Create account
        </Button>
      </form>
    </main>
  );
}
