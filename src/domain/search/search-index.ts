// Full-text search for `q` (API.md "Entries"): one MiniSearch index per type
// and locale over title, slug and the text-like fields, all terms AND-ed with
// prefix matching, case- and accent-insensitive. This is the only module that
// imports minisearch; TypeIndex owns the instances and keeps them current.

import MiniSearch from 'minisearch';
import { TEXT_LIKE_FIELD_TYPES } from '../model/content-type.ts';
import type { ContentType } from '../model/content-type.ts';
import type { ResolvedEntry } from '../model/entry.ts';

/** One search hit; a higher score is more relevant. */
export interface SearchHit {
  id: string;
  score: number;
}

type SearchDocument = Record<string, string>;

// Custom fields are prefixed so that a field can never collide with id/title/slug.
const FIELD_PREFIX = 'f:';

/**
 * Folds a term for matching: lower case, accents stripped (NFD, then drop
 * combining marks), so `Crème` and `creme` index and search alike.
 */
export function foldTerm(term: string): string {
  return term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Rough plain text of markdown or HTML: tags, link targets and markup characters removed. */
export function toPlainText(value: string): string {
  return value
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(nbsp|amp|lt|gt|quot|#39|apos);/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~|]+/g, ' ');
}

/**
 * A MiniSearch index of one type's entries resolved for one locale. Entries
 * are added, replaced and removed one by one as writes happen.
 */
export class SearchIndex {
  private readonly mini: MiniSearch<SearchDocument>;
  private readonly textFields: { name: string; isMarkup: boolean }[];

  /** Creates an empty index for the searchable fields of `type`. */
  constructor(type: ContentType) {
    this.textFields = Object.entries(type.fields)
      .filter(([, def]) => TEXT_LIKE_FIELD_TYPES.has(def.type))
      .map(([name, def]) => ({ name, isMarkup: def.type === 'markdown' || def.type === 'html' }));
    this.mini = new MiniSearch<SearchDocument>({
      idField: 'id',
      fields: ['title', 'slug', ...this.textFields.map((f) => FIELD_PREFIX + f.name)],
      storeFields: [],
      processTerm: (term) => foldTerm(term) || null,
      searchOptions: { combineWith: 'AND', prefix: true, boost: { title: 2 } },
    });
  }

  /** Number of indexed entries. */
  get size(): number {
    return this.mini.documentCount;
  }

  /** Adds or replaces the entry's document. */
  upsert(entry: ResolvedEntry): void {
    const doc = this.toDocument(entry);
    if (this.mini.has(entry.id)) this.mini.replace(doc);
    else this.mini.add(doc);
  }

  /** Removes the entry's document if present. */
  remove(id: string): void {
    if (this.mini.has(id)) this.mini.discard(id);
  }

  /** Entries matching every term of `q` (prefix match), best first. */
  search(q: string): SearchHit[] {
    return this.mini.search(q).map((r) => ({ id: String(r.id), score: r.score }));
  }

  private toDocument(entry: ResolvedEntry): SearchDocument {
    const doc: SearchDocument = { id: entry.id, title: entry.title, slug: entry.slug };
    for (const field of this.textFields) {
      const text = textOf(entry.data[field.name]);
      doc[FIELD_PREFIX + field.name] = field.isMarkup ? toPlainText(text) : text;
    }
    return doc;
  }
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
