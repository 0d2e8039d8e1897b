// Every role: built-in ones marked (they cannot change), how many users have
// each, and what each allows in plain words; links to edit and create.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listRoles, type Role } from '../../api/people.ts';
import { summarizeGrants } from '../../grants/grant-summary.ts';
import { Link } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { pathTo } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';

export function RolesScreen() {
  const { can } = useSignedIn();
  const [roles, setRoles] = useState<Role[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    listRoles().then(setRoles, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The roles could not be loaded.'));
  }, []);
  useTitle('Roles');
  const create = can('roles.create') ? pathTo('role', { id: 'new' }) : undefined;
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!roles) return <p class="loading">Loading…</p>;
  return (
    <div class="screen">
      <header class="page-header">
        <h1>Roles</h1>
        {create && (
          <Link href={create} class="button button--primary">
            New role
          </Link>
        )}
      </header>
      <ul class="card-list card-list--wide">
        {roles.map((role) => (
          <li key={role.id} class="card">
            <Link href={pathTo('role', { id: role.id }) ?? '#'}>{role.label}</Link>
            <span class="card__meta">
              {role.builtin ? 'Built in' : 'Custom'} · {role.user_count} {role.user_count === 1 ? 'user' : 'users'}
            </span>
            <ul class="card__summary">
              {summarizeGrants(role.permissions).map((sentence, index) => (
                <li key={index}>{sentence}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}
