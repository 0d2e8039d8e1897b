// Backups: make one of the chosen parts, upload one made elsewhere (with a
// progress bar), see what each holds, download, restore chosen parts after a
// confirmation that says what will change, delete.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { backupDownloadUrl, createBackup, deleteBackup, listBackups, uploadBackup, type Backup } from '../../api/operations.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { useAction } from '../../ui/status.tsx';
import { formatBytes } from '../media/upload-queue.ts';
import { PART_LABELS } from './backup-parts.ts';
import { RestoreDialog } from './restore-dialog.tsx';


export function BackupsScreen() {
  const { can } = useSignedIn();
  const [backups, setBackups] = useState<Backup[]>();
  const [parts, setParts] = useState<string[]>([]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [restoring, setRestoring] = useState<Backup>();
  const [deleting, setDeleting] = useState<Backup>();
  const [uploadShare, setUploadShare] = useState<number>();
  const fileInput = useRef<HTMLInputElement>(null);
  const create = useAction({ progress: 'Making the backup… this can take a while.', success: 'Backup made.' });
  const upload = useAction({ progress: 'Uploading the backup…', success: 'Backup uploaded.' });
  const load = (first = false) =>
    void listBackups().then(
      (list) => {
        setBackups(list.backups);
        setParts(list.parts);
        if (first) setChosen(list.defaultParts);
      },
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The backups could not be loaded.'),
    );
  useEffect(() => load(true), []);
  useTitle('Backups');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!backups) return <p class="loading">Loading…</p>;
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setUploadShare(0);
    await upload.run(() => uploadBackup(file, setUploadShare));
    setUploadShare(undefined);
    load();
  };
  return (
    <div class="screen screen--wide">
      <h1>Backups</h1>
      {can('backups.create') && (
        <section class="panel" aria-labelledby="new-backup">
          <h2 id="new-backup">Make a backup</h2>
          <fieldset class="field field-group">
            <legend>What goes in</legend>
            <div class="checkbox-columns">
              {parts.map((part) => (
                <label key={part} class="check">
                  <input type="checkbox" checked={chosen.includes(part)} onChange={(event) => setChosen(event.currentTarget.checked ? [...chosen, part] : chosen.filter((other) => other !== part))} /> {PART_LABELS[part] ?? part}
                </label>
              ))}
            </div>
          </fieldset>
          <div class="panel__actions">
            <Button variant="primary" busy={create.busy} disabled={chosen.length === 0} onClick={() => void create.run(() => createBackup(chosen)).then(() => load())}>
              Make the backup
            </Button>
            <Button busy={upload.busy} onClick={() => fileInput.current?.click()}>
              Upload a backup
            </Button>
            <input ref={fileInput} type="file" accept=".zip,application/zip" class="visually-hidden" tabIndex={-1} aria-label="Backup file to upload" onChange={(event) => void onFile(event.currentTarget.files?.[0])} />
            {uploadShare !== undefined && <progress max={1} value={uploadShare} aria-label="Uploading the backup" />}
          </div>
          {upload.error && <p class="form-error" role="alert">{upload.error.message}</p>}
        </section>
      )}
      {backups.length === 0 ? (
        <p class="field__hint">No backups yet.</p>
      ) : (
        <DataTable
          caption="Backups"
          stackOnPhone
          rows={backups}
          rowKey={(backup) => backup.name}
          columns={[
            { key: 'name', header: 'Backup', cell: (backup) => <span class="break">{backup.name}</span> },
            { key: 'made', header: 'Made', cell: (backup) => formatDateTime(backup.created_at) },
            { key: 'size', header: 'Size', cell: (backup) => formatBytes(backup.size) },
            { key: 'parts', header: 'Holds', cell: (backup) => backup.parts.map((part) => PART_LABELS[part] ?? part).join(', ') },
            {
              key: 'actions',
              header: <span class="visually-hidden">Actions</span>,
              cell: (backup) => (
                <span class="row-actions">
                  <a class="button button--secondary" href={backupDownloadUrl(backup.name)} download aria-label={`Download ${backup.name}`}>
                    Download
                  </a>
                  {can('backups.restore') && (
                    <Button onClick={() => setRestoring(backup)} aria-label={`Restore from ${backup.name}`}>
                      Restore…
                    </Button>
                  )}
                  {can('backups.delete') && (
                    <Button variant="danger" onClick={() => setDeleting(backup)} aria-label={`Delete ${backup.name}`}>
                      Delete
                    </Button>
                  )}
                </span>
              ),
            },
          ]}
        />
      )}
      {restoring && <RestoreDialog backup={restoring} onClose={() => setRestoring(undefined)} />}
      <ConfirmDialog open={deleting !== undefined} title={`Delete ${deleting?.name ?? ''}?`} confirmLabel="Delete the backup" danger onConfirm={async () => (await deleteBackup(deleting?.name ?? ''), load())} onClose={() => setDeleting(undefined)}>
        The archive is deleted for good. What it restored stays.
      </ConfirmDialog>
    </div>
  );
}
