import { expect } from 'chai';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import type { ResolvedEntry } from '../../src/domain/entries/entry.ts';
import { SearchIndex, foldTerm, toPlainText } from '../../src/domain/search/search-index.ts';
import { buildType } from './query-fixtures.ts';

// The MiniSearch set-up the server used before its own index; the reference for hits and scores.
function miniSearchOf(entries: ResolvedEntry[]): MiniSearch<Record<string, string>> {
  const mini = new MiniSearch<Record<string, string>>({
    idField: 'id',
    fields: ['title', 'slug', 'f:summary', 'f:body'],
    storeFields: [],
    processTerm: (term) => foldTerm(term) || null,
    searchOptions: { combineWith: 'AND', prefix: true, boost: { title: 2 } },
  });
  for (const entry of entries) {
    mini.add({ id: entry.id, title: entry.title, slug: entry.slug, 'f:summary': String(entry.data.summary ?? ''), 'f:body': toPlainText(String(entry.data.body ?? '')) });
  }
  return mini;
}

const TYPE = buildType('notes', { summary: { type: 'text' }, body: { type: 'markdown' }, count: { type: 'number' } });
const WORDS = ['alpha', 'alps', 'al', 'beta', 'bet', 'Crème', 'creme', 'CAFÉ', 'café', 'delta', 'x', 'x1', '42', 'über', 'uber'];
const SEPARATORS = [' ', ', ', '. ', '\n', ' - ', '!', '  '];

function entryOf(id: string, parts: { title: string; summary: string; body: string }): ResolvedEntry {
  return {
    id, slug: `${id}-slug`, type: 'notes', status: 'published', title: parts.title, published_at: null,
    created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', data: { summary: parts.summary, body: parts.body, count: 3 },
  };
}

const text = (max: number) => fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: max }).map((pairs) => pairs.flat().join(''));
const parts = fc.record({ title: text(4), summary: text(6), body: text(10).map((body) => `# ${body}`) });
const query = fc.array(fc.constantFrom(...WORDS, 'a', 'c', 'cr', 'ü', 'be', 'X', 'zzz'), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));

/** Entries e0, e1, … are documents 0, 1, …; hits come back as ids. */
function hitsOf(index: SearchIndex, q: string): { id: string; score: number }[] {
  const { docs, scores } = index.search(q);
  return docs.map((doc, i) => ({ id: `e${doc}`, score: scores[i] }));
}

function ranked(hits: { id: string; score: number }[]): { id: string; score: number }[] {
  return [...hits].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

function expectSameRanking(ours: { id: string; score: number }[], reference: { id: string; score: number }[], label: string): void {
  const want = new Map(reference.map((hit) => [hit.id, hit.score]));
  expect(ours.map((hit) => hit.id).sort(), label).to.deep.equal([...want.keys()].sort());
  for (const hit of ours) expect(hit.score, `${label} ${hit.id}`).to.be.closeTo(want.get(hit.id) ?? Number.NaN, 1e-9 * Math.max(1, hit.score));
  // Same order wherever the reference scores are not (nearly) tied.
  const order = ranked(ours);
  for (let i = 1; i < order.length; i += 1) {
    const before = want.get(order[i - 1].id) ?? 0;
    const after = want.get(order[i].id) ?? 0;
    expect(before, label).to.be.at.least(after - 1e-9 * Math.max(1, before));
  }
}

describe('search ranking (MiniSearch as the reference)', () => {
  it('finds the same entries with the same scores on a freshly built index', () => {
    fc.assert(
      fc.property(fc.array(parts, { minLength: 1, maxLength: 15 }), fc.array(query, { minLength: 1, maxLength: 5 }), (docs, queries) => {
        const entries = docs.map((doc, i) => entryOf(`e${i}`, doc));
        const index = new SearchIndex(TYPE);
        entries.forEach((entry, doc) => index.upsert(doc, entry));
        const mini = miniSearchOf(entries);
        for (const q of queries) expectSameRanking(hitsOf(index, q), mini.search(q).map((r) => ({ id: String(r.id), score: r.score })), q);
      }),
      { numRuns: 300 },
    );
  });

  it('after replacing and removing entries, answers like MiniSearch built from the remaining ones', () => {
    fc.assert(
      fc.property(
        fc.array(parts, { minLength: 2, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(20), fc.option(parts)), { maxLength: 12 }),
        fc.array(query, { minLength: 1, maxLength: 4 }),
        (docs, writes, queries) => {
          const current = new Map(docs.map((doc, i) => [`e${i}`, entryOf(`e${i}`, doc)]));
          const index = new SearchIndex(TYPE);
          for (const [id, entry] of current) index.upsert(Number(id.slice(1)), entry);
          for (const [at, parts] of writes) {
            const id = `e${at}`;
            if (parts === null) {
              index.remove(at);
              current.delete(id);
            } else {
              const entry = entryOf(id, parts);
              index.upsert(at, entry);
              current.set(id, entry);
            }
          }
          expect(index.size).to.equal(current.size);
          const mini = miniSearchOf([...current.values()]);
          for (const q of queries) expectSameRanking(hitsOf(index, q), mini.search(q).map((r) => ({ id: String(r.id), score: r.score })), q);
        },
      ),
      { numRuns: 300 },
    );
  });
});
