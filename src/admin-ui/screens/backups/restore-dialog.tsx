// Restoring from a backup: what the archive holds (counted per part), the
// parts to restore, whether to overwrite what exists, a clear statement of
// what will change, and what the restore did.
import { useEffect, useState } from 'preact/hooks';
import { inspectBackup, restoreBackup, type Backup, type BackupDetail } from '../../api/operations.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { useAction } from '../../ui/status.tsx';
import { PART_LABELS } from './backup-parts.ts';

export function RestoreDialog({ backup, onClose }: { backup: Backup; onClose: () => void }) {
  const [detail, setDetail] = useState<BackupDetail>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [overwrite, setOverwrite] = useState(false);
  const [outcome, setOutcome] = useState<string[]>();
  const restore = useAction({ progress: 'Restoring… this can take a while.', success: 'Restored.' });
  useEffect(() => {
    inspectBackup(backup.name).then((inspected) => (setDetail(inspected), setChosen(inspected.includes)), () => setDetail(undefined));
  }, [backup.name]);
  const run = async () => {
    const result = await restore.run(() => restoreBackup(backup.name, chosen, overwrite));
    if (result) setOutcome([...Object.entries(result.restored).map(([part, count]) => `${PART_LABELS[part] ?? part}: ${count} restored`), ...result.notes]);
  };
  return (
    <Dialog
      open
      wide
      title={`Restore from ${backup.name}`}
      onClose={onClose}
      actions={
        outcome ? (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        ) : (
          <>
            <Button variant="danger" busy={restore.busy} disabled={chosen.length === 0} onClick={() => void run()}>
              Restore {chosen.length} {chosen.length === 1 ? 'part' : 'parts'}
            </Button>
            <Button onClick={onClose}>Cancel</Button>
          </>
        )
      }
    >
      {!detail && <p class="loading">Reading the archive…</p>}
      {detail && !outcome && (
        <>
          <p>
            Made {new Date(detail.created_at).toLocaleString()} by version {detail.version}
            {detail.includes_secrets ? ', with password and token hashes' : ''}.
          </p>
          <fieldset class="field field-group">
            <legend>Parts to restore</legend>
            {detail.includes.map((part) => (
              <label key={part} class="check">
                <input type="checkbox" checked={chosen.includes(part)} onChange={(event) => setChosen(event.currentTarget.checked ? [...chosen, part] : chosen.filter((other) => other !== part))} /> {PART_LABELS[part] ?? part} ({detail.parts[part] ?? 0})
              </label>
            ))}
          </fieldset>
          <label class="check">
            <input type="checkbox" checked={overwrite} onChange={(event) => setOverwrite(event.currentTarget.checked)} /> Replace what exists now with the backup's version
          </label>
          <p class="notice">
            {overwrite
              ? 'Entries, types and files that exist now are replaced by the backup’s versions; what is only here stays. Every change is a new version, so nothing is lost from the history.'
              : 'Only what is missing now is added; nothing that exists is changed.'}
          </p>
        </>
      )}
      {outcome && (
        <ul aria-label="What the restore did">
          {outcome.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
