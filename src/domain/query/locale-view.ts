// The per-locale caches of a TypeIndex: resolved entries, parsed field
// columns, sorted orders and the search index, each built on first use and
// patched entry by entry on writes. Shared system fields (id, slug, status,
// dates) live in one view for every locale, so they are parsed only once.

import type { ContentType } from '../types/content-type.ts';
import type { ResolvedEntry, StoredEntry } from '../entries/entry.ts';
import { resolveEntry } from '../locales/resolve.ts';
import { SearchIndex } from '../search/search-index.ts';
import { fieldKind, toValueItems } from './field-values.ts';
import type { SortOrder } from './list-query.ts';
import { buildOrder, insertIntoOrder, removeFromOrder } from './sorted-order.ts';
import type { Column } from './sorted-order.ts';

/** Where a view reads entries from; implemented by TypeIndex. */
export interface ViewSource {
  readonly type: ContentType;
  readonly entries: ReadonlyMap<string, StoredEntry>;
}

interface OrderState {
  field: string;
  order: SortOrder;
  ids: string[];
}

/**
 * The caches for one resolution locale (undefined: root values). Callers
 * must call detach(id) before an entry changes and attach(id) after.
 */
export class LocaleView {
  private readonly resolved = new Map<string, ResolvedEntry>();
  private readonly columns = new Map<string, Column>();
  private readonly orders = new Map<string, OrderState>();
  private searchIndex: SearchIndex | undefined;

  /** Creates an empty view; nothing is computed until asked for. */
  constructor(
    private readonly source: ViewSource,
    readonly locale: string | undefined,
  ) {}

  /** The entry resolved for this view's locale, cached; undefined when unknown. */
  resolve(id: string): ResolvedEntry | undefined {
    const cached = this.resolved.get(id);
    if (cached) return cached;
    const entry = this.source.entries.get(id);
    if (!entry) return undefined;
    const resolved = resolveEntry(entry, this.source.type, this.locale);
    this.resolved.set(id, resolved);
    return resolved;
  }

  /** The parsed values of `field` for every entry, built on first use. */
  column(field: string): Column {
    let column = this.columns.get(field);
    if (!column) {
      column = new Map();
      for (const id of this.source.entries.keys()) column.set(id, this.itemsOf(field, id));
      this.columns.set(field, column);
    }
    return column;
  }

  /** Every entry id ordered by `field` in `order`, built on first use. */
  order(field: string, order: SortOrder): string[] {
    const key = `${order}:${field}`;
    let state = this.orders.get(key);
    if (!state) {
      state = { field, order, ids: buildOrder(this.source.entries.keys(), this.column(field), order) };
      this.orders.set(key, state);
    }
    return state.ids;
  }

  /** The search index for this locale, built from every entry on first use. */
  search(): SearchIndex {
    if (!this.searchIndex) {
      const index = new SearchIndex(this.source.type);
      for (const id of this.source.entries.keys()) {
        const resolved = this.resolve(id);
        if (resolved) index.upsert(resolved);
      }
      this.searchIndex = index;
    }
    return this.searchIndex;
  }

  /** Takes `id` out of every order while its column still holds the old values. */
  detach(id: string): void {
    for (const state of this.orders.values()) removeFromOrder(state.ids, this.column(state.field), id, state.order);
    this.resolved.delete(id);
  }

  /** Recomputes `id` in every built cache from the current stored entry. */
  attach(id: string): void {
    for (const [field, column] of this.columns) column.set(id, this.itemsOf(field, id));
    for (const state of this.orders.values()) insertIntoOrder(state.ids, this.column(state.field), id, state.order);
    const resolved = this.searchIndex ? this.resolve(id) : undefined;
    if (resolved) this.searchIndex?.upsert(resolved);
  }

  /** Drops `id` from every cache (after detach), for a removed entry. */
  forget(id: string): void {
    for (const column of this.columns.values()) column.delete(id);
    this.searchIndex?.remove(id);
  }

  private itemsOf(field: string, id: string): ReturnType<typeof toValueItems> {
    const kind = fieldKind(this.source.type, field) ?? 'string';
    const entry = this.source.entries.get(id);
    if (!entry) return [];
    switch (field) {
      case 'id':
      case 'slug':
      case 'status':
      case 'created_at':
      case 'updated_at':
      case 'published_at':
        return toValueItems(kind, entry[field]);
      case 'title':
        return toValueItems(kind, this.resolve(id)?.title);
      default:
        return toValueItems(kind, this.resolve(id)?.data[field]);
    }
  }
}
