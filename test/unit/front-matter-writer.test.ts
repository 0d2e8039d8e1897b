import { expect } from 'chai';
import fc from 'fast-check';
import YAML from 'yaml';
import { parseFrontMatter, stringifyFrontMatter } from '../../src/domain/model/front-matter.ts';
import { writeSimpleYaml } from '../../src/domain/model/front-matter-writer.ts';

// The writer's contract: the library's very text, or undefined (then the library writes it).
function writtenLikeTheLibrary(attributes: Record<string, unknown>): string | undefined {
  const fast = writeSimpleYaml(attributes);
  if (fast !== undefined) expect(fast, JSON.stringify(attributes)).to.equal(YAML.stringify(attributes, { lineWidth: 0 }));
  return fast;
}

// What the writer covers reads back as the very values written.
function expectRoundTrip(attributes: Record<string, unknown>): void {
  expect(parseFrontMatter(stringifyFrontMatter({ attributes, body: 'Body.' })).attributes).to.deep.equal(attributes);
}

// The attributes entry-to-files.ts writes for a post of the perf dataset (../shared/perf/dataset.mjs): shared keys, then the fields.
function datasetEntry(i: number): Record<string, unknown> {
  const words = ['lorem', 'ipsum', 'dolor', 'river', 'copper', 'orbit', 'kitchen', 'castle'];
  const word = (n: number) => words[(i * 7 + n * 3) % words.length];
  const created = new Date(Date.UTC(2026, 10, 27) + i * 1037).toISOString();
  const published = i % 10 < 7 ? new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString() : undefined;
  return {
    id: (i * 2654435761).toString(36).padStart(16, 'k'),
    title: `Post ${i}: ${word(1)[0].toUpperCase()}${word(1).slice(1)} ${word(2)} ${word(3)}`,
    status: published ? 'published' : 'draft',
    draft: !published,
    date: published ?? created,
    ...(published ? { publishDate: published } : {}),
    lastmod: created,
    created_at: created,
    author_id: 'token:s8i3jcajtmcwwc0a',
    updated_by: 'token:s8i3jcajtmcwwc0a',
    category: ['news', 'tech', 'life', 'travel', 'food'][i % 5],
    tags: ['alpha', 'beta', 'gamma', 'delta'].slice(0, 1 + (i % 3)),
    views: (i * 7919) % 100_000,
    featured: i % 5 === 0,
  };
}

// Strings where YAML readers and writers disagree or quote, and ordinary ones.
const TRICKY_STRINGS = [
  'true', 'True', 'TRUE', 'false', 'no', 'No', 'yes', 'on', 'off', 'y', 'n', 'Y', 'null', 'Null', 'NULL', '~', '',
  '123', '-5', '+5', '007', '0x1f', '0o17', '0b101', '1e3', '1E3', '.5', '1.', '1.5', '1_000', '12:30', '.inf', '.nan', 'NaN',
  '-', '- a', '?', '? a', ':', 'a:', 'a: b', 'a:b', 'token:abc', 'a #b', 'a#b', '#a', ' lead', 'trail ', 'two  spaces',
  'é', 'Église', 'naïve café', '日本', 'a\u00a0b', 'a\u2028b', '\ufeffa', 'a\tb', 'a\nb', 'a\\b', 'say "hi"', 'say "hi": x',
  "it's", "it's: x", '"q"', "'q'", '2024-01-01', '2024-01-01T10:00:00Z', '2026-11-26T14:39:49.498Z', '2024-01-01 10:00:00',
  '---', '---x', '...', '%x', '@x', '`x`', '&a', '*a', '!tag', '|', '>', '[a]', '{a}', 'a, b', 'a [b]', 'x'.repeat(300),
  `${'word '.repeat(40)}: end`, 'post-000001', 'Post 1: Esse velit planet', 'https://example.com/a?b=c#d', 'C#', 'a # b',
];

describe('front matter writer', () => {
  it('writes dataset-shaped entries itself, exactly as the yaml package does, and they read back', () => {
    for (let i = 1; i <= 300; i++) {
      const attributes = datasetEntry(i);
      expect(writtenLikeTheLibrary(attributes), `entry ${i}`).to.be.a('string');
      expectRoundTrip(attributes);
    }
  });

  it('writes tricky strings as the yaml package does (as values, list items and keys), or leaves them to it', () => {
    for (const text of TRICKY_STRINGS) {
      for (const attributes of [{ k: text }, { k: [text, 'b'] }, { [text]: 1 }]) {
        if (writtenLikeTheLibrary(attributes) !== undefined) expectRoundTrip(attributes);
      }
    }
  });

  it('takes the fast path for ordinary values, quoted titles and empty strings', () => {
    const covered = ['token:abc', 'Post 1: Esse velit planet', '2026-11-26T14:39:49.498Z', 'post-000001', '', 'Église', "it's: x", 'a#b'];
    for (const text of covered) expect(writtenLikeTheLibrary({ k: text, list: [text] }), text).to.be.a('string');
  });

  it('writes finite numbers, booleans, null and empty lists as the yaml package does', () => {
    const values = [0, -0, 1, -5, 42, 0.1, -1.5, 1e21, 1e-7, 123456789.125, Number.MAX_SAFE_INTEGER + 2, Number.MAX_VALUE, Number.MIN_VALUE, true, false, null, []];
    for (const value of values) {
      const attributes = { k: value, list: [value === null || typeof value !== 'object' ? value : 1] };
      expect(writtenLikeTheLibrary(attributes), String(value)).to.be.a('string');
      expectRoundTrip(attributes);
    }
  });

  it('leaves what it does not write to the yaml package', () => {
    const shared = ['a'];
    const others = [{}, { k: Number.NaN }, { k: Infinity }, { k: undefined }, { k: { a: 1 } }, { k: [['a']] }, { k: [undefined] }, { k: new Date(0) }, { a: shared, b: shared }, { k: 1n }];
    for (const attributes of others) expect(writeSimpleYaml(attributes as Record<string, unknown>), String(Object.keys(attributes))).to.equal(undefined);
    expect(writeSimpleYaml(Object.assign(Object.create(null) as object, { k: 1 }))).to.equal(undefined);
  });

  it('writes random front matter as the yaml package does, or leaves it to it (seeded)', () => {
    // Letters and digits most of the time, so that many texts are ones the writer takes; the rest YAML's special characters and words.
    const special = fc.constantFrom(...' :#-_.,\'"\\/[]{}&*!|>%@`~?\t\néÀ\u0085\u00a0\u2028\ufeff日'.split(''), 'true', 'no', 'null', '0x', '1e', '---', '...', ': ', ' #');
    const unit = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...'abyZ019'.split('')) }, { weight: 1, arbitrary: special });
    const text = fc.string({ unit, maxLength: 10 });
    const scalar = fc.oneof({ weight: 10, arbitrary: text }, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const value = fc.oneof({ weight: 8, arbitrary: scalar }, { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) }, fc.dictionary(fc.constantFrom('x', '1'), scalar, { maxKeys: 1 }));
    const key = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('title', 'tags', 'slug', '_x', 'views') },
      fc.constantFrom('y', 'on', 'true', 'null', 'a b', '1', 'é', '-a', '__proto__', 'k'.repeat(120)),
      text,
    );
    let covered = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 3 }), (attributes) => {
        if (writtenLikeTheLibrary(attributes) === undefined) return;
        covered += 1;
        expectRoundTrip(attributes);
      }),
      { numRuns: 3000, seed: 14 },
    );
    // The generator must reach the fast path, or this test would prove nothing.
    expect(covered).to.be.greaterThan(100);
  });
});
