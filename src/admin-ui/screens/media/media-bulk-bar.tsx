// What can be done to the selected files at once: move them to a category,
// make them public or private, delete them (after a confirmation).
import { useState } from 'preact/hooks';
import { deleteMedia, moveMedia, setMediaVisibility } from '../../api/media.ts';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useAction } from '../../ui/status.tsx';
import { categoryOptions } from './category-options.ts';

export function MediaBulkBar({ selected, categories, onDone }: { selected: string[]; categories: string[]; onDone: () => void }) {
  const { can } = useSignedIn();
  const [target, setTarget] = useState('');
  const [isDeleting, setDeleting] = useState(false);
  const action = useAction({ progress: 'Saving…', success: 'Saved.' });
  if (selected.length === 0) return null;
  const count = `${selected.length} ${selected.length === 1 ? 'file' : 'files'}`;
  const run = async (task: () => Promise<void>) => {
    if ((await action.run(async () => (await task(), true))) === true) onDone();
  };
  return (
    <div class="bulk-bar" role="region" aria-label="Selected files">
      <span class="bulk-bar__count">{count} selected</span>
      {can('media.update') && (
        <>
          <label class="bulk-bar__move">
            <span class="visually-hidden">Move to category</span>
            <select class="input" value={target} onChange={(event) => setTarget(event.currentTarget.value)}>
              {categoryOptions(categories, 'No category').map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <Button onClick={() => run(() => moveMedia(selected, target))} disabled={action.busy}>
            Move
          </Button>
          <Button onClick={() => run(() => setMediaVisibility(selected, 'public'))} disabled={action.busy}>
            Make public
          </Button>
          <Button onClick={() => run(() => setMediaVisibility(selected, 'private'))} disabled={action.busy}>
            Make private
          </Button>
        </>
      )}
      {can('media.delete') && (
        <Button variant="danger" onClick={() => setDeleting(true)}>
          Delete {count}
        </Button>
      )}
      <ConfirmDialog open={isDeleting} title={`Delete ${count}?`} confirmLabel={`Delete ${count}`} danger onConfirm={async () => (await deleteMedia(selected), onDone())} onClose={() => setDeleting(false)}>
        The files are deleted for good; entries that use them will show no file there.
      </ConfirmDialog>
    </div>
  );
}
