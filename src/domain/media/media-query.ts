// The media list query (SPEC "Media"): `q`, `category`, `limit`, `offset`,
// and the library's filters `kind` and `visibility`, parsed at the HTTP edge
// (api/media/media.schemas.ts), and the match of one record against it.
import { isWithin } from './categories.ts';
import type { MediaRecord, MediaVisibility } from './media-record.ts';
import { groupOfMime, type MediaGroup } from './media-types.ts';

/** A media list query as the edge parsed it. */
export interface MediaQuery {
  /** Search text; every term must match, case- and accent-insensitively. */
  q?: string;
  /** Category path in its written form; files of its subcategories match too. */
  category?: string;
  /** Only files of this group (image, video, audio, pdf, office, archive, text). */
  kind?: MediaGroup;
  visibility?: MediaVisibility;
  limit?: number;
  offset: number;
}

/** The test of one record against the query's search terms and category. Throws nothing. */
export function mediaMatcher(query: MediaQuery): (record: MediaRecord) => boolean {
  const terms = fold(query.q ?? '').split(/\s+/).filter((term) => term !== '');
  return (record) => {
    if (query.category !== undefined && !isWithin(record.category, query.category)) return false;
    if (query.kind !== undefined && groupOfMime(record.mime) !== query.kind) return false;
    if (query.visibility !== undefined && record.visibility !== query.visibility) return false;
    if (terms.length === 0) return true;
    const haystack = fold(`${record.filename} ${record.name} ${record.title} ${record.alt}`);
    return terms.every((term) => haystack.includes(term));
  };
}

// Case- and accent-insensitive, as content search is.
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}
