// The in-memory read model of one content type: every active StoredEntry (no
// trash) plus lazily built per-locale caches (locale-view.ts) that answer list
// queries without sorting or resolving per request (DESIGN.md "Read path").
// Grants are the caller's: it says which reader class asks (visibility.ts).

import type { ContentType } from '../model/content-type.ts';
import type { ResolvedEntry, StoredEntry } from '../model/entry.ts';
import { effectiveLocale } from '../locales/resolve.ts';
import { SHARED_QUERY_FIELDS } from './comparable-values.ts';
import { compileFilters } from './filter-match.ts';
import type { CompiledFilter } from './filter-match.ts';
import type { ListQuery, SortOrder } from './list-query.ts';
import { LocaleView } from './locale-view.ts';
import type { SearchResult } from './locale-view.ts';
import { pageWindow } from './page-window.ts';
import { VisibilityTable } from './visibility.ts';
import type { QueryVisibility } from './visibility.ts';

export type { QueryVisibility } from './visibility.ts';

/** The sort reported for relevance-ordered search results. */
export const RELEVANCE_SORT = 'relevance';

/** One page of a list query, with the normalized sort for `meta`. */
export interface QueryResult {
  entries: ResolvedEntry[];
  total: number;
  sort: string;
  order: SortOrder;
  relevance: boolean;
}

interface QueryPlan {
  /** The pre-sorted order to walk; empty when ranking by relevance. */
  ordered: number[];
  hits: SearchResult | undefined;
  sort: string;
  order: SortOrder;
  relevance: boolean;
}

// Key of the view holding shared system fields; cannot clash with a locale code.
const SHARED_VIEW = '\u0000shared';

/**
 * All active entries of one type with their query caches. Each entry owns a
 * slot (a dense array index) so that hot loops never hash ids; writes
 * (upsert, remove, setType) keep the caches current.
 */
export class TypeIndex {
  private currentType: ContentType;
  private readonly slots: (StoredEntry | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private readonly slotById = new Map<string, number>();
  private readonly bySlug = new Map<string, string>();
  private views = new Map<string, LocaleView>();
  // Scratch match marks of matchingPage, all zero between queries (queries never interleave).
  private mask = new Uint8Array(0);
  private readonly visibility = new VisibilityTable();

  /** Creates an empty index for `type`. */
  constructor(type: ContentType) {
    this.currentType = type;
  }

  /** The current schema. */
  get type(): ContentType {
    return this.currentType;
  }

  /** Number of active entries. */
  get size(): number {
    return this.slotById.size;
  }

  /** One past the highest slot ever used (for LocaleView). */
  get slotCount(): number {
    return this.slots.length;
  }

  /** The entry in `slot`, undefined for a free slot (for LocaleView). */
  entryAt(slot: number): StoredEntry | undefined {
    return this.slots[slot];
  }

  /** The slot of entry `id` (for LocaleView). */
  slotOf(id: string): number | undefined {
    return this.slotById.get(id);
  }

  /** Replaces the schema after a type change; every cache is rebuilt lazily. */
  setType(type: ContentType): void {
    this.currentType = type;
    this.views = new Map();
  }

  /** Adds or replaces an entry (after its commit) and patches the built caches. */
  upsert(entry: StoredEntry): void {
    let slot = this.slotById.get(entry.id);
    if (slot !== undefined) {
      for (const view of this.views.values()) view.detach(slot);
      const old = this.slots[slot];
      if (old && this.bySlug.get(old.slug) === entry.id) this.bySlug.delete(old.slug);
    } else {
      slot = this.freeSlots.pop() ?? this.slots.length;
      this.slotById.set(entry.id, slot);
    }
    this.slots[slot] = entry;
    this.visibility.set(slot, entry);
    this.bySlug.set(entry.slug, entry.id);
    for (const view of this.views.values()) view.attach(slot);
  }

  /** Removes an entry (deleted or trashed); unknown ids are ignored. */
  remove(id: string): void {
    const slot = this.slotById.get(id);
    if (slot === undefined) return;
    for (const view of this.views.values()) {
      view.detach(slot);
      view.forget(slot, id);
    }
    const old = this.slots[slot];
    if (old && this.bySlug.get(old.slug) === id) this.bySlug.delete(old.slug);
    this.slots[slot] = undefined;
    this.visibility.clear(slot);
    this.slotById.delete(id);
    this.freeSlots.push(slot);
  }

  /** The stored entry with this id, or undefined. */
  get(id: string): StoredEntry | undefined {
    const slot = this.slotById.get(id);
    return slot === undefined ? undefined : this.slots[slot];
  }

  /** The stored entry with this slug, or undefined. */
  getBySlug(slug: string): StoredEntry | undefined {
    const id = this.bySlug.get(slug);
    return id === undefined ? undefined : this.get(id);
  }

  /** Every stored entry, in slot order. */
  all(): StoredEntry[] {
    return this.slots.filter((entry): entry is StoredEntry => entry !== undefined);
  }

  /**
   * The entry resolved for `locale` (see effectiveLocale), from the cache; a
   * fresh shallow copy, so callers may replace `data` values. Undefined when unknown.
   */
  resolve(id: string, locale?: string): ResolvedEntry | undefined {
    const slot = this.slotById.get(id);
    if (slot === undefined) return undefined;
    return copyOf(this.localeView(effectiveLocale(this.currentType, locale)).resolve(slot));
  }

  /**
   * Builds the default order and the search index of `locale` ahead of the
   * first request, so that a cold start does not make one reader wait for them.
   */
  warm(locale?: string): void {
    const view = this.localeView(effectiveLocale(this.currentType, locale));
    this.viewFor('created_at', view).order('created_at', 'desc');
    view.warmSearch();
  }

  /**
   * One slice of building the default locale's search index ahead of the
   * first `q` (see LocaleView.buildSearchStep); true once it is built.
   */
  warmSearchStep(shouldPause: () => boolean): boolean {
    return this.localeView(effectiveLocale(this.currentType)).buildSearchStep(shouldPause);
  }

  /** Whether the default locale's search index is built (warmSearchStep() has nothing left to do). */
  get isSearchWarm(): boolean {
    return this.localeView(effectiveLocale(this.currentType)).hasSearchIndex;
  }

  /** The first publish time after `now` of a scheduled entry (Infinity when none). */
  nextPublishAfter(now: number): number {
    return this.visibility.nextPublishAfter(now);
  }

  /**
   * Runs a parsed list query for readers of class `visibility`: search,
   * filters and visibility, then sort and page; only the page is resolved and
   * copied out. Sort defaults to `-created_at`, or to relevance when `q` is
   * given without `sort`. The index never reads the clock: `now` comes in.
   */
  query(q: ListQuery, visibility: QueryVisibility): QueryResult {
    const view = this.localeView(effectiveLocale(this.currentType, q.locale));
    const filter = compileFilters(q.filters, (field) => this.viewFor(field, view).filterColumn(field));
    const plan = this.plan(q, view);
    const end = q.limit === undefined ? Number.POSITIVE_INFINITY : q.offset + q.limit;
    let page: number[];
    let total: number;
    if (plan.hits === undefined && filter === undefined) {
      // Nothing to match: the total is counted on writes, and the walk stops at the page.
      total = this.visibility.count(visibility);
      page = pageWindow(plan.ordered, this.visibility.test(visibility), total, q.offset, end);
    } else {
      ({ page, total } = this.matchingPage(plan, visibility, filter, q.offset, end));
    }
    const entries: ResolvedEntry[] = [];
    for (const slot of page) {
      const resolved = copyOf(view.resolve(slot));
      if (resolved) entries.push(resolved);
    }
    return { entries, total, sort: plan.sort, order: plan.order, relevance: plan.relevance };
  }

  /**
   * The page and total when search or filters narrow the list. Ranked by
   * relevance: the visible, matching hits are counted and the page picked by
   * score. Otherwise passes over the candidates in slot order (dense reads)
   * mark and count the matches, then the sorted order is walked only until
   * the page is full.
   */
  private matchingPage(plan: QueryPlan, visibility: QueryVisibility, filter: CompiledFilter | undefined, offset: number, end: number): { page: number[]; total: number } {
    if (plan.relevance) {
      const isVisible = this.visibility.test(visibility);
      const ranked = plan.ordered.filter((slot) => isVisible(slot) && (filter === undefined || filter.matches(slot)));
      return { page: ranked.slice(offset, end), total: ranked.length };
    }
    const size = this.slots.length;
    if (this.mask.length < size) this.mask = new Uint8Array(size * 2);
    const mask = this.mask;
    try {
      if (plan.hits === undefined) {
        this.visibility.markVisible(mask, size, visibility);
      } else {
        const isVisible = this.visibility.test(visibility);
        for (const slot of plan.hits.ranked) if (isVisible(slot)) mask[slot] = 1;
      }
      filter?.refine(mask, size);
      let total = 0;
      for (let slot = 0; slot < size; slot += 1) total += mask[slot];
      return { page: pageWindow(plan.ordered, (slot) => mask[slot] === 1, total, offset, end), total };
    } finally {
      mask.fill(0);
    }
  }

  /** Picks the walk order: relevance for `q` without `sort`, else a pre-sorted field order. */
  private plan(q: ListQuery, view: LocaleView): QueryPlan {
    const hits = q.q === undefined ? undefined : view.search(q.q);
    if (hits !== undefined && q.sort === undefined) {
      return { ordered: hits.ranked, hits, sort: RELEVANCE_SORT, order: 'desc', relevance: true };
    }
    const sort = q.sort ?? 'created_at';
    const order: SortOrder = q.order ?? (q.sort === undefined ? 'desc' : 'asc');
    return { ordered: this.viewFor(sort, view).order(sort, order), hits, sort, order, relevance: false };
  }

  private localeView(locale: string | undefined): LocaleView {
    const key = locale ?? '';
    let view = this.views.get(key);
    if (!view) {
      view = new LocaleView(this, locale);
      this.views.set(key, view);
    }
    return view;
  }

  /** Shared system fields are parsed once for all locales. */
  private viewFor(field: string, view: LocaleView): LocaleView {
    if (!SHARED_QUERY_FIELDS.has(field)) return view;
    let shared = this.views.get(SHARED_VIEW);
    if (!shared) {
      shared = new LocaleView(this, undefined);
      this.views.set(SHARED_VIEW, shared);
    }
    return shared;
  }
}

function copyOf(entry: ResolvedEntry | undefined): ResolvedEntry | undefined {
  return entry === undefined ? undefined : { ...entry, data: { ...entry.data } };
}
