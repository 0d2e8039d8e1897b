import { expect } from 'chai';
import type { QueryValues } from '../../src/http/query-params.ts';
import { SearchIndex, foldTerm, toPlainText } from '../../src/domain/search/search-index.ts';
import { resolveEntry } from '../../src/domain/locales/resolve.ts';
import { PAGES, PRODUCTS, buildIndex, buildPages, buildProducts, listQueryOf } from './query-fixtures.ts';

function searchProducts(q: string): string[] {
  const index = new SearchIndex(PRODUCTS);
  for (const entry of buildProducts()) index.upsert(resolveEntry(entry, PRODUCTS));
  return index.search(q).map((hit) => hit.id).sort();
}

describe('search: helpers', () => {
  it('folds case and accents', () => {
    expect(foldTerm('Crème')).to.equal('creme');
    expect(foldTerm('BRÛLÉE')).to.equal('brulee');
    expect(foldTerm('Naïve')).to.equal('naive');
    expect(foldTerm('Cafe\u0301')).to.equal('cafe');
    expect(foldTerm('MiXeD-42')).to.equal('mixed-42');
  });

  it('strips HTML tags, entities and markdown link targets', () => {
    expect(toPlainText('<p>Hi <strong>there</strong>&amp;</p>').split(/\s+/).filter(Boolean)).to.deep.equal(['Hi', 'there']);
    expect(toPlainText('# Title\n\nSee [the docs](https://x.test/secret) **now**')).to.not.contain('secret');
    expect(toPlainText('<script>var hidden = 1;</script>shown')).to.equal(' shown');
  });
});

describe('search: SearchIndex', () => {
  it('matches title words by prefix, case-insensitively', () => {
    expect(searchProducts('TOR')).to.deep.equal(['p01']);
    expect(searchProducts('slic')).to.deep.equal(['p03']);
  });

  it('is accent-insensitive in both directions', () => {
    expect(searchProducts('creme')).to.deep.equal(['p01']);
    expect(searchProducts('brûlée')).to.deep.equal(['p01']);
    expect(searchProducts('naive cafe')).to.deep.equal(['p04']);
  });

  it('requires every term (AND)', () => {
    expect(searchProducts('creme torch')).to.deep.equal(['p01']);
    expect(searchProducts('creme slicer')).to.deep.equal([]);
  });

  it('searches slug, text, markdown and html fields but not markup or link targets', () => {
    expect(searchProducts('product-17')).to.deep.equal(['p17']);
    expect(searchProducts('heading bold')).to.deep.equal(['p06']);
    expect(searchProducts('link text')).to.deep.equal(['p06']);
    expect(searchProducts('hiddenurl')).to.deep.equal([]);
    expect(searchProducts('steel glass')).to.deep.equal(['p09']);
    expect(searchProducts('strong')).to.deep.equal([]);
  });

  it('does not search non-text fields', () => {
    expect(searchProducts('tools')).to.deep.equal([]);
    expect(searchProducts('torch.jpg')).to.deep.equal([]);
  });

  it('replaces and removes documents', () => {
    const index = new SearchIndex(PRODUCTS);
    const [p01, p02] = buildProducts().map((e) => resolveEntry(e, PRODUCTS));
    index.upsert(p01);
    index.upsert(p02);
    index.upsert({ ...p01, title: 'Blowtorch deluxe' });
    expect(index.search('creme')).to.deep.equal([]);
    expect(index.search('blowtorch').map((h) => h.id)).to.deep.equal(['p01']);
    index.remove('p02');
    index.remove('unknown');
    expect(index.search('apple')).to.deep.equal([]);
    expect(index.size).to.equal(1);
  });

  it('returns nothing for punctuation-only queries', () => {
    expect(searchProducts('!!! ...')).to.deep.equal([]);
  });
});

describe('search: through TypeIndex', () => {
  function ids(raw: QueryValues): string[] {
    const index = buildIndex(PAGES, buildPages());
    return index.query(listQueryOf(raw, PAGES), { mode: 'all' }).entries.map((e) => e.id);
  }

  it('searches the resolved values of the requested locale', () => {
    expect(ids({ q: 'hallo', locale: 'de' })).to.deep.equal(['g1']);
    expect(ids({ q: 'hallo' })).to.deep.equal([]);
    expect(ids({ q: 'uber', locale: 'de' })).to.deep.equal(['g3']);
  });

  it('keeps the index current after writes', () => {
    const index = buildIndex(PRODUCTS, buildProducts());
    const query = (q: string) => index.query(listQueryOf({ q }, PRODUCTS), { mode: 'all' }).entries.map((e) => e.id);
    expect(query('zebra')).to.deep.equal(['p05']);
    const p05 = index.get('p05');
    if (!p05) throw new Error('no p05');
    index.upsert({ ...p05, title: 'Giraffe cup' });
    expect(query('zebra')).to.deep.equal([]);
    expect(query('giraffe')).to.deep.equal(['p05']);
    index.remove('p05');
    expect(query('giraffe')).to.deep.equal([]);
  });

  it('answers from writes not yet indexed in the background, and forgets removed ones', async () => {
    const index = buildIndex(PRODUCTS, buildProducts());
    const query = (q: string) => index.query(listQueryOf({ q }, PRODUCTS), { mode: 'all' }).entries.map((e) => e.id);
    expect(query('zebra')).to.deep.equal(['p05']);
    const p05 = index.get('p05');
    const p02 = index.get('p02');
    if (!p05 || !p02) throw new Error('no p05 or p02');
    index.upsert({ ...p05, title: 'Giraffe cup' });
    index.remove('p05');
    index.upsert({ ...p02, title: 'Okapi peeler' });
    expect(query('giraffe')).to.deep.equal([]);
    expect(query('zebra')).to.deep.equal([]);
    index.upsert({ ...p02, title: 'Zebra peeler' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(query('okapi')).to.deep.equal([]);
    expect(query('zebra')).to.deep.equal(['p02']);
    // More than one slice of catching up: a search in between still sees every write.
    for (let i = 0; i < 3000; i += 1) index.upsert({ ...p02, id: `bulk-${i}`, slug: `bulk-${i}`, title: `Quagga ${i}` });
    await new Promise((resolve) => setImmediate(resolve));
    expect(query('quagga')).to.have.length(3000);
  });

  it('answers the same after warm() as when built on demand', () => {
    const warmed = buildIndex(PRODUCTS, buildProducts());
    warmed.warm();
    const p02 = warmed.get('p02');
    if (!p02) throw new Error('no p02');
    warmed.upsert({ ...p02, title: 'Zebra peeler' });
    const result = warmed.query(listQueryOf({ q: 'zebra', sort: 'id' }, PRODUCTS), { mode: 'all' });
    expect(result.entries.map((e) => e.id)).to.deep.equal(['p02', 'p05']);
  });

  it('answers a 500-character q without throwing', () => {
    const index = buildIndex(PRODUCTS, buildProducts());
    const q = 'a'.repeat(250) + ' ' + 'b'.repeat(249);
    const result = index.query(listQueryOf({ q }, PRODUCTS), { mode: 'all' });
    expect(result.total).to.equal(0);
  });
});
