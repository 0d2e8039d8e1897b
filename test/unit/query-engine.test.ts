import { expect } from 'chai';
import type { QueryValues } from '../../src/http/query-params.ts';
import type { QueryVisibility, TypeIndex } from '../../src/domain/query/type-index.ts';
import { NOW, PAGES, PRODUCTS, buildIndex, buildPages, buildProducts, listQueryOf } from './query-fixtures.ts';
import type { ContentType } from '../../src/domain/model/content-type.ts';

const ALL: QueryVisibility = { mode: 'all' };
const PUBLIC_AT_NOW: QueryVisibility = { mode: 'public', now: NOW };

function pid(i: number): string {
  return `p${String(i).padStart(2, '0')}`;
}

/** Product ids for the numbers from..to (inclusive) that pass `keep`. */
function pids(from: number, to: number, keep: (i: number) => boolean = () => true): string[] {
  const out: string[] = [];
  const step = from <= to ? 1 : -1;
  for (let i = from; step > 0 ? i <= to : i >= to; i += step) if (keep(i)) out.push(pid(i));
  return out;
}

describe('TypeIndex.query on the products fixture', () => {
  let index: TypeIndex;

  beforeEach(() => {
    index = buildIndex(PRODUCTS, buildProducts());
  });

  function run(raw: QueryValues, visibility: QueryVisibility = ALL) {
    return index.query(listQueryOf(raw, PRODUCTS), visibility);
  }

  function ids(raw: QueryValues, visibility?: QueryVisibility): string[] {
    return run(raw, visibility).entries.map((e) => e.id);
  }

  describe('sorting', () => {
    it('defaults to -created_at with ties broken by id ascending', () => {
      const result = run({});
      expect(result).to.include({ total: 50, sort: 'created_at', order: 'desc', relevance: false });
      expect(result.entries.map((e) => e.id)).to.deep.equal([...pids(50, 14), 'p11', 'p12', 'p13', ...pids(10, 1)]);
    });

    it('honours order without sort', () => {
      expect(ids({ order: 'asc' }).slice(0, 4)).to.deep.equal(['p01', 'p02', 'p03', 'p04']);
    });

    it('sorts numbers numerically with missing values last in both directions', () => {
      expect(ids({ sort: 'price' })).to.deep.equal([...pids(1, 44), ...pids(45, 50)]);
      expect(ids({ sort: '-price' })).to.deep.equal([...pids(44, 1), ...pids(45, 50)]);
      expect(ids({ sort: 'price', order: 'desc' })).to.deep.equal([...pids(44, 1), ...pids(45, 50)]);
    });

    it('sorts strings case-insensitively', () => {
      const asc = ids({ sort: 'title' });
      expect(asc.slice(0, 5)).to.deep.equal(['p02', 'p03', 'p04', 'p01', 'p10']);
      expect(asc.at(-1)).to.equal('p05');
      expect(ids({ sort: 'code' })).to.deep.equal(['p01', 'p02', 'p04', 'p03', ...pids(5, 50)]);
      expect(ids({ sort: '-code' })).to.deep.equal(['p03', 'p04', 'p02', 'p01', ...pids(5, 50)]);
    });

    it('sorts datetimes as instants, not as strings', () => {
      expect(ids({ sort: 'launch_at' }).slice(0, 4)).to.deep.equal(['p01', 'p02', 'p03', 'p04']);
    });

    it('sorts dates with the missing one last', () => {
      expect(ids({ sort: '-release' })).to.deep.equal([...pids(50, 1, (i) => i !== 49), 'p49']);
    });

    it('sorts booleans false before true, missing last', () => {
      expect(ids({ sort: 'featured' })).to.deep.equal([
        ...pids(1, 50, (i) => i % 3 === 1), ...pids(1, 50, (i) => i % 3 === 0), ...pids(1, 50, (i) => i % 3 === 2),
      ]);
    });

    it('breaks ties by id ascending in both directions', () => {
      const byRating = (i: number) => pids(1, 50, (n) => n % 5 === i);
      expect(ids({ sort: 'rating' })).to.deep.equal([0, 1, 2, 3, 4].flatMap(byRating));
      expect(ids({ sort: '-rating' })).to.deep.equal([4, 3, 2, 1, 0].flatMap(byRating));
    });
  });

  describe('paging', () => {
    it('returns the requested window and the total of all matches', () => {
      const result = run({ sort: 'id', limit: '5', offset: '10' });
      expect(result.total).to.equal(50);
      expect(result.entries.map((e) => e.id)).to.deep.equal(pids(11, 15));
    });

    it('returns a short last page and an empty page past the end', () => {
      expect(ids({ sort: 'id', limit: '5', offset: '48' })).to.deep.equal(['p49', 'p50']);
      const past = run({ sort: 'id', limit: '5', offset: '100' });
      expect(past.entries).to.deep.equal([]);
      expect(past.total).to.equal(50);
    });
  });

  describe('filters', () => {
    it('matches exact values of select, number and system fields', () => {
      expect(ids({ sort: 'id', 'filter[category]': 'tools' })).to.deep.equal(pids(1, 50, (i) => i % 3 === 0));
      expect(ids({ 'filter[price]': '10' })).to.deep.equal(['p10']);
      expect(ids({ 'filter[id]': 'p05' })).to.deep.equal(['p05']);
      expect(ids({ 'filter[slug]': 'product-5' })).to.deep.equal(['p05']);
      expect(ids({ sort: 'id', 'filter[status]': 'scheduled' })).to.deep.equal(['p07', 'p08']);
      expect(ids({ 'filter[title]': 'Zebra mug' })).to.deep.equal(['p05']);
      expect(ids({ 'filter[title]': 'zebra mug' })).to.deep.equal([]);
    });

    it('matches booleans given as true/false/1/0', () => {
      expect(ids({ sort: 'id', 'filter[featured]': 'true' })).to.deep.equal(pids(1, 50, (i) => i % 3 === 0));
      expect(ids({ sort: 'id', 'filter[featured]': '0' })).to.deep.equal(pids(1, 50, (i) => i % 3 === 1));
    });

    it('matches any of several values with [in], from a list or repeated keys', () => {
      expect(ids({ sort: 'id', 'filter[price][in]': '2,10,99' })).to.deep.equal(['p02', 'p10']);
      expect(ids({ sort: 'id', 'filter[category][in]': ['toys', 'food'] })).to.have.length(34);
    });

    it('excludes equal values with [ne], keeping entries without the value', () => {
      expect(run({ 'filter[status][ne]': 'draft' }).total).to.equal(45);
      expect(ids({ sort: 'id', 'filter[price][ne]': '1' })).to.deep.equal(pids(2, 50));
    });

    it('compares numbers as numbers with gt, gte, lt, lte', () => {
      expect(ids({ sort: 'id', 'filter[price][gt]': '42' })).to.deep.equal(['p43', 'p44']);
      expect(ids({ sort: 'id', 'filter[price][gte]': '43' })).to.deep.equal(['p43', 'p44']);
      expect(ids({ sort: 'id', 'filter[price][lt]': '10' })).to.deep.equal(pids(1, 9));
      expect(ids({ sort: 'id', 'filter[price][lte]': '2' })).to.deep.equal(['p01', 'p02']);
    });

    it('compares dates and datetimes as instants', () => {
      expect(ids({ sort: 'id', 'filter[release][gte]': '2023-02-15' })).to.deep.equal(['p46', 'p47', 'p48', 'p50']);
      expect(ids({ 'filter[launch_at][lt]': '2024-03-01T08:30:00Z' })).to.deep.equal(['p01']);
      expect(ids({ sort: 'id', 'filter[created_at][lte]': '2024-01-01T02:00:00Z' })).to.deep.equal(['p01', 'p02']);
      expect(ids({ 'filter[launch_at]': '2024-03-01T08:00:00.000Z' })).to.deep.equal(['p01']);
    });

    it('matches case-insensitive substrings with [contains]', () => {
      expect(ids({ 'filter[title][contains]': 'PEEL' })).to.deep.equal(['p02']);
      expect(ids({ 'filter[summary][contains]': 'CAFÉ' })).to.deep.equal(['p04']);
      expect(ids({ 'filter[body][contains]': 'bold' })).to.deep.equal(['p06']);
    });

    it('matches an array value when any item matches', () => {
      expect(ids({ sort: 'id', 'filter[tags]': 'five' })).to.deep.equal(pids(1, 50, (i) => i % 5 === 0 && i % 7 !== 0));
      expect(ids({ 'filter[related]': 'p02' })).to.deep.equal(['p01']);
      expect(ids({ 'filter[gallery]': 'b.jpg' })).to.deep.equal(['p01']);
      expect(ids({ sort: 'id', 'filter[tags][ne]': 'even' })).to.deep.equal(pids(1, 50, (i) => i % 2 === 1 || i % 7 === 0));
    });

    it('combines filters with AND, also repeated keys', () => {
      expect(ids({ sort: 'id', 'filter[category]': 'tools', 'filter[price][lt]': '10' })).to.deep.equal(['p03', 'p06', 'p09']);
      expect(ids({ sort: 'id', 'filter[tags]': ['even', 'five'] })).to.deep.equal(['p10', 'p20', 'p30', 'p40', 'p50']);
      expect(ids({ sort: 'id', 'filter[price][gt]': ['5', '1'], 'filter[price][lt]': '8' })).to.deep.equal(['p06', 'p07']);
    });

    it('applies the caller visibility before counting', () => {
      const result = run({ sort: 'id', limit: '3' }, PUBLIC_AT_NOW);
      expect(result.total).to.equal(44);
      expect(ids({ sort: 'id', 'filter[status]': 'scheduled' }, PUBLIC_AT_NOW)).to.deep.equal(['p08']);
    });
  });

  describe('search', () => {
    it('orders by relevance when q is given without sort', () => {
      const result = run({ q: 'torch' });
      expect(result).to.include({ total: 1, sort: 'relevance', order: 'desc', relevance: true });
      expect(result.entries.map((e) => e.id)).to.deep.equal(['p01']);
    });

    it('combines q with filters, sort and paging', () => {
      expect(ids({ q: 'summary item', 'filter[price][lt]': '6', sort: '-price' })).to.deep.equal(['p05', 'p03', 'p02', 'p01']);
      const page = run({ q: 'summary', sort: 'id', limit: '2', offset: '2' });
      expect(page.total).to.equal(49);
      expect(page.entries.map((e) => e.id)).to.deep.equal(['p03', 'p05']);
    });
  });

  describe('writes', () => {
    it('moves an updated entry within a built order', () => {
      expect(ids({ sort: 'price' })[0]).to.equal('p01');
      const p01 = index.get('p01');
      if (!p01) throw new Error('no p01');
      index.upsert({ ...p01, data: { ...p01.data, price: 100 } });
      expect(ids({ sort: 'price' })).to.deep.equal([...pids(2, 44), 'p01', ...pids(45, 50)]);
      expect(ids({ sort: '-price' })).to.deep.equal(['p01', ...pids(44, 2), ...pids(45, 50)]);
      expect(ids({ 'filter[price]': '100' })).to.deep.equal(['p01']);
    });

    it('inserts new and drops removed entries from built orders, filters and search', () => {
      ids({ sort: 'title' });
      ids({ q: 'slicer' });
      index.remove('p03');
      const p05 = index.get('p05');
      if (!p05) throw new Error('no p05');
      index.upsert({ ...p05, id: 'p99', slug: 'new-one', title: 'Aardvark slicer' });
      expect(ids({ sort: 'title' }).slice(0, 3)).to.deep.equal(['p99', 'p02', 'p04']);
      expect(ids({ q: 'slicer' })).to.deep.equal(['p99']);
      expect(index.size).to.equal(50);
      expect(index.get('p03')).to.equal(undefined);
    });

    it('follows slug changes', () => {
      const p05 = index.get('p05');
      if (!p05) throw new Error('no p05');
      index.upsert({ ...p05, slug: 'renamed' });
      expect(index.getBySlug('product-5')).to.equal(undefined);
      expect(index.getBySlug('renamed')?.id).to.equal('p05');
      expect(ids({ 'filter[slug]': 'renamed' })).to.deep.equal(['p05']);
    });

    it('hands out copies, so a caller changing data does not change the index', () => {
      const first = run({ 'filter[id]': 'p01' }).entries[0];
      first.data.cover = ['https://cdn/torch.jpg'];
      first.title = 'changed';
      const again = run({ 'filter[id]': 'p01' }).entries[0];
      expect(again.data.cover).to.deep.equal(['torch.jpg']);
      expect(again.title).to.equal('Crème brûlée torch');
    });

    it('rebuilds its caches after a schema change', () => {
      expect(ids({ sort: 'code' })[0]).to.equal('p01');
      const { code: _removed, ...fields } = PRODUCTS.fields;
      index.setType({ ...PRODUCTS, fields });
      const result = index.query({ offset: 0, include: [], filters: [], sort: 'code', order: 'asc' }, ALL);
      expect(result.entries.map((e) => e.id)).to.deep.equal(pids(1, 50));
      expect(index.resolve('p01')?.data).to.not.have.property('code');
      expect(index.get('p01')?.data.code).to.equal('alpha');
    });
  });
});

describe('TypeIndex.query with locales', () => {
  function ids(raw: QueryValues, type: ContentType = PAGES): string[] {
    const index = buildIndex(type, buildPages());
    return index.query(listQueryOf(raw, type), ALL).entries.map((e) => e.id);
  }

  it('sorts by the resolved title of the requested locale', () => {
    expect(ids({ sort: 'title', locale: 'de' })).to.deep.equal(['g1', 'g2', 'g3']);
    expect(ids({ sort: '-title', locale: 'en' })).to.deep.equal(['g3', 'g2', 'g1']);
    expect(ids({ sort: 'title' }, { ...PAGES, locales: [] })).to.deep.equal(['g2', 'g1', 'g3']);
  });

  it('filters on resolved values, with fallbacks', () => {
    expect(ids({ 'filter[body]': 'de body', locale: 'de' })).to.deep.equal(['g1']);
    expect(ids({ 'filter[body]': 'de body' })).to.deep.equal([]);
    expect(ids({ sort: 'id', 'filter[weight][gte]': '5', locale: 'de' })).to.deep.equal(['g1', 'g3']);
    expect(ids({ sort: 'id', 'filter[weight][gte]': '5' }, { ...PAGES, locales: [] })).to.deep.equal([]);
    expect(ids({ 'filter[title]': 'Bonjour', locale: 'fr' })).to.deep.equal(['g1']);
  });

  it('refuses a locale the type does not have, naming those it has', () => {
    expect(() => ids({ 'filter[title]': 'Hello', locale: 'it' })).to.throw(/"it" is not one of collection "pages": en, de, fr/);
    expect(() => ids({ locale: 'xx' })).to.throw(/not one of/);
  });

  it('uses a changed default locale for fallbacks', () => {
    const germanDefault = { ...PAGES, default_locale: 'de' };
    expect(ids({ 'filter[title]': 'Willkommen' }, germanDefault)).to.deep.equal(['g3']);
    expect(ids({ 'filter[body]': 'de body', locale: 'fr' }, germanDefault)).to.deep.equal(['g1']);
  });

  it('resolves the page entries for the locale', () => {
    const index = buildIndex(PAGES, buildPages());
    const result = index.query(listQueryOf({ sort: 'id', locale: 'de' }, PAGES), ALL);
    expect(result.entries.map((e) => e.title)).to.deep.equal(['Hallo', 'Only root', 'Willkommen']);
    expect(result.entries[2].data).to.deep.equal({ body: 'welcome body', teaser: 'Über uns', weight: 30 });
  });
});
