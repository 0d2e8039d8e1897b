// The rows of one page: a checkbox, the title (a link to the editor), the
// status, the languages and when and by whom it was last changed.
import type { ContentType, Entry } from '../../api/types.ts';
import { authorName } from '../../content/authors.ts';
import { LocalePills } from '../../content/locale-pills.tsx';
import { formatDateTime, StatusBadge } from '../../content/status-badge.tsx';
import { Link } from '../../router/router.tsx';
import { pathTo } from '../../routes.ts';
import { DataTable, type Column, type TableSort } from '../../ui/data-table.tsx';

export interface EntriesTableProps {
  type: ContentType;
  entries: Entry[];
  authors: Map<string, string>;
  sort: TableSort;
  onSort: (sort: TableSort) => void;
  selected: Set<string>;
  onSelect: (ids: string[], isSelected: boolean) => void;
}

/** The table of one page of entries. */
export function EntriesTable({ type, entries, authors, sort, onSort, selected, onSelect }: EntriesTableProps) {
  const allSelected = entries.length > 0 && entries.every((entry) => selected.has(entry.id));
  const columns: Column<Entry>[] = [
    {
      key: 'select',
      header: (
        <input type="checkbox" aria-label="Select all entries on this page" checked={allSelected} onChange={(event) => onSelect(entries.map((entry) => entry.id), event.currentTarget.checked)} />
      ),
      cell: (entry) => <input type="checkbox" aria-label={`Select ${entry.title || entry.slug}`} checked={selected.has(entry.id)} onChange={(event) => onSelect([entry.id], event.currentTarget.checked)} />,
    },
    { key: 'title', header: 'Title', sortKey: 'title', cell: (entry) => <TitleCell type={type} entry={entry} /> },
    { key: 'status', header: 'Status', sortKey: 'status', cell: (entry) => <StatusBadge status={entry.status} publishedAt={entry.published_at} /> },
    ...(type.locales.length > 0 ? [{ key: 'locales', header: 'Languages', cell: (entry: Entry) => <LocalePills type={type} saved={entry.translations} /> }] : []),
    { key: 'updated', header: 'Updated', sortKey: 'updated_at', cell: (entry) => <UpdatedCell entry={entry} authors={authors} /> },
  ];
  return <DataTable caption={`${type.label || type.name} entries`} columns={columns} rows={entries} rowKey={(entry) => entry.id} sort={sort} onSort={onSort} />;
}

function TitleCell({ type, entry }: { type: ContentType; entry: Entry }) {
  const href = pathTo('entry', { type: type.name, id: entry.id });
  const title = entry.title || '(untitled)';
  return (
    <div class="entries__title">
      {href ? <Link href={href}>{title}</Link> : title}
      <span class="entries__slug">/{entry.slug}</span>
    </div>
  );
}

function UpdatedCell({ entry, authors }: { entry: Entry; authors: Map<string, string> }) {
  const who = authorName(entry.updated_by, authors);
  return (
    <div class="entries__updated">
      <time dateTime={entry.updated_at}>{formatDateTime(entry.updated_at)}</time>
      {who && <span class="entries__author">{who}</span>}
    </div>
  );
}
