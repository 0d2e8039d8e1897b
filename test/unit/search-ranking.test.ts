import { expect } from 'chai';
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import type { ResolvedEntry } from '../../src/domain/model/entry.ts';
import { SearchIndex, foldTerm, toPlainText } from '../../src/domain/search/search-index.ts';
import { buildType } from './query-fixtures.ts';

// SearchIndex ranks as the MiniSearch set-up the server used before it kept
// its own postings (search-index.ts); that set-up is the reference here.
type Reference = MiniSearch<Record<string, string>>;

function referenceIndex(): Reference {
  return new MiniSearch<Record<string, string>>({
    idField: 'id',
    fields: ['title', 'slug', 'f:summary', 'f:body'],
    storeFields: [],
    processTerm: (term) => foldTerm(term) || null,
    searchOptions: { combineWith: 'AND', prefix: true, boost: { title: 2 } },
  });
}

function upsertReference(mini: Reference, entry: ResolvedEntry): void {
  const doc = { id: entry.id, title: entry.title, slug: entry.slug, 'f:summary': String(entry.data.summary ?? ''), 'f:body': toPlainText(String(entry.data.body ?? '')) };
  if (mini.has(entry.id)) mini.replace(doc);
  else mini.add(doc);
}

// MiniSearch keeps the postings of replaced and removed documents until it
// vacuums (and counts them in a term's frequency until then); SearchIndex
// answers as MiniSearch does once vacuumed.
async function referenceHits(mini: Reference, q: string): Promise<Hit[]> {
  await mini.vacuum();
  return mini.search(q).map((r) => ({ id: String(r.id), score: r.score }));
}

const TYPE = buildType('notes', { summary: { type: 'text' }, body: { type: 'markdown' }, count: { type: 'number' } });
const WORDS = ['alpha', 'alps', 'al', 'beta', 'bet', 'Crème', 'creme', 'CAFÉ', 'café', 'delta', 'x', 'x1', '42', 'über', 'uber', 'post', 'post-000001'];
const SEPARATORS = [' ', ', ', '. ', '\n', ' - ', '!', '  ', '**'];

interface Hit {
  id: string;
  score: number;
}

function entryOf(id: string, parts: { title: string; summary: string; body: string }): ResolvedEntry {
  return {
    id, slug: `${id}-slug`, type: 'notes', status: 'published', title: parts.title, published_at: null,
    created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', data: { summary: parts.summary, body: parts.body, count: 3 },
  };
}

const text = (max: number) => fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: max }).map((pairs) => pairs.flat().join(''));
const parts = fc.record({ title: text(4), summary: text(6), body: text(12).map((body) => `# ${body}`) });
const query = fc.array(fc.constantFrom(...WORDS, 'a', 'c', 'cr', 'ü', 'be', 'X', 'zzz', 'p', '0000'), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));

function hitsOf(index: SearchIndex, q: string): Hit[] {
  return index.search(q);
}

// Same hits in the same order with the same scores. Scores may differ in the
// last bits only where the two dictionaries list prefix matches in another
// order (terms dropped and added back at other moments), so they are compared
// to 1e-12; on a freshly built index they must be equal.
function expectSameRanking(ours: Hit[], reference: Hit[], label: string, exact: boolean): void {
  if (exact) {
    expect(ours, label).to.deep.equal(reference);
    return;
  }
  const want = new Map(reference.map((hit) => [hit.id, hit.score]));
  expect(ours.map((hit) => hit.id).sort(), label).to.deep.equal([...want.keys()].sort());
  for (const hit of ours) expect(hit.score, `${label} ${hit.id}`).to.be.closeTo(want.get(hit.id) ?? Number.NaN, 1e-12 * Math.max(1, hit.score));
  for (let i = 1; i < ours.length; i += 1) expect(ours[i - 1].score, label).to.be.at.least(ours[i].score);
}

describe('search ranking (MiniSearch as the reference)', () => {
  it('finds the same entries in the same order with the same scores on a freshly built index', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(parts, { minLength: 1, maxLength: 15 }), fc.array(query, { minLength: 1, maxLength: 5 }), async (docs, queries) => {
        const index = new SearchIndex(TYPE);
        const mini = referenceIndex();
        docs.forEach((doc, i) => {
          const entry = entryOf(`e${i}`, doc);
          index.upsert(entry);
          upsertReference(mini, entry);
        });
        for (const q of queries) expectSameRanking(hitsOf(index, q), await referenceHits(mini, q), q, true);
      }),
      { numRuns: 300 },
    );
  });

  it('answers like MiniSearch after the same replacements and removals', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(parts, { minLength: 2, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(14), fc.option(parts)), { maxLength: 40 }),
        fc.array(query, { minLength: 1, maxLength: 4 }),
        async (docs, writes, queries) => {
          const index = new SearchIndex(TYPE);
          const mini = referenceIndex();
          const live = new Set<string>();
          const write = (id: string, doc: { title: string; summary: string; body: string } | null) => {
            if (doc === null) {
              index.remove(id);
              if (mini.has(id)) mini.discard(id);
              live.delete(id);
              return;
            }
            const entry = entryOf(id, doc);
            index.upsert(entry);
            upsertReference(mini, entry);
            live.add(id);
          };
          docs.forEach((doc, i) => write(`e${i}`, doc));
          for (const [at, doc] of writes) write(`e${at}`, doc);
          expect(index.size).to.equal(live.size);
          for (const q of queries) expectSameRanking(hitsOf(index, q), await referenceHits(mini, q), q, false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('drops the postings of removed entries once they are many, and still answers right', async () => {
    const index = new SearchIndex(TYPE);
    const mini = referenceIndex();
    for (let round = 0; round < 5; round += 1) {
      for (let i = 0; i < 60; i += 1) {
        const entry = entryOf(`e${i}`, { title: `round${round} item${i}`, summary: i % 2 === 0 ? 'even alpha' : 'odd beta', body: `body ${round}` });
        index.upsert(entry);
        upsertReference(mini, entry);
      }
      for (let i = 0; i < 60; i += 7) {
        index.remove(`e${i}`);
        mini.discard(`e${i}`);
      }
    }
    expect(index.size).to.equal(mini.documentCount);
    for (const q of ['round4', 'round0', 'alpha', 'be', 'item1', 'body 4', 'e1']) expectSameRanking(hitsOf(index, q), await referenceHits(mini, q), q, false);
    expect(hitsOf(index, 'round0')).to.deep.equal([]);
  });
});
