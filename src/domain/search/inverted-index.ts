// The postings behind SearchIndex: for every folded term and field, the
// documents holding it and how often, in plain arrays, plus a sorted term list
// for prefix lookups. Scoring is MiniSearch's (BM25+ with k 1.2, b 0.7, d 0.5;
// prefix matches weighted 0.375 · len / (len + 0.3 · extra chars); terms
// AND-ed; the sum times the number of distinct query terms), so results rank
// as they did with MiniSearch, at a fraction of the time and memory: a query
// adds numbers into typed arrays instead of building a Map of result objects.

/** The documents of one (term, field) and their term frequencies, in parallel arrays. */
interface Posting {
  term: TermEntry;
  field: number;
  docs: number[];
  freqs: number[];
}

interface TermEntry {
  term: string;
  /** By field id. */
  postings: (Posting | undefined)[];
}

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;

/** A document for the index: per field, its folded terms (duplicates count) and its length. */
export interface DocumentTerms {
  /** Folded terms of each field, in field order. */
  terms: string[][];
  /** The BM25 length of each field (MiniSearch counts distinct raw tokens). */
  lengths: number[];
}

/**
 * Term → field → documents, with per-document field lengths and their
 * running averages (updated exactly as MiniSearch does, so scores match).
 * Document numbers are the caller's small integers.
 */
export class InvertedIndex {
  private readonly terms = new Map<string, TermEntry>();
  // Every term in order, for prefix lookups; terms added since the last
  // search wait in newTerms, and removed ones stay until the next merge
  // (lookups skip them), so writes never shift the whole list.
  private sortedTerms: string[] = [];
  private newTerms: string[] = [];
  private removedTerms = 0;
  private readonly postingsOf: (Posting[] | undefined)[] = [];
  private readonly lengthsOf: (number[] | undefined)[] = [];
  private readonly averageLength: number[];
  private documentCount = 0;
  private scores = new Float64Array(64);
  private matched = new Uint16Array(64);

  /** An empty index over `boosts.length` fields, each with its score boost. */
  constructor(private readonly boosts: number[]) {
    this.averageLength = boosts.map(() => 0);
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.documentCount;
  }

  /** Indexes document `doc` (which must not be indexed yet). */
  add(doc: number, document: DocumentTerms): void {
    this.documentCount += 1;
    const postings: Posting[] = [];
    for (let field = 0; field < this.boosts.length; field += 1) {
      const count = this.documentCount - 1;
      this.averageLength[field] = (this.averageLength[field] * count + document.lengths[field]) / (count + 1);
      for (const term of document.terms[field]) {
        const posting = this.postingFor(term, field);
        const last = posting.docs.length - 1;
        // This document's terms arrive together, so a repeat is always the last row.
        if (last >= 0 && posting.docs[last] === doc) {
          posting.freqs[last] += 1;
        } else {
          posting.docs.push(doc);
          posting.freqs.push(1);
          postings.push(posting);
        }
      }
    }
    this.postingsOf[doc] = postings;
    this.lengthsOf[doc] = document.lengths;
    this.grow(doc);
  }

  /** Removes document `doc`; unknown documents are ignored. */
  remove(doc: number): void {
    const postings = this.postingsOf[doc];
    const lengths = this.lengthsOf[doc];
    if (postings === undefined || lengths === undefined) return;
    for (let field = 0; field < lengths.length; field += 1) {
      const count = this.documentCount;
      this.averageLength[field] = count === 1 ? 0 : (this.averageLength[field] * count - lengths[field]) / (count - 1);
    }
    this.documentCount -= 1;
    for (const posting of postings) this.dropFromPosting(posting, doc);
    this.postingsOf[doc] = undefined;
    this.lengthsOf[doc] = undefined;
  }

  /**
   * The documents holding every query term (each as a word or a word's
   * prefix) with their scores; unordered. `queryTerms` are folded terms.
   */
  search(queryTerms: string[]): { docs: number[]; scores: number[] } {
    const found = { docs: [] as number[], scores: [] as number[] };
    if (queryTerms.length === 0) return found;
    this.mergeNewTerms();
    const touched: number[] = [];
    for (let index = 0; index < queryTerms.length; index += 1) {
      const term = queryTerms[index];
      const exact = this.terms.get(term);
      if (exact) this.score(exact, 1, index, touched);
      for (let at = lowerBound(this.sortedTerms, term); at < this.sortedTerms.length; at += 1) {
        const candidate = this.sortedTerms[at];
        if (!candidate.startsWith(term)) break;
        if (candidate.length === term.length) continue;
        const weight = (PREFIX_WEIGHT * candidate.length) / (candidate.length + 0.3 * (candidate.length - term.length));
        const entry = this.terms.get(candidate);
        if (entry) this.score(entry, weight, index, touched);
      }
    }
    const quality = new Set(queryTerms).size;
    for (const doc of touched) {
      if (this.matched[doc] === queryTerms.length) {
        found.docs.push(doc);
        found.scores.push(this.scores[doc] * quality);
      }
      this.matched[doc] = 0;
      this.scores[doc] = 0;
    }
    return found;
  }

  // Adds the BM25+ scores of one (matching term, query term) for documents
  // that matched every earlier query term; matched[doc] counts those terms.
  private score(entry: TermEntry, weight: number, index: number, touched: number[]): void {
    const { scores, matched } = this;
    for (let field = 0; field < entry.postings.length; field += 1) {
      const posting = entry.postings[field];
      if (posting === undefined) continue;
      const { docs, freqs } = posting;
      const idf = Math.log(1 + (this.documentCount - docs.length + 0.5) / (docs.length + 0.5));
      const factor = weight * this.boosts[field] * idf;
      const average = this.averageLength[field];
      for (let i = 0; i < docs.length; i += 1) {
        const doc = docs[i];
        const seen = matched[doc];
        if (seen === index) {
          if (index === 0) touched.push(doc);
          matched[doc] = index + 1;
        } else if (seen !== index + 1) {
          continue;
        }
        const frequency = freqs[i];
        const length = this.lengthsOf[doc]?.[field] ?? 0;
        const saturation = (frequency * (BM25.k + 1)) / (frequency + BM25.k * (1 - BM25.b + (BM25.b * length) / average));
        scores[doc] += factor * (BM25.d + saturation);
      }
    }
  }

  private postingFor(term: string, field: number): Posting {
    let entry = this.terms.get(term);
    if (!entry) {
      entry = { term, postings: [] };
      this.terms.set(term, entry);
      this.newTerms.push(term);
    }
    let posting = entry.postings[field];
    if (!posting) {
      posting = { term: entry, field, docs: [], freqs: [] };
      entry.postings[field] = posting;
    }
    return posting;
  }

  // Swap-remove: the order of a posting list carries no meaning.
  private dropFromPosting(posting: Posting, doc: number): void {
    const at = posting.docs.lastIndexOf(doc);
    if (at < 0) return;
    const last = posting.docs.length - 1;
    posting.docs[at] = posting.docs[last];
    posting.freqs[at] = posting.freqs[last];
    posting.docs.pop();
    posting.freqs.pop();
    if (posting.docs.length > 0) return;
    const { term } = posting;
    term.postings[posting.field] = undefined;
    if (term.postings.some((other) => other !== undefined)) return;
    this.terms.delete(term.term);
    this.removedTerms += 1;
  }

  // Merges the new terms into the sorted list, dropping removed and repeated ones.
  private mergeNewTerms(): void {
    if (this.newTerms.length === 0 && this.removedTerms * 4 <= this.sortedTerms.length) return;
    const added = this.newTerms.sort();
    const old = this.sortedTerms;
    const merged: string[] = [];
    let i = 0;
    let j = 0;
    while (i < old.length || j < added.length) {
      const term = j >= added.length || (i < old.length && old[i] < added[j]) ? old[i++] : added[j++];
      if (merged[merged.length - 1] !== term && this.terms.has(term)) merged.push(term);
    }
    this.sortedTerms = merged;
    this.newTerms = [];
    this.removedTerms = 0;
  }

  private grow(doc: number): void {
    if (doc < this.scores.length) return;
    let size = this.scores.length * 2;
    while (size <= doc) size *= 2;
    const scores = new Float64Array(size);
    scores.set(this.scores);
    const matched = new Uint16Array(size);
    matched.set(this.matched);
    this.scores = scores;
    this.matched = matched;
  }
}

/** The first position in sorted `list` whose item is not below `value`. */
function lowerBound(list: string[], value: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
