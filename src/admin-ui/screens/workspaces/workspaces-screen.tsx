// Workspaces: create one (slug and name), rename, archive (its content stays
// in the repository; the public API answers 404) and bring back; an archived
// one says when it is archived in doubt, and why (workspace-state.tsx).
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { createWorkspace, listAllWorkspaces, updateWorkspace } from '../../api/operations.ts';
import type { Workspace } from '../../api/types.ts';
import { slugify } from '../../content/slugify.ts';
import { useTitle } from '../../router/router-view.tsx';
import { announceWorkspacesChanged } from '../../session/workspace-changes.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { TextField } from '../../ui/field.tsx';
import { useAction } from '../../ui/status.tsx';
import { WorkspaceActions } from './workspace-actions.tsx';
import { WorkspaceState } from './workspace-state.tsx';

export function WorkspacesScreen() {
  const [workspaces, setWorkspaces] = useState<Workspace[]>();
  const [error, setError] = useState<string>();
  const [form, setForm] = useState({ label: '', slug: '' });
  const [renaming, setRenaming] = useState<{ slug: string; label: string }>();
  const [archiving, setArchiving] = useState<Workspace>();
  const create = useAction({ progress: 'Creating the workspace…', success: 'Workspace created.' });
  const change = useAction({ progress: 'Saving…', success: 'Saved.' });
  const load = () => void listAllWorkspaces().then(setWorkspaces, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The workspaces could not be loaded.'));
  // After a saved change: this list, and the switcher's.
  const reloadAll = () => (announceWorkspacesChanged(), load());
  useEffect(load, []);
  useTitle('Workspaces');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!workspaces) return <p class="loading">Loading…</p>;
  const setLabel = (label: string) => setForm({ label, slug: form.slug === '' || form.slug === slugify(form.label) ? slugify(label) : form.slug });
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await create.run(() => createWorkspace(form.slug, form.label))) {
      setForm({ label: '', slug: '' });
      reloadAll();
    }
  };
  const save = async (slug: string, patch: { label?: string; archived?: boolean }) => {
    if (await change.run(() => updateWorkspace(slug, patch))) reloadAll();
  };
  return (
    <div class="screen screen--wide">
      <h1>Workspaces</h1>
      <form class="panel" onSubmit={submit} noValidate aria-labelledby="new-workspace">
        <h2 id="new-workspace">New workspace</h2>
        <TextField label="Name" value={form.label} onValue={setLabel} error={create.fieldErrors.label} required />
        <TextField label="Slug" hint="In URLs and folder names: lowercase letters, digits and hyphens." value={form.slug} onValue={(slug) => setForm({ ...form, slug })} error={create.fieldErrors.slug} required />
        <Button type="submit" variant="primary" busy={create.busy}>
          Create the workspace
        </Button>
      </form>
      <DataTable
        caption="Workspaces"
        stackOnPhone
        rows={workspaces}
        rowKey={(workspace) => workspace.slug}
        columns={[
          {
            key: 'name',
            header: 'Name',
            cell: (workspace) =>
              renaming?.slug === workspace.slug ? (
                <form
                  class="inline-form"
                  onSubmit={(event) => {
                    event.preventDefault();
                    void save(workspace.slug, { label: renaming.label }).then(() => setRenaming(undefined));
                  }}
                >
                  <TextField label={`New name of ${workspace.slug}`} value={renaming.label} onValue={(label) => setRenaming({ slug: workspace.slug, label })} error={change.fieldErrors.label} />
                  <Button type="submit">Save</Button>
                  <Button variant="quiet" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </Button>
                </form>
              ) : (
                workspace.label
              ),
          },
          { key: 'slug', header: 'Slug', cell: (workspace) => workspace.slug },
          { key: 'state', header: 'State', cell: (workspace) => <WorkspaceState workspace={workspace} /> },
          {
            key: 'actions',
            header: <span class="visually-hidden">Actions</span>,
            cell: (workspace) => (
              <WorkspaceActions
                workspace={workspace}
                onRename={() => setRenaming({ slug: workspace.slug, label: workspace.label })}
                onArchive={() => setArchiving(workspace)}
                onBringBack={() => void save(workspace.slug, { archived: false })}
              />
            ),
          },
        ]}
      />
      <ConfirmDialog open={archiving !== undefined} title={`Archive ${archiving?.label ?? ''}?`} confirmLabel="Archive the workspace" danger onConfirm={async () => (await updateWorkspace(archiving?.slug ?? '', { archived: true }), reloadAll())} onClose={() => setArchiving(undefined)}>
        Its content stays in the repository, but the public API and the app stop showing it until it is brought back.
      </ConfirmDialog>
    </div>
  );
}
