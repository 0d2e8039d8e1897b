// The people who sign in: list with role, create, change (name, email, role,
// a new password), delete — never yourself, never the last administrator.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { deleteUser, listRoles, listUsers, type Role } from '../../api/people.ts';
import type { User } from '../../api/types.ts';
import { useTitle } from '../../router/router-view.tsx';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { UnavailableButton } from '../../ui/unavailable-button.tsx';
import { UserDialog } from './user-dialog.tsx';
import './users-screen.css';

export function UsersScreen() {
  const { user: me, can } = useSignedIn();
  const [users, setUsers] = useState<User[]>();
  const [roles, setRoles] = useState<Role[]>([]);
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState<User | 'new'>();
  const [deleting, setDeleting] = useState<User>();
  const load = () =>
    void Promise.all([listUsers(), listRoles().catch(() => [] as Role[])]).then(
      ([list, roleList]) => (setUsers(list), setRoles(roleList)),
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The users could not be loaded.'),
    );
  useEffect(load, []);
  useTitle('Users');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!users) return <p class="loading">Loading…</p>;
  const roleLabel = (id: string) => roles.find((role) => role.id === id)?.label ?? id;
  const admins = users.filter((user) => user.role === 'admin').length;
  const whyNotDelete = (user: User) => (user.id === me.id ? 'You cannot delete yourself.' : user.role === 'admin' && admins === 1 ? 'The last administrator cannot be deleted.' : undefined);
  return (
    <div class="screen screen--wide">
      <header class="page-header">
        <h1>Users</h1>
        {can('users.create') && (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New user
          </Button>
        )}
      </header>
      <DataTable
        caption="Users"
        stackOnPhone
        rows={users}
        rowKey={(user) => user.id}
        columns={[
          {
            key: 'name',
            header: 'Name',
            cell: (user) => (
              <span class="user-name">
                <span class="avatar" aria-hidden="true">
                  {user.avatar_url ? <img src={user.avatar_url} alt="" width={32} height={32} /> : (user.display_name || user.username).slice(0, 1).toUpperCase()}
                </span>
                {user.display_name || user.username}
                {user.id === me.id && <span class="field__hint"> (you)</span>}
              </span>
            ),
          },
          { key: 'username', header: 'Username', cell: (user) => user.username },
          { key: 'email', header: 'Email', cell: (user) => user.email || '—' },
          { key: 'role', header: 'Role', cell: (user) => roleLabel(user.role) },
          {
            key: 'actions',
            header: <span class="visually-hidden">Actions</span>,
            cell: (user) => (
              <span class="row-actions">
                {can('users.update') && (
                  <Button onClick={() => setEditing(user)} aria-label={`Edit ${user.username}`}>
                    Edit
                  </Button>
                )}
                {can('users.delete') && (
                  <UnavailableButton variant="danger" onClick={() => setDeleting(user)} unavailable={whyNotDelete(user)} aria-label={`Delete ${user.username}`}>
                    Delete
                  </UnavailableButton>
                )}
              </span>
            ),
          },
        ]}
      />
      {editing && <UserDialog user={editing === 'new' ? undefined : editing} roles={roles} onClose={() => setEditing(undefined)} onSaved={() => (setEditing(undefined), load())} />}
      <ConfirmDialog open={deleting !== undefined} title={`Delete ${deleting?.username ?? ''}?`} confirmLabel="Delete the user" danger onConfirm={async () => (await deleteUser(deleting?.id ?? ''), load())} onClose={() => setDeleting(undefined)}>
        They can no longer sign in, and their sessions end now. What they wrote stays, under their name.
      </ConfirmDialog>
    </div>
  );
}
