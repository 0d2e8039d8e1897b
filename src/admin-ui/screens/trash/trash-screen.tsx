// What was deleted, one collection at a time (`/admin/trash/:type`; plain
// `/admin/trash` opens the first collection): restore an entry, delete one
// for good, or empty the collection's trash. Changes made elsewhere show live.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listContentTypes } from '../../api/content-types.ts';
import type { ContentType } from '../../api/types.ts';
import { navigate, setQuery, useLocation } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { pathTo, type ScreenProps } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Pager } from '../../ui/pager.tsx';
import { useStatus } from '../../ui/status.tsx';
import { emptyTrash } from '../../api/trash.ts';
import { TRASH_PAGE_SIZE, useTrashPage } from './use-trash-page.ts';
import { TrashTable } from './trash-table.tsx';
import './trash-screen.css';

/** The trash screen. */
export function TrashScreen({ params }: ScreenProps) {
  const [types, setTypes] = useState<ContentType[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    listContentTypes().then(setTypes, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The collections could not be loaded.'));
  }, []);
  useTitle('Trash');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!types) return <p class="loading">Loading…</p>;
  if (types.length === 0) {
    return (
      <div class="screen">
        <h1>Trash</h1>
        <EmptyState title="Nothing can be in the trash yet">Deleted entries show here once there are content types and entries.</EmptyState>
      </div>
    );
  }
  const type = types.find((candidate) => candidate.name === params.type) ?? types[0];
  return <TypeTrash key={type.name} type={type} types={types} />;
}

function TypeTrash({ type, types }: { type: ContentType; types: ContentType[] }) {
  const { can } = useSignedIn();
  const status = useStatus();
  const { query } = useLocation();
  const offset = Number(query.get('offset') ?? 0) || 0;
  const page = useTrashPage(type.name, offset);
  const [isEmptying, setEmptying] = useState(false);
  const label = type.label || type.name;
  const empty = async () => {
    const purged = await emptyTrash(type.name);
    status.show('success', `Deleted ${purged} ${purged === 1 ? 'entry' : 'entries'} for good.`);
    page.reload();
  };
  return (
    <div class="screen screen--wide trash">
      <header class="trash__header">
        <h1>Trash</h1>
        <label class="trash__type">
          <span>Collection</span>
          <select
            class="input"
            value={type.name}
            onChange={(event) => {
              const next = pathTo('typeTrash', { type: (event.target as HTMLSelectElement).value });
              if (next) navigate(next);
            }}
          >
            {types.map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {candidate.label || candidate.name}
              </option>
            ))}
          </select>
        </label>
        {can('trash.purge') && page.total > 0 && (
          <Button variant="danger" onClick={() => setEmptying(true)}>
            Empty the trash of {label}
          </Button>
        )}
      </header>
      {page.error && <p class="form-error" role="alert">{page.error}</p>}
      {page.entries?.length === 0 ? (
        <EmptyState title={`The trash of ${label} is empty`}>Entries you delete from {label} wait here until you restore them or delete them for good.</EmptyState>
      ) : (
        page.entries && <TrashTable type={type} entries={page.entries} authors={page.authors} onChanged={page.reload} />
      )}
      <Pager label="Trash pages" offset={offset} limit={TRASH_PAGE_SIZE} total={page.total} onOffset={(next) => setQuery({ offset: next ? String(next) : undefined })} />
      <ConfirmDialog open={isEmptying} title={`Empty the trash of ${label}?`} confirmLabel={`Delete ${page.total} ${page.total === 1 ? 'entry' : 'entries'} for good`} danger onConfirm={empty} onClose={() => setEmptying(false)}>
        {page.total === 1 ? 'The entry' : `All ${page.total} entries`} in this trash will be deleted for good. Their earlier versions stay in the history, but they cannot be restored from here.
      </ConfirmDialog>
    </div>
  );
}
