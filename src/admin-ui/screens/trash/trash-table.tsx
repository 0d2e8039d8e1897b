// The deleted entries of one collection, each with Restore and Delete for good.
import { useState } from 'preact/hooks';
import { purgeFromTrash, restoreFromTrash, type TrashedEntry } from '../../api/trash.ts';
import type { ContentType } from '../../api/types.ts';
import { authorName } from '../../content/authors.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { useAction } from '../../ui/status.tsx';

export interface TrashTableProps {
  type: ContentType;
  entries: TrashedEntry[];
  authors: Map<string, string>;
  onChanged: () => void;
}

export function TrashTable({ type, entries, authors, onChanged }: TrashTableProps) {
  const { can } = useSignedIn();
  const [purging, setPurging] = useState<TrashedEntry>();
  const restoring = useAction({ progress: 'Restoring…', success: 'Restored.' });
  const restore = async (entry: TrashedEntry) => {
    const restored = await restoring.run(() => restoreFromTrash(type.name, entry.id));
    if (restored) onChanged();
  };
  const purge = async () => {
    if (!purging) return;
    await purgeFromTrash(type.name, purging.id);
    onChanged();
  };
  return (
    <>
      <DataTable
        caption={`Deleted entries of ${type.label || type.name}`}
        stackOnPhone
        rows={entries}
        rowKey={(entry) => entry.id}
        columns={[
          {
            key: 'title',
            header: 'Title',
            cell: (entry) => (
              <span>
                {entry.title || entry.slug} <span class="trash__slug">{entry.slug}</span>
              </span>
            ),
          },
          { key: 'deleted', header: 'Deleted', cell: (entry) => (entry.deleted_at ? formatDateTime(entry.deleted_at) : 'Unknown') },
          { key: 'by', header: 'By', cell: (entry) => authorName(entry.deleted_by ?? undefined, authors) ?? '—' },
          {
            key: 'actions',
            header: <span class="visually-hidden">Actions</span>,
            cell: (entry) => (
              <span class="row-actions">
                {can('trash.restore') && (
                  <Button onClick={() => restore(entry)} disabled={restoring.busy} aria-label={`Restore ${entry.title}`}>
                    Restore
                  </Button>
                )}
                {can('trash.purge') && (
                  <Button variant="danger" onClick={() => setPurging(entry)} aria-label={`Delete for good: ${entry.title}`}>
                    Delete for good
                  </Button>
                )}
              </span>
            ),
          },
        ]}
      />
      <ConfirmDialog open={purging !== undefined} title={`Delete “${purging?.title ?? ''}” for good?`} confirmLabel="Delete for good" danger onConfirm={purge} onClose={() => setPurging(undefined)}>
        It leaves the trash and cannot be restored from here. Its earlier versions stay in the history.
      </ConfirmDialog>
    </>
  );
}
