// The media list query (SPEC "Media"): `q`, `category`, `limit`, `offset`,
// parsed at the HTTP edge (api/media/media.schemas.ts), and the match of one
// record against it.
import { isWithin } from './categories.ts';
import type { MediaRecord } from './media-record.ts';

/** A media list query as the edge parsed it. */
export interface MediaQuery {
  /** Search text; every term must match, case- and accent-insensitively. */
  q?: string;
  /** Category path in its written form; files of its subcategories match too. */
  category?: string;
  limit?: number;
  offset: number;
}

/** The test of one record against the query's search terms and category. Throws nothing. */
export function mediaMatcher(query: MediaQuery): (record: MediaRecord) => boolean {
  const terms = fold(query.q ?? '').split(/\s+/).filter((term) => term !== '');
  return (record) => {
    if (query.category !== undefined && !isWithin(record.category, query.category)) return false;
    if (terms.length === 0) return true;
    const haystack = fold(`${record.filename} ${record.name} ${record.title} ${record.alt}`);
    return terms.every((term) => haystack.includes(term));
  };
}

// Case- and accent-insensitive, as content search is.
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}
