// The in-memory read model of one content type: every active StoredEntry (no
// trash) plus lazily built per-locale caches (locale-view.ts) that answer list
// queries without sorting or resolving per request (DESIGN.md "Read path").
// Visibility and grants are the caller's: it passes an isVisible predicate.

import type { ContentType } from '../types/content-type.ts';
import type { ResolvedEntry, StoredEntry } from '../entries/entry.ts';
import { effectiveLocale } from '../locales/resolve.ts';
import { SHARED_QUERY_FIELDS } from './field-values.ts';
import { compileFilters } from './filter-match.ts';
import type { EntryPredicate } from './filter-match.ts';
import type { ListQuery, SortOrder } from './list-query.ts';
import { LocaleView } from './locale-view.ts';
import { compareIds } from './sorted-order.ts';

/** The sort reported for relevance-ordered search results. */
export const RELEVANCE_SORT = 'relevance';

/** Per-request inputs of TypeIndex.query that the index does not own. */
export interface QueryOptions {
  /** Whether the caller may see this entry (status, schedule, grants). */
  isVisible: (entry: StoredEntry) => boolean;
  /** The request time, for callers that build isVisible from it; the index never reads the clock. */
  now?: number;
}

/** One page of a list query, with the normalized sort for `meta`. */
export interface QueryResult {
  entries: ResolvedEntry[];
  total: number;
  sort: string;
  order: SortOrder;
  relevance: boolean;
}

interface QueryPlan {
  ordered: string[];
  isHit: (id: string) => boolean;
  sort: string;
  order: SortOrder;
  relevance: boolean;
}

// Key of the view holding shared system fields; cannot clash with a locale code.
const SHARED_VIEW = '\u0000shared';

/**
 * All active entries of one type with their query caches. Writes (upsert,
 * remove, setType) keep the caches current; reads never mutate stored data.
 */
export class TypeIndex {
  private currentType: ContentType;
  private readonly byId = new Map<string, StoredEntry>();
  private readonly bySlug = new Map<string, string>();
  private views = new Map<string, LocaleView>();

  /** Creates an empty index for `type`. */
  constructor(type: ContentType) {
    this.currentType = type;
  }

  /** The current schema. */
  get type(): ContentType {
    return this.currentType;
  }

  /** The stored entries by id (read-only view for LocaleView). */
  get entries(): ReadonlyMap<string, StoredEntry> {
    return this.byId;
  }

  /** Number of active entries. */
  get size(): number {
    return this.byId.size;
  }

  /** Replaces the schema after a type change; every cache is rebuilt lazily. */
  setType(type: ContentType): void {
    this.currentType = type;
    this.views = new Map();
  }

  /** Adds or replaces an entry (after its commit) and patches the built caches. */
  upsert(entry: StoredEntry): void {
    const old = this.byId.get(entry.id);
    if (old) {
      for (const view of this.views.values()) view.detach(entry.id);
      if (this.bySlug.get(old.slug) === entry.id) this.bySlug.delete(old.slug);
    }
    this.byId.set(entry.id, entry);
    this.bySlug.set(entry.slug, entry.id);
    for (const view of this.views.values()) view.attach(entry.id);
  }

  /** Removes an entry (deleted or trashed); unknown ids are ignored. */
  remove(id: string): void {
    const old = this.byId.get(id);
    if (!old) return;
    for (const view of this.views.values()) {
      view.detach(id);
      view.forget(id);
    }
    this.byId.delete(id);
    if (this.bySlug.get(old.slug) === id) this.bySlug.delete(old.slug);
  }

  /** The stored entry with this id, or undefined. */
  get(id: string): StoredEntry | undefined {
    return this.byId.get(id);
  }

  /** The stored entry with this slug, or undefined. */
  getBySlug(slug: string): StoredEntry | undefined {
    const id = this.bySlug.get(slug);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Every stored entry, in insertion order. */
  all(): StoredEntry[] {
    return [...this.byId.values()];
  }

  /**
   * The entry resolved for `locale` (see effectiveLocale), from the cache; a
   * fresh shallow copy, so callers may replace `data` values. Undefined when unknown.
   */
  resolve(id: string, locale?: string): ResolvedEntry | undefined {
    const resolved = this.localeView(effectiveLocale(this.currentType, locale)).resolve(id);
    return resolved ? { ...resolved, data: { ...resolved.data } } : undefined;
  }

  /**
   * Runs a parsed list query: search, filters and visibility, then sort and
   * page; only the page is copied out. Sort defaults to `-created_at`, or to
   * relevance when `q` is given without `sort`.
   */
  query(q: ListQuery, options: QueryOptions): QueryResult {
    const view = this.localeView(effectiveLocale(this.currentType, q.locale));
    const matches = compileFilters(q.filters, (field) => this.viewFor(field, view).column(field));
    const plan = this.plan(q, view);
    const { ids, total } = this.page(plan.ordered, q, (id) => plan.isHit(id) && this.isMatch(id, matches, options));
    const entries: ResolvedEntry[] = [];
    for (const id of ids) {
      const resolved = view.resolve(id);
      if (resolved) entries.push({ ...resolved, data: { ...resolved.data } });
    }
    return { entries, total, sort: plan.sort, order: plan.order, relevance: plan.relevance };
  }

  /** Picks the walk order: relevance for `q` without `sort`, else a pre-sorted field order. */
  private plan(q: ListQuery, view: LocaleView): QueryPlan {
    const hits = q.q === undefined ? undefined : view.search().search(q.q);
    if (hits !== undefined && q.sort === undefined) {
      hits.sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
      return { ordered: hits.map((h) => h.id), isHit: () => true, sort: RELEVANCE_SORT, order: 'desc', relevance: true };
    }
    const sort = q.sort ?? 'created_at';
    const order: SortOrder = q.order ?? (q.sort === undefined ? 'desc' : 'asc');
    const ordered = this.viewFor(sort, view).order(sort, order);
    if (hits === undefined) return { ordered, isHit: () => true, sort, order, relevance: false };
    const hitIds = new Set(hits.map((h) => h.id));
    return { ordered, isHit: (id) => hitIds.has(id), sort, order, relevance: false };
  }

  private isMatch(id: string, matches: EntryPredicate | undefined, options: QueryOptions): boolean {
    const entry = this.byId.get(id);
    return entry !== undefined && options.isVisible(entry) && (matches === undefined || matches(id));
  }

  /** Counts every match and keeps the ids of [offset, offset + limit). */
  private page(ordered: Iterable<string>, q: ListQuery, isMatch: (id: string) => boolean): { ids: string[]; total: number } {
    const end = q.limit === undefined ? Number.POSITIVE_INFINITY : q.offset + q.limit;
    const ids: string[] = [];
    let total = 0;
    for (const id of ordered) {
      if (!isMatch(id)) continue;
      if (total >= q.offset && total < end) ids.push(id);
      total += 1;
    }
    return { ids, total };
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
