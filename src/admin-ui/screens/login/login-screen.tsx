// Sign-in. Shown at whatever address the user opened (or was on when the
// session ended), so after signing in they are back where they were.
import { useState } from 'preact/hooks';
import { signIn } from '../../api/session.ts';
import { useTitle } from '../../router/router-view.tsx';
import { useSession } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/field.tsx';
import { useAction } from '../../ui/status.tsx';

/** The sign-in form; `expired` explains why it is shown again. */
export function LoginScreen({ expired }: { expired: boolean }) {
  useTitle('Sign in');
  const session = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useAction({ progress: 'Signing in…', success: 'Signed in.' });

  const submit = async (event: Event) => {
    event.preventDefault();
    const result = await login.run(() => signIn(username, password));
    if (result) await session.signedIn(result.meta.csrf_token);
  };

  return (
    <main class="gate">
      <form class="gate__card" onSubmit={submit} noValidate>
        <h1>Sign in</h1>
        {expired && (
          <p class="notice" role="alert">
            Your session has ended. Sign in again to continue; unsaved changes are kept.
          </p>
        )}
        <TextField label="Username" required autoComplete="username" value={username} onValue={setUsername} error={login.fieldErrors.username} />
        <TextField label="Password" type="password" required autoComplete="current-password" value={password} onValue={setPassword} error={login.fieldErrors.password} />
        {login.error && login.error.code !== 'validation_failed' && (
          <p class="form-error" role="alert">
            {login.error.message}
          </p>
        )}
        <Button type="submit" variant="primary" busy={login.busy}>
          Sign in
        </Button>
      </form>
    </main>
  );
}
