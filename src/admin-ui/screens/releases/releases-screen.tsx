// Releases: name the current content (with a note) so a website can be built
// from exactly that content later, list the releases with who made them,
// copy the address a build reads a release from, delete one after a
// confirmation that says the content itself stays.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { createRelease, deleteRelease, listReleases, releaseReadUrl, type Release } from '../../api/releases.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Field, TextField } from '../../ui/field.tsx';
import { useAction, useStatus } from '../../ui/status.tsx';
import './releases-screen.css';

export function ReleasesScreen() {
  const { can, workspace } = useSignedIn();
  const status = useStatus();
  const [releases, setReleases] = useState<Release[]>();
  const [error, setError] = useState<string>();
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [deleting, setDeleting] = useState<Release>();
  const save = useAction({ progress: 'Making the release…', success: 'Release made.' });
  const load = () => void listReleases().then(setReleases, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The releases could not be loaded.'));
  useEffect(load, []);
  useTitle('Releases');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!releases) return <p class="loading">Loading…</p>;
  const submit = async (event: Event) => {
    event.preventDefault();
    const made = await save.run(() => createRelease({ name: name.trim(), ...(note.trim() ? { note } : {}) }));
    if (!made) return;
    setName('');
    setNote('');
    load();
  };
  const copy = (release: Release) => {
    const url = releaseReadUrl(workspace, release.name);
    void navigator.clipboard.writeText(url).then(
      () => status.show('success', `The address of ${release.name} is copied.`),
      () => status.show('error', `The address could not be copied: ${url}`),
    );
  };
  return (
    <div class="screen screen--wide">
      <h1>Releases</h1>
      <p class="releases-intro">A release names the content as it is now. A website built from a release shows exactly that content, whatever changes later.</p>
      {can('releases.create') && (
        <form class="panel" aria-labelledby="new-release" onSubmit={submit} noValidate>
          <h2 id="new-release">Make a release</h2>
          {save.error && !Object.keys(save.fieldErrors).length && (
            <p class="form-error" role="alert">
              {save.error.message}
            </p>
          )}
          <TextField label="Name" hint="Letters, digits, dots, hyphens and slashes, e.g. “spring-2026” or “site/v3”." value={name} onValue={setName} error={save.fieldErrors.name} required />
          <Field label="Note" hint="What this release is for; optional." error={save.fieldErrors.note}>
            {(control) => <textarea {...control} class="input" rows={3} value={note} onInput={(event) => setNote(event.currentTarget.value)} />}
          </Field>
          <div class="panel__actions">
            <Button type="submit" variant="primary" busy={save.busy}>
              Make the release
            </Button>
          </div>
        </form>
      )}
      {releases.length === 0 ? (
        <EmptyState title="No releases yet">{can('releases.create') ? 'Make the first one above when the content is ready for a website build.' : 'Someone who may make releases can name the current content here.'}</EmptyState>
      ) : (
        <DataTable
          caption="Releases"
          stackOnPhone
          rows={releases}
          rowKey={(release) => release.name}
          columns={[
            { key: 'name', header: 'Release', cell: (release) => <span class="break">{release.name}</span> },
            { key: 'note', header: 'Note', cell: (release) => release.note ?? '' },
            { key: 'by', header: 'Made by', cell: (release) => release.actor.name ?? 'Made with git' },
            { key: 'made', header: 'Made', cell: (release) => formatDateTime(release.created_at) },
            {
              key: 'actions',
              header: <span class="visually-hidden">Actions</span>,
              cell: (release) => (
                <span class="row-actions">
                  <Button onClick={() => copy(release)} aria-label={`Copy the address of ${release.name}`}>
                    Copy address
                  </Button>
                  {can('releases.delete') && (
                    <Button variant="danger" onClick={() => setDeleting(release)} aria-label={`Delete ${release.name}`}>
                      Delete
                    </Button>
                  )}
                </span>
              ),
            },
          ]}
        />
      )}
      <ConfirmDialog open={deleting !== undefined} title={`Delete ${deleting?.name ?? ''}?`} confirmLabel="Delete the release" danger onConfirm={async () => (await deleteRelease(deleting?.name ?? ''), load())} onClose={() => setDeleting(undefined)}>
        Websites can no longer be built from this release. The content itself and its versions stay.
      </ConfirmDialog>
    </div>
  );
}
