// The media list query (SPEC "Media"): `q`, `category`, `limit`, `offset`,
// validated with the same rules as content lists (400 invalid_request), and
// the match of one record against it.
import { AppError } from '../../errors/app-error.ts';
import { MAX_Q_LENGTH, type RawQuery } from '../query/list-query.ts';
import { isWithin, parseCategory } from './categories.ts';
import type { MediaRecord } from './media-record.ts';

/** A validated media list query. */
export interface MediaQuery {
  /** Search terms, folded (lowercase, accents removed); all must match. */
  terms: string[];
  /** Category path; files of its subcategories match too. */
  category?: string;
  limit?: number;
  offset: number;
}

/**
 * Parses the raw query string values. Unknown keys are ignored, like on
 * content lists. Throws invalid_request naming the parameter for a repeated
 * key, `limit` < 1, `offset` < 0, non-integers, a `q` over 500 characters or a malformed category.
 */
export function parseMediaQuery(raw: RawQuery): MediaQuery {
  const query: MediaQuery = { terms: [], offset: 0 };
  const limit = single(raw, 'limit');
  if (limit !== undefined) query.limit = integer('limit', limit, 1);
  const offset = single(raw, 'offset');
  if (offset !== undefined) query.offset = integer('offset', offset, 0);
  const q = single(raw, 'q');
  if (q !== undefined) {
    if (q.length > MAX_Q_LENGTH) throw invalid('q', `The query parameter "q" may be at most ${MAX_Q_LENGTH} characters long.`);
    query.terms = fold(q).split(/\s+/).filter((term) => term !== '');
  }
  const category = single(raw, 'category');
  if (category !== undefined) {
    const parsed = parseCategory(category, 'category', 'invalid_request');
    if (parsed !== '') query.category = parsed;
  }
  return query;
}

/** Whether a record matches the query's search terms and category. Throws nothing. */
export function matchesMediaQuery(record: MediaRecord, query: MediaQuery): boolean {
  if (query.category !== undefined && !isWithin(record.category, query.category)) return false;
  if (query.terms.length === 0) return true;
  const haystack = fold(`${record.filename} ${record.name} ${record.title} ${record.alt}`);
  return query.terms.every((term) => haystack.includes(term));
}

// Case- and accent-insensitive, as content search is.
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

function single(raw: RawQuery, key: string): string | undefined {
  const value = raw[key];
  if (Array.isArray(value)) throw invalid(key, `The query parameter "${key}" may be given only once.`);
  return value;
}

function integer(key: string, value: string, min: number): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min) throw invalid(key, `The query parameter "${key}" must be an integer of at least ${min}.`);
  return parsed;
}

function invalid(param: string, message: string): AppError {
  return new AppError('invalid_request', message, { fields: { [param]: message } });
}
