// In-process micro-benchmark of the read path (issue 4): builds 10,000 entries
// in one type and 1,000 related ones, then prints the p50/p99 time of parse +
// query (+ expansion) for the request shapes the HTTP benchmark measures.
// Run: node --import tsx scripts/bench-query.ts

import { performance } from 'node:perf_hooks';
import { isPubliclyVisible } from '../src/domain/model/entry.ts';
import type { StoredEntry } from '../src/domain/model/entry.ts';
import type { ContentType } from '../src/domain/model/content-type.ts';
import { resolveListQuery } from '../src/domain/query/list-query.ts';
import { parseListParams, type QueryValues } from '../src/http/query-params.ts';
import { expandRelations } from '../src/domain/query/relations.ts';
import { TypeIndex } from '../src/domain/query/type-index.ts';

const ENTRIES = 10_000;
const AUTHORS = 1_000;
const RUNS = 2_000;

function buildType(name: string, fields: ContentType['fields']): ContentType {
  return { name, label: name, icon: 'file', singleton: false, visibility: 'public', slug_field: 'slug', slug_source: 'title', locales: [], default_locale: 'en', fields };
}

const ARTICLES = buildType('articles', {
  summary: { type: 'text' },
  body: { type: 'markdown' },
  price: { type: 'number' },
  category: { type: 'select', options: ['news', 'guide', 'review', 'opinion'].map((v) => ({ value: v, label: v })) },
  tags: { type: 'select', multiple: true },
  release: { type: 'date' },
  author: { type: 'relation', target: 'authors' },
});
const AUTHORS_TYPE = buildType('authors', { bio: { type: 'text' } });

// A deterministic pseudo-random sequence, so every run measures the same data.
let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'dor', 'len', 'mar', 'tos'];
const WORDS = Array.from({ length: 3_000 }, (_, i) => SYLLABLES[i % 15] + SYLLABLES[Math.floor(i / 15) % 15] + SYLLABLES[Math.floor(i / 225) % 15]);

function words(count: number): string {
  return Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

function entry(type: string, i: number, data: Record<string, unknown>): StoredEntry {
  const created = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
  const status = i % 10 === 0 ? 'draft' : 'published';
  return {
    id: `${type.slice(0, 2)}${String(i).padStart(6, '0')}`, slug: `${type}-${i}`, type, status, title: `${words(3)} ${i}`,
    published_at: status === 'published' ? created : null, created_at: created, updated_at: created, data, translations: {},
  };
}

function buildIndexes(): { articles: TypeIndex; authors: TypeIndex } {
  const authors = new TypeIndex(AUTHORS_TYPE);
  for (let i = 0; i < AUTHORS; i += 1) authors.upsert(entry('authors', i, { bio: words(10) }));
  const articles = new TypeIndex(ARTICLES);
  for (let i = 0; i < ENTRIES; i += 1) {
    articles.upsert(entry('articles', i, {
      summary: words(12),
      body: `# ${words(4)}\n\n${words(60)} **${words(2)}** [${words(2)}](https://example.com/${i})`,
      price: Math.floor(random() * 1_000),
      category: ['news', 'guide', 'review', 'opinion'][i % 4],
      tags: [WORDS[i % 50], WORDS[(i * 7) % 50]],
      release: new Date(Date.UTC(2021, 0, 1 + (i % 900))).toISOString().slice(0, 10),
      author: `au${String(i % AUTHORS).padStart(6, '0')}`,
    }));
  }
  return { articles, authors };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

function measure(name: string, run: (i: number) => unknown): void {
  for (let i = 0; i < 50; i += 1) run(i);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(28)} p50 ${percentile(times, 50).toFixed(3).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(3).padStart(7)} ms`);
}

function main(): void {
  const buildStart = performance.now();
  const { articles, authors } = buildIndexes();
  console.log(`built ${ENTRIES} + ${AUTHORS} entries in ${(performance.now() - buildStart).toFixed(0)} ms`);
  const now = Date.now();
  const options = { mode: 'public', now } as const;
  const list = (raw: QueryValues) => articles.query(resolveListQuery(parseListParams(raw), ARTICLES), options);
  const ctx = {
    lookup: (name: string) => (name === 'authors' ? { type: AUTHORS_TYPE, index: authors } : undefined),
    canReadType: () => true,
    isVisible: (_name: string, e: StoredEntry) => isPubliclyVisible(e, now),
  };
  const firstQ = performance.now();
  list({ q: WORDS[100], limit: '1' });
  console.log(`search index built lazily in ${(performance.now() - firstQ).toFixed(0)} ms`);

  measure('page of 20', (i) => list({ limit: '20', offset: String((i % 50) * 20) }));
  measure('filter + sort + page', (i) => list({ 'filter[category]': 'guide', 'filter[price][gte]': String(i % 500), sort: '-price', limit: '20' }));
  measure('q + page (repeated q)', () => list({ q: WORDS[100], limit: '20' }));
  measure('q + page (distinct words)', (i) => list({ q: WORDS[(i * 7) % 3_000], limit: '20' }));
  measure('q 2 terms (distinct)', (i) => list({ q: `${WORDS[i % 3_000]} ${WORDS[(i * 13) % 3_000].slice(0, 5)}`, limit: '20' }));
  measure('q broad prefix (worst)', (i) => list({ q: WORDS[i % 3_000].slice(0, 4), limit: '20' }));
  measure('include on a page', (i) => {
    const query = resolveListQuery(parseListParams({ limit: '20', offset: String((i % 50) * 20), include: 'author' }), ARTICLES);
    const page = articles.query(query, options);
    return expandRelations(page.entries, ARTICLES, query.include, ctx);
  });
  measure('one entry by slug', (i) => {
    const found = articles.getBySlug(`articles-${(i * 37) % ENTRIES}`);
    return found ? articles.resolve(found.id) : undefined;
  });
  measure('upsert (write patch)', (i) => {
    const found = articles.get(`ar${String((i * 31) % ENTRIES).padStart(6, '0')}`);
    if (found) articles.upsert({ ...found, data: { ...found.data, price: (i * 17) % 1_000 } });
  });
}

main();
