// What to do with the selected entries: publish, unpublish or move them to
// the trash, each in one save. Shown while anything is selected.
import { useState } from 'preact/hooks';
import { bulkTrashEntries, bulkUpdateEntries } from '../../api/entries.ts';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useAction } from '../../ui/status.tsx';

export interface BulkBarProps {
  typeName: string;
  selected: string[];
  /** Called after a bulk action worked; the list reloads and the selection clears. */
  onDone: () => void;
  onClear: () => void;
}

/** The bar with the count and the bulk actions. */
export function BulkBar({ typeName, selected, onDone, onClear }: BulkBarProps) {
  const { can } = useSignedIn();
  const [confirmTrash, setConfirmTrash] = useState(false);
  const count = selected.length;
  const entries = `${count} ${count === 1 ? 'entry' : 'entries'}`;
  const publish = useAction({ progress: `Publishing ${entries}…`, success: `Published ${entries}.` });
  const unpublish = useAction({ progress: `Unpublishing ${entries}…`, success: `${entries} set to draft.` });
  if (count === 0) return null;
  const setStatus = async (action: typeof publish, status: 'published' | 'draft') => {
    if (await action.run(() => bulkUpdateEntries(typeName, selected, { status }))) onDone();
  };
  return (
    <div class="bulk-bar" role="region" aria-label="Selected entries">
      <span class="bulk-bar__count">{entries} selected</span>
      {can('content.publish') && (
        <Button busy={publish.busy} onClick={() => void setStatus(publish, 'published')}>
          Publish
        </Button>
      )}
      {can('content.update') && (
        <Button busy={unpublish.busy} onClick={() => void setStatus(unpublish, 'draft')}>
          Unpublish
        </Button>
      )}
      {can('content.delete') && (
        <Button variant="danger" onClick={() => setConfirmTrash(true)}>
          Delete
        </Button>
      )}
      <Button variant="quiet" onClick={onClear}>
        Clear selection
      </Button>
      <ConfirmDialog
        open={confirmTrash}
        title={`Delete ${entries}?`}
        confirmLabel={`Delete ${entries}`}
        danger
        onClose={() => setConfirmTrash(false)}
        onConfirm={async () => {
          await bulkTrashEntries(typeName, selected);
          onDone();
        }}
      >
        The {entries} move to the trash. You can restore them from there.
      </ConfirmDialog>
    </div>
  );
}
