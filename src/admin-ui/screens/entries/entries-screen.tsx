// A collection's entries: search, filters, sort and paging (all in the
// address), bulk actions on a selection, and live updates. A single page has
// no list: its address opens the editor instead.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { getContentType } from '../../api/content-types.ts';
import type { ContentType } from '../../api/types.ts';
import { useLiveEvents } from '../../live/live-events.tsx';
import { Link, navigate, setQuery, useLocation } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { pathTo, type ScreenProps } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Pager } from '../../ui/pager.tsx';
import { BulkBar } from './bulk-bar.tsx';
import { EntriesTable } from './entries-table.tsx';
import { ListToolbar } from './list-toolbar.tsx';
import { listStateOf, PAGE_SIZE, sortParam } from './list-state.ts';
import { useEntryPage } from './use-entry-page.ts';
import './entries-screen.css';

/** The list screen of one collection. */
export function EntriesScreen({ params }: ScreenProps) {
  const [type, setType] = useState<ContentType>();
  const [error, setError] = useState<string>();
  const load = () =>
    void getContentType(params.type).then(
      (loaded) => {
        setType(loaded);
        setError(undefined);
      },
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The collection could not be loaded.'),
    );
  useEffect(load, [params.type]);
  useLiveEvents({ events: ['schema.'], onEvent: (event) => event.data.type === params.type && load() });
  useEffect(() => {
    const editor = type?.singleton && pathTo('entry', { type: type.name, id: type.name });
    if (editor) navigate(editor, { replace: true });
  }, [type]);
  useTitle(type ? type.label || type.name : 'Entries');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!type || type.singleton) return <p class="loading">Loading…</p>;
  return <EntryList key={type.name} type={type} />;
}

function EntryList({ type }: { type: ContentType }) {
  const { can } = useSignedIn();
  const { query } = useLocation();
  const state = listStateOf(query, type);
  const page = useEntryPage(type, state);
  const [selected, setSelected] = useState(new Set<string>());
  const newEntry = can('content.create') ? pathTo('newEntry', { type: type.name }) : undefined;
  const isFiltered = state.q !== '' || state.status !== undefined || Object.keys(state.selects).length > 0;
  const select = (ids: string[], isSelected: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) isSelected ? next.add(id) : next.delete(id);
      return next;
    });
  const clearSelection = () => setSelected(new Set());

  return (
    <div class="screen screen--wide entries">
      <header class="page-header">
        <h1>{type.label || type.name}</h1>
        {newEntry && (
          <Link href={newEntry} class="button button--primary">
            New entry
          </Link>
        )}
      </header>
      <ListToolbar type={type} state={state} />
      <BulkBar typeName={type.name} selected={[...selected]} onClear={clearSelection} onDone={() => { clearSelection(); page.reload(); }} />
      {page.error && <p class="form-error" role="alert">{page.error.message}</p>}
      <p class="list-count" aria-live="polite">
        {page.loading ? 'Loading…' : `${page.total.toLocaleString()} ${page.total === 1 ? 'entry' : 'entries'}`}
      </p>
      {page.entries?.length === 0 && !page.loading ? (
        isFiltered ? (
          <EmptyState title="No entries match">Try other words or clear the filters.</EmptyState>
        ) : (
          <EmptyState title="No entries yet" action={newEntry && <Link href={newEntry} class="button button--primary">Create the first entry</Link>}>
            {newEntry ? 'Create the first one.' : 'Entries will show here once someone creates them.'}
          </EmptyState>
        )
      ) : (
        page.entries && (
          <EntriesTable
            type={type}
            entries={page.entries}
            authors={page.authors}
            sort={state.sort}
            onSort={(sort) => setQuery({ sort: sortParam(sort), offset: undefined })}
            selected={selected}
            onSelect={select}
          />
        )
      )}
      <Pager label="Entry pages" offset={state.offset} limit={PAGE_SIZE} total={page.total} onOffset={(offset) => setQuery({ offset: offset ? String(offset) : undefined })} />
    </div>
  );
}
