// A fixed, hand-shaped data set for the query engine tests: 50 products with
// edge cases (missing values, ties, mixed case, accents, markup, offsets in
// datetimes), a few makers, a private vault and a localized pages type.

import type { ContentType, FieldDefinition } from '../../src/domain/model/content-type.ts';
import type { EntryStatus, StoredEntry, Translation } from '../../src/domain/model/entry.ts';
import { resolveListQuery, type ListQuery } from '../../src/domain/query/list-query.ts';
import { TypeIndex } from '../../src/domain/query/type-index.ts';
import { parseListParams, type QueryValues } from '../../src/http/query-params.ts';

/** The ListQuery a content list request with these query values runs: parsed at the edge, then checked against `type`. */
export function listQueryOf(raw: QueryValues, type: ContentType): ListQuery {
  return resolveListQuery(parseListParams(raw), type);
}

/** A content type with SPEC defaults; `fields` and overrides as given. */
export function buildType(name: string, fields: Record<string, FieldDefinition>, overrides: Partial<ContentType> = {}): ContentType {
  return {
    name,
    label: name,
    icon: 'file',
    singleton: false,
    visibility: 'public',
    slug_field: 'slug',
    slug_source: 'title',
    locales: [],
    default_locale: 'en',
    fields,
    ...overrides,
  };
}

interface EntrySeed {
  id: string;
  title: string;
  status?: EntryStatus;
  slug?: string;
  published_at?: string | null;
  created_at?: string;
  data?: Record<string, unknown>;
  translations?: Record<string, Translation>;
}

/** A stored entry with fixed timestamps unless given. */
export function buildEntry(type: string, seed: EntrySeed): StoredEntry {
  const created = seed.created_at ?? '2024-01-01T00:00:00.000Z';
  return {
    id: seed.id,
    slug: seed.slug ?? seed.id,
    type,
    status: seed.status ?? 'published',
    title: seed.title,
    published_at: seed.published_at === undefined ? created : seed.published_at,
    created_at: created,
    updated_at: created,
    data: seed.data ?? {},
    translations: seed.translations ?? {},
  };
}

export const PRODUCTS = buildType('products', {
  summary: { type: 'text' },
  body: { type: 'markdown' },
  html_body: { type: 'html' },
  code: { type: 'text' },
  price: { type: 'number' },
  rating: { type: 'range', min: 0, max: 5 },
  featured: { type: 'boolean' },
  category: { type: 'select', options: [{ value: 'tools', label: 'Tools' }, { value: 'toys', label: 'Toys' }, { value: 'food', label: 'Food' }] },
  tags: { type: 'select', multiple: true, options: [{ value: 'even', label: 'Even' }, { value: 'five', label: 'Five' }] },
  release: { type: 'date' },
  launch_at: { type: 'datetime' },
  maker: { type: 'relation', target: 'makers' },
  related: { type: 'relation', target: 'products', multiple: true },
  secret: { type: 'relation', target: 'vault' },
  cover: { type: 'media' },
  gallery: { type: 'media', multiple: true },
});

export const MAKERS = buildType('makers', {
  country: { type: 'text' },
  partner: { type: 'relation', target: 'makers' },
  vault: { type: 'relation', target: 'vault' },
});

export const VAULT = buildType('vault', { code: { type: 'text' } }, { visibility: 'private' });

export const PAGES = buildType('pages', {
  body: { type: 'text' },
  teaser: { type: 'text' },
  weight: { type: 'number' },
}, { locales: ['en', 'de', 'fr'], default_locale: 'en' });

const SPECIAL_TITLES: Record<number, string> = {
  1: 'Crème brûlée torch',
  2: 'apple peeler',
  3: 'Banana slicer',
  4: 'cherry pitter',
  5: 'Zebra mug',
};

const CODES: Record<number, string> = { 1: 'alpha', 2: 'Beta', 3: 'gamma', 4: 'Delta' };

/** The public-time "now" of the fixtures: p07 is scheduled after it, p08 before. */
export const NOW = Date.parse('2025-01-01T00:00:00Z');

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function productData(i: number): Record<string, unknown> {
  const data: Record<string, unknown> = {
    summary: `Summary for item ${i}`,
    rating: i % 5,
    category: ['tools', 'toys', 'food'][i % 3],
    tags: i % 7 === 0 ? [] : [...(i % 2 === 0 ? ['even'] : []), ...(i % 5 === 0 ? ['five'] : [])],
    launch_at: new Date(Date.UTC(2024, 2, 2, i)).toISOString(),
  };
  if (i < 45) data.price = i;
  if (i % 3 !== 2) data.featured = i % 3 === 0;
  if (i !== 49) data.release = new Date(Date.UTC(2023, 0, i)).toISOString().slice(0, 10);
  if (CODES[i]) data.code = CODES[i];
  return data;
}

function productStatus(i: number): Pick<EntrySeed, 'status' | 'published_at'> {
  if (i === 7) return { status: 'scheduled', published_at: '2999-01-01T00:00:00.000Z' };
  if (i === 8) return { status: 'scheduled', published_at: '2024-06-01T00:00:00.000Z' };
  if (i % 10 === 0) return { status: 'draft', published_at: null };
  return { status: 'published' };
}

/** The 50 products p01…p50 (see the comments on each special). */
export function buildProducts(): StoredEntry[] {
  const entries: StoredEntry[] = [];
  for (let i = 1; i <= 50; i += 1) {
    // p11–p13 share one creation time, so the id tie-breaker decides their order.
    const hour = i >= 11 && i <= 13 ? 11 : i;
    entries.push(buildEntry('products', {
      id: `p${pad(i)}`,
      slug: `product-${i}`,
      title: SPECIAL_TITLES[i] ?? `Product ${i}`,
      created_at: new Date(Date.UTC(2024, 0, 1, hour)).toISOString(),
      data: productData(i),
      ...productStatus(i),
    }));
  }
  const byId = new Map(entries.map((e) => [e.id, e.data]));
  const data = (id: string): Record<string, unknown> => byId.get(id) ?? {};
  // p01 at 10:00+02:00 is 08:00Z, earlier than p02's 09:00Z although its string sorts later.
  Object.assign(data('p01'), { launch_at: '2024-03-01T10:00:00+02:00', maker: 'm1', related: ['p02', 'p10', 'gone', 'p03'], secret: 'v1', cover: 'torch.jpg', gallery: ['a.jpg', 'b.jpg'] });
  Object.assign(data('p02'), { launch_at: '2024-03-01T09:00:00Z', maker: 'm2', related: ['p01'] });
  Object.assign(data('p03'), { maker: 'missing-maker', related: [] });
  data('p06').body = '# Heading\n\nSome **bold** words and [link text](https://example.com/hiddenurl).';
  data('p09').html_body = '<p>Stainless <strong>steel</strong> &amp; glass</p>';
  data('p04').summary = 'Naïve café gadget';
  return entries;
}

/** Makers: m1 public with a partner and a private vault link, m2 a draft. */
export function buildMakers(): StoredEntry[] {
  return [
    buildEntry('makers', { id: 'm1', title: 'Acme', data: { country: 'Germany', partner: 'm2', vault: 'v1' } }),
    buildEntry('makers', { id: 'm2', title: 'Draft maker', status: 'draft', published_at: null, data: { country: 'France' } }),
    buildEntry('makers', { id: 'm3', title: 'Other', data: { country: 'Italy', partner: 'm1' } }),
  ];
}

/** The private vault's one entry. */
export function buildVault(): StoredEntry[] {
  return [buildEntry('vault', { id: 'v1', title: 'Secret', data: { code: 'xyz' } })];
}

/**
 * Pages: g1 fully translated (fr only a title), g2 root only, g3 with a
 * translation in the removed locale "it".
 */
export function buildPages(): StoredEntry[] {
  return [
    buildEntry('pages', {
      id: 'g1', title: 'Root one', created_at: '2024-01-01T01:00:00.000Z',
      data: { body: 'root body', teaser: 'root teaser', weight: 1 },
      translations: {
        en: { title: 'Hello', data: { body: 'en body', weight: 5 } },
        de: { title: 'Hallo', data: { body: 'de body' } },
        fr: { title: 'Bonjour', data: {} },
      },
    }),
    buildEntry('pages', { id: 'g2', title: 'Only root', created_at: '2024-01-01T02:00:00.000Z', data: { body: 'only root body', weight: 2 } }),
    buildEntry('pages', {
      id: 'g3', title: 'Root three', created_at: '2024-01-01T03:00:00.000Z',
      data: { body: 'root three body', weight: 3 },
      translations: {
        en: { title: 'Welcome', data: { body: 'welcome body', weight: 30 } },
        de: { title: 'Willkommen', data: { teaser: 'Über uns' } },
        it: { title: 'Benvenuto', data: { body: 'corpo' } },
      },
    }),
  ];
}

/** A TypeIndex of `type` holding `entries`. */
export function buildIndex(type: ContentType, entries: StoredEntry[]): TypeIndex {
  const index = new TypeIndex(type);
  for (const entry of entries) index.upsert(entry);
  return index;
}
