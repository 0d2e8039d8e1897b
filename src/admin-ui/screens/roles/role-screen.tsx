// One role (`/admin/roles/:id`, `new` for a new one): its name and grants in
// the grants editor, with the plain-language summary; built-in roles are
// shown read-only. Delete when nobody has the role.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { createRole, deleteRole, getRole, updateRole, type Role } from '../../api/people.ts';
import { grantDraftOf, grantOf, type GrantDraft } from '../../grants/grant-draft.ts';
import { GrantsEditor } from '../../grants/grants-editor.tsx';
import { Link, navigate } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { pathTo, type ScreenProps } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { UnavailableButton } from '../../ui/unavailable-button.tsx';
import { TextField } from '../../ui/field.tsx';
import { useAction } from '../../ui/status.tsx';
import { useGrantContext } from './use-grant-context.ts';

export function RoleScreen({ params }: ScreenProps) {
  const isNew = params.id === 'new';
  const [role, setRole] = useState<Role | null | undefined>(isNew ? null : undefined);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!isNew) getRole(params.id).then(setRole, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The role could not be loaded.'));
  }, [params.id]);
  useTitle(role ? `Role ${role.label}` : 'New role');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (role === undefined) return <p class="loading">Loading…</p>;
  return <RoleForm key={role?.id ?? 'new'} role={role ?? undefined} />;
}

function RoleForm({ role }: { role: Role | undefined }) {
  const { can } = useSignedIn();
  const context = useGrantContext();
  const [label, setLabel] = useState(role?.label ?? '');
  const [grants, setGrants] = useState<GrantDraft[]>(() => (role?.permissions ?? []).map(grantDraftOf));
  const [isDeleting, setDeleting] = useState(false);
  const save = useAction({ progress: 'Saving the role…', success: 'Role saved.' });
  const readOnly = role?.builtin === true || !can(role ? 'roles.update' : 'roles.create');
  const list = pathTo('roles');
  const submit = async (event: Event) => {
    event.preventDefault();
    const permissions = grants.map(grantOf);
    const saved = await save.run(() => (role ? updateRole(role.id, label, permissions) : createRole(label, permissions)));
    if (saved && !role) {
      const edit = pathTo('role', { id: saved.id });
      if (edit) navigate(edit, { replace: true });
    }
  };
  return (
    <form class="screen" onSubmit={submit} noValidate>
      <header class="page-header">
        <h1>{role ? role.label : 'New role'}</h1>
        {list && <Link href={list}>All roles</Link>}
      </header>
      {role?.builtin && <p class="notice">This role is built in: it cannot be changed or deleted. Create a role of your own to give other rights.</p>}
      {save.error && !Object.keys(save.fieldErrors).length && (
        <p class="form-error" role="alert">
          {save.error.message}
        </p>
      )}
      <TextField label="Name" value={label} onValue={setLabel} error={save.fieldErrors.label} disabled={readOnly} required />
      <h2>What people with this role may do</h2>
      {context ? <GrantsEditor grants={grants} onChange={setGrants} {...context} errors={save.fieldErrors} readOnly={readOnly} /> : <p class="loading">Loading…</p>}
      {!readOnly && (
        <div class="panel__actions">
          <Button type="submit" variant="primary" busy={save.busy}>
            {role ? 'Save the role' : 'Create the role'}
          </Button>
          {role && can('roles.delete') && (
            <UnavailableButton variant="danger" onClick={() => setDeleting(true)} unavailable={role.user_count > 0 ? 'Give its users another role first.' : undefined}>
              Delete the role
            </UnavailableButton>
          )}
        </div>
      )}
      {role && (
        <ConfirmDialog
          open={isDeleting}
          title={`Delete the role ${role.label}?`}
          confirmLabel="Delete the role"
          danger
          onConfirm={async () => {
            await deleteRole(role.id);
            if (list) navigate(list, { replace: true });
          }}
          onClose={() => setDeleting(false)}
        >
          Nobody has this role; it is deleted for good.
        </ConfirmDialog>
      )}
    </form>
  );
}
