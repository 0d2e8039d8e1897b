// Full-text search for `q` (API.md "Entries"): one index per type and locale
// over title, slug and the text-like fields, all terms AND-ed with prefix
// matching, case- and accent-insensitive, ranked as MiniSearch ranks
// (inverted-index.ts). TypeIndex owns the instances and keeps them current.
// MiniSearch itself was replaced: on 10,000 entries it took ~0.4 ms per
// one-word query, 1.5 s to build and ~55 MB of heap (docs/performance.md).

import { TEXT_LIKE_FIELD_TYPES } from '../types/content-type.ts';
import type { ContentType } from '../types/content-type.ts';
import type { ResolvedEntry } from '../entries/entry.ts';
import { InvertedIndex } from './inverted-index.ts';
import type { DocumentTerms } from './inverted-index.ts';

/** The documents matching a query and their scores (parallel arrays, unordered); a higher score is more relevant. */
export interface SearchHits {
  docs: number[];
  scores: number[];
}

// MiniSearch's tokenizer: runs of spaces, line breaks and punctuation split words.
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;
const ASCII = /^[\x00-\x7f]*$/;
const TITLE_BOOST = 2;

/**
 * Folds a term for matching: lower case, accents stripped (NFD, then drop
 * combining marks), so `Crème` and `creme` index and search alike.
 */
export function foldTerm(term: string): string {
  // ASCII has nothing to decompose or strip; this path takes most words.
  if (ASCII.test(term)) return term.toLowerCase();
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
 * The search index of one type's entries resolved for one locale, keyed by
 * the caller's document numbers (TypeIndex slots). Entries are added,
 * replaced and removed one by one as writes happen.
 */
export class SearchIndex {
  private readonly index: InvertedIndex;
  private readonly textFields: { name: string; isMarkup: boolean }[];

  /** Creates an empty index for the searchable fields of `type`. */
  constructor(type: ContentType) {
    this.textFields = Object.entries(type.fields)
      .filter(([, def]) => TEXT_LIKE_FIELD_TYPES.has(def.type))
      .map(([name, def]) => ({ name, isMarkup: def.type === 'markdown' || def.type === 'html' }));
    // Fields in MiniSearch's order: title, slug, then the text fields.
    this.index = new InvertedIndex([TITLE_BOOST, 1, ...this.textFields.map(() => 1)]);
  }

  /** Number of indexed entries. */
  get size(): number {
    return this.index.size;
  }

  /** Adds or replaces the document `doc` (a small non-negative integer) with `entry`. */
  upsert(doc: number, entry: ResolvedEntry): void {
    this.index.remove(doc);
    this.index.add(doc, this.toDocument(entry));
  }

  /** Removes document `doc` if present. */
  remove(doc: number): void {
    this.index.remove(doc);
  }

  /** The documents matching every term of `q` (prefix match), unordered. */
  search(q: string): SearchHits {
    return this.index.search(q.split(SPACE_OR_PUNCTUATION).map(foldTerm).filter((term) => term !== ''));
  }

  private toDocument(entry: ResolvedEntry): DocumentTerms {
    const texts = [entry.title, entry.slug];
    for (const field of this.textFields) {
      const text = textOf(entry.data[field.name]);
      texts.push(field.isMarkup ? toPlainText(text) : text);
    }
    const document: DocumentTerms = { terms: [], lengths: [] };
    for (const text of texts) {
      const tokens = text.split(SPACE_OR_PUNCTUATION);
      // MiniSearch's field length: distinct raw tokens, the empty one included.
      document.lengths.push(new Set(tokens).size);
      document.terms.push(tokens.map(foldTerm).filter((term) => term !== ''));
    }
    return document;
  }
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
