// The per-locale caches of a TypeIndex: resolved entries, parsed field
// columns, sorted orders, the search index and recent search results, each
// built on first use and patched slot by slot on writes. Shared system fields
// (id, slug, status, dates) live in one view for every locale.

import type { ContentType } from '../model/content-type.ts';
import type { ResolvedEntry, StoredEntry } from '../model/entry.ts';
import { resolveEntry } from '../locales/resolve.ts';
import { SearchIndex } from '../search/search-index.ts';
import { fieldKind, toValueItems } from './comparable-values.ts';
import { DenseColumn } from './dense-column.ts';
import type { ValueItem } from './comparable-values.ts';
import type { SortOrder } from './list-query.ts';
import { buildOrder, compareIds, insertIntoOrder, removeFromOrder } from './sorted-order.ts';
import type { Column, IdOfSlot } from './sorted-order.ts';

/** Where a view reads entries from; implemented by TypeIndex. */
export interface ViewSource {
  readonly type: ContentType;
  /** One past the highest slot ever used. */
  readonly slotCount: number;
  entryAt(slot: number): StoredEntry | undefined;
  slotOf(id: string): number | undefined;
}

/** Search hits of one `q`: slots by relevance. */
export interface SearchResult {
  ranked: number[];
}

// A search index under construction: slots below `next` are in it.
interface SearchBuild {
  index: SearchIndex;
  next: number;
}

interface OrderState {
  field: string;
  order: SortOrder;
  slots: number[];
}

// Enough for the distinct searches of a busy page; cleared by every write.
const SEARCH_CACHE_SIZE = 64;
// Longest stretch of indexing written entries' postings between two turns of the event loop.
const CATCH_UP_SLICE_MS = 5;

/**
 * The caches for one resolution locale (undefined: root values). Callers
 * must call detach(slot) before an entry changes and attach(slot) after.
 */
export class LocaleView {
  private readonly resolved: (ResolvedEntry | undefined)[] = [];
  private readonly columns = new Map<string, Column>();
  private readonly denseColumns = new Map<string, DenseColumn>();
  private readonly orders = new Map<string, OrderState>();
  private readonly searches = new Map<string, SearchResult>();
  private searchIndex: SearchIndex | undefined;
  private searchBuild: SearchBuild | undefined;
  // Slots written since their postings were last indexed; see attach().
  private readonly unindexed = new Set<number>();
  private catchUpScheduled = false;
  private readonly idOf: IdOfSlot;

  /** Creates an empty view; nothing is computed until asked for. */
  constructor(
    private readonly source: ViewSource,
    readonly locale: string | undefined,
  ) {
    this.idOf = (slot) => source.entryAt(slot)?.id ?? '';
  }

  /** The entry in `slot` resolved for this view's locale, cached; undefined for a free slot. */
  resolve(slot: number): ResolvedEntry | undefined {
    const cached = this.resolved[slot];
    if (cached) return cached;
    const entry = this.source.entryAt(slot);
    if (!entry) return undefined;
    const resolved = resolveEntry(entry, this.source.type, this.locale);
    this.resolved[slot] = resolved;
    return resolved;
  }

  /** The parsed values of `field` for every slot, built on first use. */
  column(field: string): Column {
    let column = this.columns.get(field);
    if (!column) {
      column = [];
      for (let slot = 0; slot < this.source.slotCount; slot += 1) column.push(this.itemsOf(field, slot));
      this.columns.set(field, column);
    }
    return column;
  }

  /** The typed-array form of `field`'s column that filters scan, built on first use. */
  filterColumn(field: string): DenseColumn {
    let dense = this.denseColumns.get(field);
    if (!dense) {
      dense = new DenseColumn(this.column(field));
      this.denseColumns.set(field, dense);
    }
    dense.reserve(this.source.slotCount);
    return dense;
  }

  /** Every used slot ordered by `field` in `order`, built on first use. */
  order(field: string, order: SortOrder): number[] {
    const key = `${order}:${field}`;
    let state = this.orders.get(key);
    if (!state) {
      state = { field, order, slots: buildOrder(this.usedSlots(), this.column(field), this.idOf, order) };
      this.orders.set(key, state);
    }
    return state.slots;
  }

  /** The hits of `q` for this locale, from the search index (built on first use) or the recent-results cache. */
  search(q: string): SearchResult {
    const cached = this.searches.get(q);
    if (cached) return cached;
    const index = this.ensureSearchIndex();
    this.catchUpSearch();
    const hits = index.search(q);
    hits.sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
    const ranked: number[] = [];
    for (const hit of hits) {
      const slot = this.source.slotOf(hit.id);
      if (slot !== undefined) ranked.push(slot);
    }
    const result = { ranked };
    if (this.searches.size >= SEARCH_CACHE_SIZE) this.searches.delete(this.searches.keys().next().value ?? '');
    this.searches.set(q, result);
    return result;
  }

  /** Whether the search index is built. */
  get hasSearchIndex(): boolean {
    return this.searchIndex !== undefined;
  }

  /** Builds the search index now rather than on the first `q`. */
  warmSearch(): void {
    this.ensureSearchIndex();
  }

  /**
   * Adds entries to the search index under construction until `shouldPause`
   * says so (checked after each entry), so a caller can build it between
   * requests. Returns true once the index is complete; a search meanwhile
   * completes it at once, and writes meanwhile are applied to it.
   */
  buildSearchStep(shouldPause: () => boolean): boolean {
    if (this.searchIndex) return true;
    const build = (this.searchBuild ??= { index: new SearchIndex(this.source.type), next: 0 });
    while (build.next < this.source.slotCount) {
      const resolved = this.resolve(build.next);
      build.next += 1;
      if (resolved) build.index.upsert(resolved);
      if (shouldPause() && build.next < this.source.slotCount) return false;
    }
    this.searchIndex = build.index;
    this.searchBuild = undefined;
    return true;
  }

  /** Takes `slot` out of every order while its column still holds the old values. */
  detach(slot: number): void {
    for (const state of this.orders.values()) removeFromOrder(state.slots, this.column(state.field), this.idOf, slot, state.order);
    this.resolved[slot] = undefined;
    this.searches.clear();
  }

  /** Recomputes `slot` in every built cache from the current stored entry. */
  attach(slot: number): void {
    for (const [field, column] of this.columns) column[slot] = this.itemsOf(field, slot);
    for (const dense of this.denseColumns.values()) dense.refresh(slot);
    for (const state of this.orders.values()) insertIntoOrder(state.slots, this.column(state.field), this.idOf, slot, state.order);
    // A slot the build has not reached yet is read when it gets there. The
    // others are indexed once the write has been answered (a few hundred µs of
    // tokenizing per entry), or by the next search, whichever comes first.
    if (this.searchIndex || (this.searchBuild && slot < this.searchBuild.next)) {
      this.unindexed.add(slot);
      this.scheduleSearchCatchUp();
    }
    this.searches.clear();
  }

  /** Empties `slot` in every cache (after detach), for a removed entry. */
  forget(slot: number, id: string): void {
    for (const column of this.columns.values()) column[slot] = [];
    for (const dense of this.denseColumns.values()) dense.refresh(slot);
    this.unindexed.delete(slot);
    this.searchIndex?.remove(id);
    this.searchBuild?.index.remove(id);
  }

  private *usedSlots(): Generator<number> {
    for (let slot = 0; slot < this.source.slotCount; slot += 1) if (this.source.entryAt(slot)) yield slot;
  }

  // Indexes the slots written since the last catch-up, as they are now,
  // until `shouldPause` says so (checked after each slot).
  private catchUpSearch(shouldPause: () => boolean = () => false): void {
    const index = this.searchIndex ?? this.searchBuild?.index;
    for (const slot of this.unindexed) {
      this.unindexed.delete(slot);
      const resolved = this.resolve(slot);
      if (resolved) index?.upsert(resolved);
      if (shouldPause()) return;
    }
  }

  // After the I/O callbacks of this turn of the event loop, which is where
  // a write's answer is sent; in slices, so an outside commit of thousands
  // of entries does not hold other requests up while they are indexed.
  private scheduleSearchCatchUp(): void {
    if (this.catchUpScheduled) return;
    this.catchUpScheduled = true;
    setImmediate(() => {
      this.catchUpScheduled = false;
      const deadline = performance.now() + CATCH_UP_SLICE_MS;
      this.catchUpSearch(() => performance.now() >= deadline);
      if (this.unindexed.size > 0) this.scheduleSearchCatchUp();
    });
  }

  private ensureSearchIndex(): SearchIndex {
    while (!this.searchIndex) this.buildSearchStep(() => false);
    return this.searchIndex;
  }

  private itemsOf(field: string, slot: number): ValueItem[] {
    const entry = this.source.entryAt(slot);
    if (!entry) return [];
    const kind = fieldKind(this.source.type, field) ?? 'string';
    switch (field) {
      case 'id':
      case 'slug':
      case 'status':
      case 'created_at':
      case 'updated_at':
      case 'published_at':
        return toValueItems(kind, entry[field]);
      case 'title':
        return toValueItems(kind, this.resolve(slot)?.title);
      default:
        return toValueItems(kind, this.resolve(slot)?.data[field]);
    }
  }
}
