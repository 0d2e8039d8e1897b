import { expect } from 'chai';
import fc from 'fast-check';
import { isPubliclyVisible } from '../../src/domain/model/entry.ts';
import type { StoredEntry } from '../../src/domain/model/entry.ts';
import type { QueryValues } from '../../src/http/query-params.ts';
import type { QueryVisibility } from '../../src/domain/query/type-index.ts';
import { NOW, PRODUCTS, buildIndex, buildProducts, listQueryOf } from './query-fixtures.ts';

interface FilterCase {
  raw: QueryValues;
  matches: (entry: StoredEntry) => boolean;
}

const FILTERS: FilterCase[] = [
  { raw: {}, matches: () => true },
  { raw: { 'filter[category]': 'tools' }, matches: (e) => e.data.category === 'tools' },
  { raw: { 'filter[price][lt]': '20' }, matches: (e) => typeof e.data.price === 'number' && e.data.price < 20 },
  { raw: { 'filter[tags]': 'even' }, matches: (e) => Array.isArray(e.data.tags) && e.data.tags.includes('even') },
  { raw: { 'filter[featured]': 'true' }, matches: (e) => e.data.featured === true },
  { raw: { 'filter[status][ne]': 'draft' }, matches: (e) => e.status !== 'draft' },
];

const SORTS = ['id', 'title', '-title', 'price', '-price', 'rating', '-rating', 'featured', '-featured', 'release', '-created_at', 'code', '-code', 'launch_at'];

const VISIBILITY: Record<string, { query: QueryVisibility; isVisible: (e: StoredEntry) => boolean }> = {
  all: { query: { mode: 'all' }, isVisible: () => true },
  public: { query: { mode: 'public', now: NOW }, isVisible: (e) => isPubliclyVisible(e, NOW) },
};

describe('query paging (property)', () => {
  const entries = buildProducts();
  const index = buildIndex(PRODUCTS, entries);

  it('walking pages with any limit returns every matching entry exactly once, in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(...SORTS),
        fc.constantFrom(...FILTERS),
        fc.constantFrom('all', 'public'),
        fc.constantFrom(undefined, 'summary', 'product', 'item 1'),
        (limit, sort, filter, visibility, q) => {
          const { query, isVisible } = VISIBILITY[visibility];
          const base: QueryValues = { ...filter.raw, sort, ...(q === undefined ? {} : { q }) };
          const full = index.query(listQueryOf(base, PRODUCTS), query);
          const walked: string[] = [];
          for (let offset = 0; offset < full.total; offset += limit) {
            const page = index.query(listQueryOf({ ...base, limit: String(limit), offset: String(offset) }, PRODUCTS), query);
            expect(page.total).to.equal(full.total);
            walked.push(...page.entries.map((e) => e.id));
          }
          expect(new Set(walked).size).to.equal(walked.length);
          expect(walked).to.deep.equal(full.entries.map((e) => e.id));
          if (q === undefined) {
            const expected = entries.filter((e) => isVisible(e) && filter.matches(e)).map((e) => e.id).sort();
            expect([...walked].sort()).to.deep.equal(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an index patched by writes answers like one built from scratch', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('price' as const), at: fc.nat(60), price: fc.option(fc.integer({ min: -5, max: 60 })) }),
      fc.record({ kind: fc.constant('title' as const), at: fc.nat(60), title: fc.constantFrom('alpha', 'Alpha', 'zulu', 'Mike', '') }),
      fc.record({ kind: fc.constant('remove' as const), at: fc.nat(60) }),
      fc.record({ kind: fc.constant('add' as const), at: fc.nat(60) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const patched = buildIndex(PRODUCTS, buildProducts());
        const queries: QueryValues[] = [{ sort: 'price' }, { sort: '-price' }, { sort: 'title' }, { sort: '-title' }, { q: 'alpha' }, { 'filter[price][gte]': '10', sort: 'id' }];
        const run = (idx: typeof patched, raw: QueryValues) => idx.query(listQueryOf(raw, PRODUCTS), { mode: 'all' }).entries.map((e) => e.id);
        for (const raw of queries) run(patched, raw);
        let added = 0;
        for (const step of ops) {
          const all = patched.all();
          const target = all[step.at % Math.max(all.length, 1)];
          if (step.kind === 'add' || !target) {
            added += 1;
            patched.upsert({ ...buildProducts()[step.at % 50], id: `n${added}`, slug: `new-${added}`, title: `alpha ${added}` });
          } else if (step.kind === 'remove') {
            patched.remove(target.id);
          } else if (step.kind === 'price') {
            patched.upsert({ ...target, data: { ...target.data, price: step.price ?? undefined } });
          } else {
            patched.upsert({ ...target, title: step.title });
          }
        }
        const fresh = buildIndex(PRODUCTS, patched.all());
        for (const raw of queries) {
          // Relevance scores depend on index statistics that discarded documents skew until
          // MiniSearch vacuums, so search results are compared as sets.
          const [got, want] = raw.q === undefined ? [run(patched, raw), run(fresh, raw)] : [run(patched, raw).sort(), run(fresh, raw).sort()];
          expect(got, JSON.stringify(raw)).to.deep.equal(want);
        }
      }),
      { numRuns: 150 },
    );
  });
});
