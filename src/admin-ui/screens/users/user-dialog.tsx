// Creating a user, or changing one: name, email, role and (optionally) a new
// password. The API's messages show next to their fields.
import { useState } from 'preact/hooks';
import { createUser, updateUser, type Role, type UserBody } from '../../api/people.ts';
import type { User } from '../../api/types.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { SelectField, TextField } from '../../ui/field.tsx';
import { useAction } from '../../ui/status.tsx';

export function UserDialog({ user, roles, onClose, onSaved }: { user: User | undefined; roles: Role[]; onClose: () => void; onSaved: () => void }) {
  const [form, setForm] = useState({ username: '', display_name: user?.display_name ?? '', email: user?.email ?? '', role: user?.role ?? 'editor', password: '' });
  const save = useAction({ progress: 'Saving the user…', success: user ? 'User saved.' : 'User created.' });
  const errors = save.fieldErrors;
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: UserBody = { display_name: form.display_name, email: form.email, role: form.role, ...(form.password ? { password: form.password } : {}) };
    const saved = await save.run(() => (user ? updateUser(user.id, body) : createUser({ ...body, username: form.username })));
    if (saved) onSaved();
  };
  return (
    <Dialog
      open
      title={user ? `Edit ${user.username}` : 'New user'}
      onClose={onClose}
      actions={
        <>
          <Button type="submit" form="user-form" variant="primary" busy={save.busy}>
            {user ? 'Save' : 'Create the user'}
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </>
      }
    >
      <form id="user-form" onSubmit={submit} noValidate>
        {save.error && !Object.keys(errors).length && (
          <p class="form-error" role="alert">
            {save.error.message}
          </p>
        )}
        {!user && <TextField label="Username" autoComplete="off" value={form.username} onValue={(username) => setForm({ ...form, username })} error={errors.username} required />}
        <TextField label="Display name" value={form.display_name} onValue={(display_name) => setForm({ ...form, display_name })} error={errors.display_name} />
        <TextField label="Email" type="email" value={form.email} onValue={(email) => setForm({ ...form, email })} error={errors.email} />
        <SelectField label="Role" error={errors.role} value={form.role} options={roles.map((role): [string, string] => [role.id, role.label])} onValue={(role) => setForm({ ...form, role })} />
        <TextField
          label={user ? 'New password' : 'Password'}
          type="password"
          autoComplete="new-password"
          hint={user ? 'Leave empty to keep the current one. A new password ends their sessions.' : 'At least 8 characters.'}
          value={form.password}
          onValue={(password) => setForm({ ...form, password })}
          error={errors.password}
          required={!user}
        />
      </form>
    </Dialog>
  );
}
