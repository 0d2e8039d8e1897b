// Files as thumbnails (grid) or as rows (list), each with a checkbox for bulk
// actions and a button that opens its details.
import type { MediaItem } from '../../api/media.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { formatBytes } from './upload-queue.ts';

export interface MediaGridProps {
  items: MediaItem[];
  view: 'grid' | 'list';
  selected: Set<string>;
  onSelect: (filename: string, isSelected: boolean) => void;
  onOpen: (item: MediaItem) => void;
}

export function MediaGrid({ items, view, selected, onSelect, onOpen }: MediaGridProps) {
  const checkbox = (item: MediaItem) => (
    <input type="checkbox" checked={selected.has(item.filename)} aria-label={`Select ${item.filename}`} onChange={(event) => onSelect(item.filename, event.currentTarget.checked)} />
  );
  if (view === 'list') {
    return (
      <DataTable
        caption="Media files"
        stackOnPhone
        rows={items}
        rowKey={(item) => item.filename}
        columns={[
          { key: 'select', header: <span class="visually-hidden">Select</span>, cell: checkbox },
          { key: 'preview', header: <span class="visually-hidden">Preview</span>, cell: (item) => <Thumbnail item={item} small /> },
          {
            key: 'name',
            header: 'File',
            cell: (item) => (
              <button type="button" class="link-button" onClick={() => onOpen(item)}>
                {item.filename}
              </button>
            ),
          },
          { key: 'category', header: 'Category', cell: (item) => item.category || '—' },
          { key: 'size', header: 'Size', cell: (item) => formatBytes(item.size) },
          { key: 'visibility', header: 'Visibility', cell: (item) => (item.visibility === 'private' ? 'Private' : 'Public') },
        ]}
      />
    );
  }
  return (
    <ul class="media-grid">
      {items.map((item) => (
        <li key={item.filename} class={selected.has(item.filename) ? 'media-card media-card--selected' : 'media-card'}>
          <button type="button" class="media-card__open" onClick={() => onOpen(item)} aria-label={`Open ${item.filename}`}>
            <Thumbnail item={item} />
          </button>
          <span class="media-card__footer">
            {checkbox(item)}
            <span class="media-card__name" title={item.filename}>
              {item.filename}
            </span>
            {item.visibility === 'private' && <span class="media-card__private">Private</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The thumbnail of an image, or the kind of file for others. */
export function Thumbnail({ item, small }: { item: MediaItem; small?: boolean }) {
  const isImage = item.mime.startsWith('image/');
  return isImage ? (
    <img class={small ? 'thumb thumb--small' : 'thumb'} src={item.thumb_url} alt={item.alt} loading="lazy" width={small ? 40 : 160} height={small ? 40 : 120} />
  ) : (
    <span class={small ? 'thumb thumb--small thumb--file' : 'thumb thumb--file'}>{item.filename.split('.').pop()?.toUpperCase() ?? 'FILE'}</span>
  );
}
