// Full-text search for `q` (API.md "Entries"): one index per type and locale
// over title, slug and the text-like fields, all terms AND-ed with prefix
// matching, case- and accent-insensitive, ranked as MiniSearch ranks (BM25+).
// This is the only module that imports minisearch; TypeIndex owns the
// instances and keeps them current.
//
// MiniSearch itself kept two Maps per term and one Map entry per (term,
// field, entry): 54 MB of heap for 10,000 posts of ~1 KB, most of the
// server's live heap, and ten times that at 100,000. This index keeps
// MiniSearch's term dictionary (its SearchableMap, for the same prefix
// lookups) but stores each term's postings in one Uint32Array, and scores
// with MiniSearch's formulas and its running field-length averages, so the
// hits and scores are MiniSearch's (test/unit/search-ranking.test.ts).

import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import SearchableMap from 'minisearch/SearchableMap';
import { TEXT_LIKE_FIELD_TYPES } from '../model/content-type.ts';
import type { ContentType } from '../model/content-type.ts';
import type { ResolvedEntry } from '../model/entry.ts';

/** One search hit; a higher score is more relevant. */
export interface SearchHit {
  id: string;
  score: number;
}

/**
 * Folds a term for matching: lower case, accents stripped (NFD, then drop
 * combining marks), so `Crème` and `creme` index and search alike.
 */
export function foldTerm(term: string): string {
  // Most terms are ASCII, where decomposing finds nothing to strip; skipping it halves the cost of indexing.
  if (ASCII.test(term)) return term.toLowerCase();
  return term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const ASCII = /^[\x00-\x7f]*$/;

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

// MiniSearch's tokenizer and ranking constants (its defaults, with the
// options the server always used: AND, prefix search, title boosted 2×).
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const TITLE_BOOST = 2;
// Removed entries are dropped from every posting list once they are this many
// (MiniSearch's auto-vacuum conditions), in slices of about this many postings
// with a turn of the event loop in between (a full pass at 100,000 entries
// takes most of a second).
const VACUUM_MIN_DIRT = 20;
const VACUUM_MIN_DIRT_FACTOR = 0.1;
const VACUUM_SLICE_POSTINGS = 50_000;

// A term's postings: [used, doc, field << 20 | count, doc, field << 20 | count, …],
// in the order they were added (documents in increasing short id, each
// document's fields in field order), which is MiniSearch's iteration order.
type Postings = Uint32Array;
// 4,096 fields fit; a type has at most MAX_FIELDS (200) besides title and slug.
const FIELD_SHIFT = 20;
const COUNT_MASK = (1 << FIELD_SHIFT) - 1;

interface IndexedDocument {
  id: string;
  /** Distinct raw tokens per field (MiniSearch's field length). */
  lengths: number[];
}

/**
 * The search index of one type's entries resolved for one locale. Entries
 * are added, replaced and removed one by one as writes happen.
 */
export class SearchIndex {
  private readonly fieldNames: string[];
  private readonly fieldBoosts: number[];
  private readonly textFields: { name: string; isMarkup: boolean }[];
  private readonly terms = new SearchableMap<Postings>();
  private readonly shortIds = new Map<string, number>();
  private readonly documents = new Map<number, IndexedDocument>();
  private readonly averageLengths: number[] = [];
  private nextShortId = 0;
  private dirt = 0;
  private vacuuming = false;

  /** Creates an empty index for the searchable fields of `type`. */
  constructor(type: ContentType) {
    this.textFields = Object.entries(type.fields)
      .filter(([, def]) => TEXT_LIKE_FIELD_TYPES.has(def.type))
      .map(([name, def]) => ({ name, isMarkup: def.type === 'markdown' || def.type === 'html' }));
    this.fieldNames = ['title', 'slug', ...this.textFields.map((f) => f.name)];
    this.fieldBoosts = this.fieldNames.map((_, field) => (field === 0 ? TITLE_BOOST : 1));
  }

  /** Number of indexed entries. */
  get size(): number {
    return this.documents.size;
  }

  /** Adds or replaces the entry's document. */
  upsert(entry: ResolvedEntry): void {
    this.remove(entry.id);
    this.add(entry.id, this.textsOf(entry));
  }

  /** Removes the entry's document if present; its postings go lazily (on search) or at the next vacuum. */
  remove(id: string): void {
    const shortId = this.shortIds.get(id);
    if (shortId === undefined) return;
    const document = this.documents.get(shortId)!;
    // Before the count drops, as MiniSearch's discard() does, so the averages match its own bit for bit.
    document.lengths.forEach((length, field) => this.removeFieldLength(field, this.documents.size, length));
    this.shortIds.delete(id);
    this.documents.delete(shortId);
    this.dirt += 1;
    if (!this.vacuuming && this.dirt >= VACUUM_MIN_DIRT && this.dirt / (1 + this.documents.size + this.dirt) >= VACUUM_MIN_DIRT_FACTOR) void this.vacuum();
  }

  /** Entries matching every term of `q` (prefix match), best first. */
  search(q: string): SearchHit[] {
    const queryTerms = q
      .split(SPACE_OR_PUNCTUATION)
      .map((term) => foldTerm(term))
      .filter((term) => term !== '');
    if (queryTerms.length === 0) return [];
    const emptied = new Set<string>();
    let combined: Map<number, number> | undefined;
    for (const term of queryTerms) {
      const scores = this.termScores(term, emptied);
      if (combined === undefined) {
        combined = scores;
        continue;
      }
      // AND: MiniSearch keeps the documents of both, in the later term's order, adding the earlier score first.
      const both = new Map<number, number>();
      for (const [shortId, score] of scores) {
        const before = combined.get(shortId);
        if (before !== undefined) both.set(shortId, before + score);
      }
      combined = both;
    }
    for (const term of emptied) this.terms.delete(term);
    // MiniSearch multiplies by the number of distinct query terms a document matched: with AND, all of them.
    const quality = new Set(queryTerms).size;
    const hits: SearchHit[] = [];
    for (const [shortId, score] of combined ?? []) hits.push({ id: this.documents.get(shortId)!.id, score: score * quality });
    return hits.sort((a, b) => b.score - a.score);
  }

  private textsOf(entry: ResolvedEntry): string[] {
    const texts = [entry.title, entry.slug];
    for (const field of this.textFields) {
      const text = textOf(entry.data[field.name]);
      texts.push(field.isMarkup ? toPlainText(text) : text);
    }
    return texts;
  }

  private add(id: string, texts: string[]): void {
    const shortId = this.nextShortId;
    this.nextShortId += 1;
    const document: IndexedDocument = { id, lengths: [] };
    this.shortIds.set(id, shortId);
    this.documents.set(shortId, document);
    texts.forEach((text, field) => {
      const tokens = text.split(SPACE_OR_PUNCTUATION);
      const length = new Set(tokens).size;
      document.lengths[field] = length;
      this.addFieldLength(field, this.documents.size - 1, length);
      for (const token of tokens) {
        const term = foldTerm(token);
        if (term !== '') this.addOccurrence(term, shortId, field);
      }
    });
  }

  private addOccurrence(term: string, shortId: number, field: number): void {
    let postings = this.terms.get(term);
    if (postings !== undefined) {
      // This document's postings are the last ones of the list: it is the newest.
      for (let at = postings[0] * 2 - 1; at > 0 && postings[at] === shortId; at -= 2) {
        if (postings[at + 1] >>> FIELD_SHIFT === field) {
          if ((postings[at + 1] & COUNT_MASK) < COUNT_MASK) postings[at + 1] += 1;
          return;
        }
      }
    }
    const used = postings === undefined ? 0 : postings[0];
    if (postings === undefined || postings.length < 3 + used * 2) {
      const grown = new Uint32Array(1 + 2 * (used < 4 ? used + 1 : Math.ceil(used * 1.5)));
      if (postings !== undefined) grown.set(postings.subarray(0, 1 + used * 2));
      postings = grown;
      this.terms.set(term, postings);
    }
    postings[1 + used * 2] = shortId;
    postings[2 + used * 2] = (field << FIELD_SHIFT) | 1;
    postings[0] = used + 1;
  }

  // MiniSearch's running average of each field's length, updated the way it updates it.
  private addFieldLength(field: number, count: number, length: number): void {
    const average = this.averageLengths[field] || 0;
    this.averageLengths[field] = (average * count + length) / (count + 1);
  }

  private removeFieldLength(field: number, count: number, length: number): void {
    this.averageLengths[field] = count === 1 ? 0 : (this.averageLengths[field] * count - length) / (count - 1);
  }

  // The scores of one query term: the exact term, then every longer term it is a prefix of, weighted down by how much longer.
  private termScores(term: string, emptied: Set<string>): Map<number, number> {
    const scores = new Map<number, number>();
    const exact = this.terms.get(term);
    if (exact !== undefined) this.addTermScores(term, exact, 1, scores, emptied);
    for (const [derived, postings] of this.terms.atPrefix(term)) {
      const distance = derived.length - term.length;
      if (distance === 0) continue;
      this.addTermScores(derived, postings, (PREFIX_WEIGHT * derived.length) / (derived.length + 0.3 * distance), scores, emptied);
    }
    return scores;
  }

  private addTermScores(term: string, postings: Postings, weight: number, scores: Map<number, number>, emptied: Set<string>): void {
    const used = this.compact(postings);
    if (used === 0) emptied.add(term);
    for (let field = 0; field < this.fieldNames.length; field += 1) {
      let matching = 0;
      for (let at = 2; at <= used * 2; at += 2) if (postings[at] >>> FIELD_SHIFT === field) matching += 1;
      if (matching === 0) continue;
      const boost = this.fieldBoosts[field];
      const averageLength = this.averageLengths[field];
      for (let at = 1; at < used * 2; at += 2) {
        if (postings[at + 1] >>> FIELD_SHIFT !== field) continue;
        const shortId = postings[at];
        const count = postings[at + 1] & COUNT_MASK;
        const length = this.documents.get(shortId)!.lengths[field];
        const score = weight * boost * bm25(count, matching, this.documents.size, length, averageLength);
        const before = scores.get(shortId);
        scores.set(shortId, before === undefined ? score : before + score);
      }
    }
  }

  // Drops the postings of removed documents from the list; returns how many are left.
  private compact(postings: Postings): number {
    const used = postings[0];
    let kept = 0;
    for (let at = 1; at < used * 2; at += 2) {
      if (!this.documents.has(postings[at])) continue;
      if (kept * 2 + 1 !== at) {
        postings[kept * 2 + 1] = postings[at];
        postings[kept * 2 + 2] = postings[at + 1];
      }
      kept += 1;
    }
    postings[0] = kept;
    return kept;
  }

  // Writes and searches go on between the slices: a list is compacted as soon
  // as it is read from the dictionary, and a term is deleted only if it is
  // still empty at the end (as MiniSearch's own vacuum does).
  private async vacuum(): Promise<void> {
    this.vacuuming = true;
    const dirt = this.dirt;
    const emptied: string[] = [];
    let work = 0;
    for (const [term, postings] of this.terms) {
      if (this.compact(postings) === 0) emptied.push(term);
      work += postings.length;
      if (work < VACUUM_SLICE_POSTINGS) continue;
      work = 0;
      await yieldToEventLoop();
    }
    for (const term of emptied) if (this.terms.get(term)?.[0] === 0) this.terms.delete(term);
    this.dirt -= dirt;
    this.vacuuming = false;
  }
}

// MiniSearch's BM25+ term score.
function bm25(count: number, matching: number, documents: number, length: number, averageLength: number): number {
  const inverseFrequency = Math.log(1 + (documents - matching + 0.5) / (matching + 0.5));
  return inverseFrequency * (BM25.d + (count * (BM25.k + 1)) / (count + BM25.k * (1 - BM25.b + (BM25.b * length) / averageLength)));
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
