// The media library: upload (drop or pick, several at once, each with its
// progress and error), search and filters in the address, grid or list,
// bulk actions on a selection, categories, and each file's details.
import { useState } from 'preact/hooks';
import type { MediaItem } from '../../api/media.ts';
import { setQuery, useLocation } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { useSignedIn } from '../../session/session.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Pager } from '../../ui/pager.tsx';
import { CategoriesPanel } from './categories-panel.tsx';
import { MediaBulkBar } from './media-bulk-bar.tsx';
import { MediaDetails } from './media-details.tsx';
import { MediaGrid } from './media-grid.tsx';
import { MediaToolbar, type MediaFilters } from './media-toolbar.tsx';
import { UploadZone } from './upload-zone.tsx';
import { useMediaPage } from './use-media-page.ts';
import './media-screen.css';

const PAGE_SIZE = 48;

export function MediaScreen() {
  const { can } = useSignedIn();
  const { query } = useLocation();
  const filters: MediaFilters = {
    q: query.get('q') ?? '',
    kind: query.get('kind') ?? '',
    category: query.get('category') ?? '',
    visibility: query.get('visibility') ?? '',
    view: query.get('view') === 'list' ? 'list' : 'grid',
  };
  const offset = Number(query.get('offset') ?? 0) || 0;
  const page = useMediaPage({ q: filters.q || undefined, kind: filters.kind || undefined, category: filters.category || undefined, visibility: filters.visibility || undefined, limit: PAGE_SIZE, offset });
  const [selected, setSelected] = useState(new Set<string>());
  const [open, setOpen] = useState<MediaItem>();
  useTitle('Media');
  const change = (next: Partial<MediaFilters>) => setQuery({ ...Object.fromEntries(Object.entries(next).map(([key, value]) => [key, value || undefined])), offset: undefined }, { replace: true });
  const select = (filename: string, isSelected: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (isSelected) next.add(filename);
      else next.delete(filename);
      return next;
    });
  // The open file as the last reload has it (its visibility may just have changed); as opened when a filter hides it now.
  const shown = open && (page.items?.find((item) => item.filename === open.filename) ?? open);
  const isFiltered = Object.entries(filters).some(([key, value]) => key !== 'view' && value !== '');
  return (
    <div class="screen screen--wide media">
      <h1>Media</h1>
      {can('media.upload') && <UploadZone category={filters.category || undefined} onUploaded={() => page.reload()} />}
      {can('media.update') && <CategoriesPanel categories={page.categories} onChanged={page.reload} />}
      <MediaToolbar filters={filters} categories={page.categories} onChange={change} />
      <MediaBulkBar selected={[...selected]} categories={page.categories} onDone={() => (setSelected(new Set()), page.reload())} />
      {page.error && <p class="form-error" role="alert">{page.error}</p>}
      <p class="list-count" aria-live="polite">
        {page.items ? `${page.total.toLocaleString()} ${page.total === 1 ? 'file' : 'files'}` : 'Loading…'}
      </p>
      {page.items?.length === 0 ? (
        isFiltered ? <EmptyState title="No files match">Try other words or clear the filters.</EmptyState> : <EmptyState title="No files yet">Drop images or documents above to upload them.</EmptyState>
      ) : (
        page.items && <MediaGrid items={page.items} view={filters.view} selected={selected} onSelect={select} onOpen={setOpen} />
      )}
      <Pager label="Media pages" offset={offset} limit={PAGE_SIZE} total={page.total} onOffset={(next) => setQuery({ offset: next ? String(next) : undefined })} />
      {shown && <MediaDetails key={shown.filename} item={shown} categories={page.categories} onClose={() => setOpen(undefined)} onChanged={page.reload} />}
    </div>
  );
}
