import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ContentIndex } from '../../src/domain/content/content-index.ts';
import type { TypeIndex } from '../../src/domain/query/type-index.ts';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import { PAGES, PRODUCTS, buildIndex, buildPages, buildProducts, listQueryOf } from './query-fixtures.ts';

function search(index: TypeIndex, q: string, locale?: string): string[] {
  const raw = locale === undefined ? { q } : { q, locale };
  return index.query(listQueryOf(raw, index.type), { mode: 'all' }).entries.map((e) => e.id).sort();
}

const WORDS = ['zebra', 'summary', 'product', 'torch', 'giraffe', 'slicer'];

describe('search warm-up in slices', () => {
  it('builds one entry per slice when asked to pause after each, then reports done', () => {
    const index = buildIndex(PRODUCTS, buildProducts());
    let steps = 0;
    while (!index.warmSearchStep(() => true)) steps += 1;
    expect(steps).to.equal(49);
    expect(index.warmSearchStep(() => true)).to.equal(true);
    expect(search(index, 'zebra')).to.deep.equal(['p05']);
  });

  it('answers like an index built at once when writes and searches come between slices', () => {
    const index = buildIndex(PRODUCTS, buildProducts());
    for (let i = 0; i < 10; i += 1) index.warmSearchStep(() => true);
    const p03 = index.get('p03');
    const p40 = index.get('p40');
    if (!p03 || !p40) throw new Error('fixture changed');
    index.upsert({ ...p03, title: 'Giraffe slicer' });
    index.upsert({ ...p40, title: 'Zebra torch' });
    index.remove('p04');
    index.upsert({ ...p03, id: 'p99', slug: 'new-99', title: 'Giraffe lamp' });
    for (let i = 0; i < 10; i += 1) index.warmSearchStep(() => true);
    index.remove('p01');
    const fresh = buildIndex(PRODUCTS, index.all());
    for (const word of WORDS) expect(search(index, word), word).to.deep.equal(search(fresh, word));
    expect(search(index, 'giraffe')).to.deep.equal(['p03', 'p99']);
    expect(index.warmSearchStep(() => true)).to.equal(true);
  });

  it('warms the default locale of a localized type', () => {
    const index = buildIndex(PAGES, buildPages());
    while (!index.warmSearchStep(() => false));
    expect(search(index, 'welcome')).to.deep.equal(['g3']);
    expect(search(index, 'willkommen', 'de')).to.deep.equal(['g3']);
  });
});

describe('ContentIndex.warmSearch', () => {
  let dir: string;
  let repo: ContentRepo;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cms-warm-'));
    repo = await ContentRepo.open(dir);
  });

  afterEach(async () => {
    await repo.close();
    await rm(dir, { recursive: true, force: true });
  });

  function contentWithProducts(): { content: ContentIndex; index: TypeIndex } {
    const content = new ContentIndex(repo, () => undefined);
    const { index } = content.putType('default', PRODUCTS);
    for (const entry of buildProducts()) index.upsert(entry);
    return { content, index };
  }

  it('builds every type between turns of the event loop', async () => {
    const { content, index } = contentWithProducts();
    let isFinished = false;
    const warming = content.warmSearch({ signal: new AbortController().signal, sliceMs: 0 }).then(() => (isFinished = true));
    for (let turn = 0; turn < 3; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(isFinished).to.equal(false);
    await warming;
    expect(index.warmSearchStep(() => true)).to.equal(true);
  });

  it('runs once more when asked again while it runs, for a type added meanwhile', async () => {
    const { content, index } = contentWithProducts();
    const signal = new AbortController().signal;
    const first = content.warmSearchSoon({ signal, sliceMs: 0 });
    const { index: pages } = content.putType('default', PAGES);
    for (const entry of buildPages()) pages.upsert(entry);
    const second = content.warmSearchSoon({ signal, sliceMs: 0 });
    await Promise.all([first, second]);
    expect(index.warmSearchStep(() => true)).to.equal(true);
    expect(pages.warmSearchStep(() => true)).to.equal(true);
  });

  it('passes built types without a turn of the event loop', async () => {
    const { content, index } = contentWithProducts();
    while (!index.warmSearchStep(() => false));
    let turned = false;
    setImmediate(() => (turned = true));
    await content.warmSearch({ signal: new AbortController().signal });
    expect(turned).to.equal(false);
  });

  it('stops when its signal aborts', async () => {
    const { content, index } = contentWithProducts();
    const controller = new AbortController();
    controller.abort();
    await content.warmSearch({ signal: controller.signal });
    expect(index.warmSearchStep(() => true)).to.equal(false);
  });
});
