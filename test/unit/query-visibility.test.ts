import { expect } from 'chai';
import fc from 'fast-check';
import { isPubliclyVisible } from '../../src/domain/model/entry.ts';
import type { EntryStatus, StoredEntry } from '../../src/domain/model/entry.ts';
import type { QueryValues } from '../../src/http/query-params.ts';
import { pageWindow } from '../../src/domain/query/page-window.ts';
import { VisibilityTable } from '../../src/domain/query/visibility.ts';
import { NOW, PRODUCTS, buildIndex, buildProducts, listQueryOf } from './query-fixtures.ts';

const JAN = Date.parse('2024-01-01T00:00:00Z');
const FEB = Date.parse('2024-02-01T00:00:00Z');
const MAR = Date.parse('2024-03-01T00:00:00Z');

function seed(status: EntryStatus, published_at: string | null = null): Pick<StoredEntry, 'status' | 'published_at'> {
  return { status, published_at };
}

describe('VisibilityTable', () => {
  it('counts active entries for whole-collection readers and public ones at a time', () => {
    const table = new VisibilityTable();
    table.set(0, seed('published', '2024-01-01T00:00:00Z'));
    table.set(1, seed('draft'));
    table.set(2, seed('scheduled', '2024-02-01T00:00:00Z'));
    table.set(3, seed('archived'));
    table.set(4, seed('protected'));
    expect(table.count({ mode: 'all' })).to.equal(5);
    expect(table.count({ mode: 'public', now: JAN })).to.equal(1);
    expect(table.count({ mode: 'public', now: FEB })).to.equal(2);
    expect([0, 1, 2, 3, 4].map((slot) => table.isVisible(slot, { mode: 'public', now: FEB }))).to.deep.equal([true, false, true, false, false]);
    expect([0, 1, 2, 3, 4, 5].map((slot) => table.isVisible(slot, { mode: 'all' }))).to.deep.equal([true, true, true, true, true, false]);
  });

  it('keeps a scheduled entry without a valid publish time hidden at every time', () => {
    const table = new VisibilityTable();
    table.set(0, seed('scheduled', null));
    table.set(1, seed('scheduled', 'not a date'));
    expect(table.count({ mode: 'public', now: Number.MAX_SAFE_INTEGER })).to.equal(0);
    expect(table.isVisible(1, { mode: 'public', now: Number.MAX_SAFE_INTEGER })).to.equal(false);
    expect(table.count({ mode: 'all' })).to.equal(2);
  });

  it('answers for any time, also moving backwards past cached transitions', () => {
    const table = new VisibilityTable();
    table.set(0, seed('scheduled', '2024-02-01T00:00:00Z'));
    table.set(1, seed('scheduled', '2024-03-01T00:00:00Z'));
    const counts = [MAR, JAN, FEB - 1, FEB, MAR - 1, MAR, JAN].map((now) => table.count({ mode: 'public', now }));
    expect(counts).to.deep.equal([2, 0, 0, 1, 1, 2, 0]);
  });

  it('drops the cached count when a write changes a scheduled entry', () => {
    const table = new VisibilityTable();
    table.set(0, seed('scheduled', '2024-02-01T00:00:00Z'));
    expect(table.count({ mode: 'public', now: FEB })).to.equal(1);
    table.set(1, seed('scheduled', '2024-01-15T00:00:00Z'));
    expect(table.count({ mode: 'public', now: FEB })).to.equal(2);
    table.set(0, seed('scheduled', '2024-03-01T00:00:00Z'));
    expect(table.count({ mode: 'public', now: FEB })).to.equal(1);
    table.clear(1);
    expect(table.count({ mode: 'public', now: FEB })).to.equal(0);
    table.set(0, seed('published', '2024-03-01T00:00:00Z'));
    expect(table.count({ mode: 'public', now: FEB })).to.equal(1);
    expect(table.count({ mode: 'all' })).to.equal(1);
  });

  it('grows past its first capacity and ignores clearing unknown slots', () => {
    const table = new VisibilityTable();
    table.clear(5_000);
    table.set(5_000, seed('published'));
    table.set(70, seed('draft'));
    expect(table.count({ mode: 'public', now: JAN })).to.equal(1);
    expect(table.isVisible(5_000, { mode: 'public', now: JAN })).to.equal(true);
    expect(table.isVisible(9_999, { mode: 'all' })).to.equal(false);
  });
});

describe('pageWindow', () => {
  it('cuts the same page walking from either end', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 60 }), fc.nat(70), fc.integer({ min: 1, max: 70 }), (flags, offset, limit) => {
        const ordered = flags.map((_, i) => (i * 7) % flags.length);
        const isIn = (slot: number) => flags[slot];
        const matching = ordered.filter(isIn);
        expect(pageWindow(ordered, isIn, matching.length, offset, offset + limit)).to.deep.equal(matching.slice(offset, offset + limit));
      }),
      { numRuns: 300 },
    );
  });
});

describe('TypeIndex.query with a visibility mode', () => {
  const times = ['2023-01-01T00:00:00Z', '2024-06-01T00:00:00Z', '2025-01-01T00:00:00Z', '2999-01-01T00:00:00Z'].map(Date.parse);

  it('totals and pages unfiltered lists like a per-entry check, at every time', () => {
    const entries = buildProducts();
    const index = buildIndex(PRODUCTS, entries);
    for (const now of [...times, NOW]) {
      const visible = entries.filter((e) => isPubliclyVisible(e, now)).sort((a, b) => (a.id < b.id ? -1 : 1)).map((e) => e.id);
      const result = index.query(listQueryOf({ sort: 'id', limit: '10', offset: '30' }, PRODUCTS), { mode: 'public', now });
      expect(result.total, new Date(now).toISOString()).to.equal(visible.length);
      expect(result.entries.map((e) => e.id)).to.deep.equal(visible.slice(30, 40));
    }
  });

  it('follows writes that change status, publish time or remove entries', () => {
    const statuses: EntryStatus[] = ['draft', 'published', 'scheduled', 'protected', 'archived'];
    const step = fc.record({
      at: fc.nat(59),
      kind: fc.constantFrom('status' as const, 'remove' as const, 'add' as const),
      status: fc.constantFrom(...statuses),
      time: fc.option(fc.constantFrom(...times.map((t) => new Date(t).toISOString()), 'garbage')),
    });
    const queries: QueryValues[] = [{ limit: '7' }, { sort: 'id', limit: '5', offset: '20' }, { sort: '-price', limit: '9', offset: '35' }];
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.constantFrom(...times), (steps, now) => {
        const index = buildIndex(PRODUCTS, buildProducts());
        for (const raw of queries) index.query(listQueryOf(raw, PRODUCTS), { mode: 'public', now });
        let added = 0;
        for (const { at, kind, status, time } of steps) {
          const all = index.all();
          const target = all[at % all.length];
          if (kind === 'remove' && all.length > 1) index.remove(target.id);
          else if (kind === 'add') index.upsert({ ...target, id: `n${(added += 1)}`, slug: `n-${added}`, status, published_at: time });
          else index.upsert({ ...target, status, published_at: time });
        }
        const fresh = buildIndex(PRODUCTS, index.all());
        for (const raw of queries) {
          const got = index.query(listQueryOf(raw, PRODUCTS), { mode: 'public', now });
          const want = fresh.query(listQueryOf(raw, PRODUCTS), { mode: 'public', now });
          expect(got.total).to.equal(index.all().filter((e) => isPubliclyVisible(e, now)).length);
          expect(got.entries.map((e) => e.id)).to.deep.equal(want.entries.map((e) => e.id));
        }
        const byId = index.all().filter((e) => isPubliclyVisible(e, now)).map((e) => e.id).sort();
        const page = index.query(listQueryOf({ sort: 'id', limit: '5', offset: '20' }, PRODUCTS), { mode: 'public', now });
        expect(page.entries.map((e) => e.id)).to.deep.equal(byId.slice(20, 25));
      }),
      { numRuns: 150 },
    );
  });
});
