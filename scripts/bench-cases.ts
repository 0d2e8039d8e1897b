// The read cases of `npm run bench` (issue 4 "Benchmark"), shared by the HTTP
// run and the in-process run so both measure exactly the same requests. Each
// case varies its request by index (offsets, filter bounds, search words) so
// no answer is served from a cache of the previous identical request.
import type { BenchData } from './bench-data.ts';

/** One read case: the i-th request's path below /api/v1/workspaces/{ws}. */
export interface ReadCase {
  /** Short key, also the bare-Koa route that returns a body of the same size. */
  key: string;
  label: string;
  path: (i: number) => string;
  /** Sent with `Authorization: Bearer …` (a full-access token). */
  withToken: boolean;
}

/** The six read cases, in the order the table prints them. */
export function readCases(data: BenchData): ReadCase[] {
  const pages = Math.floor(data.articles / 20);
  // Every tenth article is a draft (404 without a token), so single reads skip those.
  const published = (i: number) => {
    const n = (i * 37) % data.articles;
    return data.articleSlug(n % 10 === 9 ? n - 1 : n);
  };
  return [
    { key: 'page', label: 'page of 20', withToken: false, path: (i) => `/content/articles?limit=20&offset=${(i % pages) * 20}` },
    {
      key: 'filter', label: 'filter + sort + page', withToken: false,
      path: (i) => `/content/articles?filter[category]=guide&filter[price][gte]=${i % 500}&sort=-price&limit=20&offset=${(i % 5) * 20}`,
    },
    // Distinct words spread over the vocabulary, so the recent-search cache does not answer every request.
    { key: 'search', label: 'q + page', withToken: false, path: (i) => `/content/articles?q=${data.words[(i * 7) % data.words.length]}&limit=20` },
    { key: 'include', label: 'include on a page', withToken: false, path: (i) => `/content/articles?limit=20&offset=${(i % pages) * 20}&include=author` },
    { key: 'one', label: 'one entry by slug', withToken: false, path: (i) => `/content/articles/${published(i)}` },
    { key: 'one-token', label: 'one by slug + token', withToken: true, path: (i) => `/content/articles/${published(i)}` },
  ];
}
