// The entry list's state lives in the address (so a reload, a shared link or
// the back button shows the same page): search, status, select filters
// (`f.<field>`), sort and the page. This turns it into the API's query.
import type { EntryListQuery } from '../../api/entries.ts';
import type { ContentType, EntryStatus } from '../../api/types.ts';
import { optionsOf } from '../../content/select-options.ts';
import type { TableSort } from '../../ui/data-table.tsx';

/** Entries per page. */
export const PAGE_SIZE = 50;
const FILTER_PREFIX = 'f.';

/** What the address says about the list. */
export interface ListState {
  q: string;
  status: EntryStatus | undefined;
  /** Select field → chosen option value. */
  selects: Record<string, string>;
  sort: TableSort;
  offset: number;
}

/** Reads the list state from the query string of the address. */
export function listStateOf(query: URLSearchParams, type: ContentType): ListState {
  const sort = query.get('sort') ?? '-updated_at';
  const selects: Record<string, string> = {};
  for (const [key, value] of query) {
    const field = key.startsWith(FILTER_PREFIX) ? key.slice(FILTER_PREFIX.length) : undefined;
    if (field && type.fields[field]?.type === 'select' && value) selects[field] = value;
  }
  return {
    q: query.get('q') ?? '',
    status: (query.get('status') as EntryStatus | null) ?? undefined,
    selects,
    sort: sort.startsWith('-') ? { field: sort.slice(1), order: 'desc' } : { field: sort, order: 'asc' },
    offset: Math.max(0, Number.parseInt(query.get('offset') ?? '0', 10) || 0),
  };
}

/** The API query for one page of that state. */
export function apiQueryOf(state: ListState): EntryListQuery {
  const filters: Record<string, string> = { ...state.selects };
  if (state.status) filters.status = state.status;
  return { limit: PAGE_SIZE, offset: state.offset, q: state.q, sort: state.sort.field, order: state.sort.order, filters };
}

/** The address query keys for a sort. */
export function sortParam(sort: TableSort): string {
  return sort.order === 'desc' ? `-${sort.field}` : sort.field;
}

/** The address query key of a select filter. */
export function selectParam(field: string): string {
  return `${FILTER_PREFIX}${field}`;
}

/** The select fields a list can filter by, with their options as value/label pairs. */
export function selectFilters(type: ContentType): { field: string; label: string; options: { value: string; label: string }[] }[] {
  return Object.entries(type.fields)
    .filter(([, def]) => def.type === 'select')
    .map(([field, def]) => ({ field, label: def.label || field, options: optionsOf(def.options) }));
}
