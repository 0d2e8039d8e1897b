import { expect } from 'chai';
import { AppError } from '../../src/errors/app-error.ts';
import type { QueryValues } from '../../src/http/query-params.ts';
import { PRODUCTS, listQueryOf } from './query-fixtures.ts';

function parse(raw: QueryValues) {
  return listQueryOf(raw, PRODUCTS);
}

function rejection(raw: QueryValues): AppError {
  try {
    parse(raw);
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be rejected`);
}

describe('list query: parseListParams, then resolveListQuery', () => {
  it('returns defaults for an empty query', () => {
    expect(parse({})).to.deep.equal({ offset: 0, include: [], filters: [] });
  });

  it('parses limit and offset', () => {
    expect(parse({ limit: '20', offset: '40' })).to.include({ limit: 20, offset: 40 });
  });

  for (const [key, value] of [['limit', '0'], ['limit', 'abc'], ['limit', '1.5'], ['limit', '-1'], ['limit', '99999999999999999999'], ['offset', '-1'], ['offset', ' 1']]) {
    it(`rejects ${key}=${value}`, () => {
      const error = rejection({ [key]: value });
      expect(error.code).to.equal('invalid_request');
      expect(error.fields).to.have.property(key);
    });
  }

  it('rejects a repeated scalar parameter', () => {
    expect(rejection({ limit: ['1', '2'] }).code).to.equal('invalid_request');
  });

  it('parses sort with a - prefix and order', () => {
    expect(parse({ sort: '-price' })).to.include({ sort: 'price', order: 'desc' });
    expect(parse({ sort: 'price' })).to.include({ sort: 'price', order: 'asc' });
    expect(parse({ sort: 'title', order: 'desc' })).to.include({ sort: 'title', order: 'desc' });
    expect(parse({ sort: '-title', order: 'asc' })).to.include({ sort: 'title', order: 'asc' });
    expect(parse({ order: 'asc' })).to.deep.equal({ offset: 0, include: [], filters: [], order: 'asc' });
  });

  it('accepts every system field as sort', () => {
    for (const field of ['id', 'slug', 'status', 'title', 'created_at', 'updated_at', 'published_at']) {
      expect(parse({ sort: field }).sort).to.equal(field);
    }
  });

  it('rejects an unknown sort field, an injection attempt and a bad order', () => {
    for (const raw of [{ sort: ';drop' }, { sort: 'nope' }, { sort: '-' }, { sort: '--price' }, { order: 'up' }]) {
      const error = rejection(raw);
      expect(error.code).to.equal('invalid_request');
    }
    expect(rejection({ sort: 'nope' }).fields).to.have.property('sort');
    expect(rejection({ sort: 'nope' }).message).to.contain('"nope"');
  });

  it('trims q and drops an empty one', () => {
    expect(parse({ q: '  torch  ' }).q).to.equal('torch');
    expect(parse({ q: '   ' }).q).to.equal(undefined);
  });

  it('rejects a q longer than 500 characters', () => {
    expect(parse({ q: 'a'.repeat(500) }).q).to.have.length(500);
    const error = rejection({ q: 'x'.repeat(10_000) });
    expect(error.code).to.equal('invalid_request');
    expect(error.fields).to.have.property('q');
  });

  it('parses include from a comma list and repeated keys, dropping blanks and duplicates', () => {
    expect(parse({ include: 'maker, related,,maker' }).include).to.deep.equal(['maker', 'related']);
    expect(parse({ include: ['maker', 'secret'] }).include).to.deep.equal(['maker', 'secret']);
  });

  it('rejects include of an unknown or non-relation field, naming it', () => {
    for (const name of ['unknown', 'price', 'title', '__proto__']) {
      const error = rejection({ include: name });
      expect(error.code).to.equal('invalid_request');
      expect(error.message).to.contain(`"${name}"`);
    }
  });

  it('accepts a well-formed locale and rejects anything else', () => {
    expect(parse({ locale: 'de-AT' }).locale).to.equal('de-AT');
    expect(parse({ locale: 'xx' }).locale).to.equal('xx');
    for (const locale of ['../../x', 'de AT', 'de;', 'ü']) {
      const error = rejection({ locale });
      expect(error.code).to.equal('invalid_request');
      expect(error.fields).to.have.property('locale');
    }
  });

  it('ignores unknown keys', () => {
    expect(parse({ token: 'abc', _: '123', filters: 'x' })).to.deep.equal({ offset: 0, include: [], filters: [] });
  });
});

describe('list query filters: parseListParams, then resolveListQuery', () => {
  it('parses an exact match and each operator', () => {
    const query = parse({ 'filter[category]': 'tools', 'filter[price][gte]': '2', 'filter[title][contains]': 'Mug', 'filter[status][ne]': 'draft' });
    expect(query.filters.map((f) => [f.field, f.op])).to.deep.equal([
      ['category', 'eq'], ['price', 'gte'], ['title', 'contains'], ['status', 'ne'],
    ]);
    expect(query.filters[1].values[0]).to.deep.equal({ key: 2, eq: 2, text: '2' });
    expect(query.filters[2].values[0].text).to.equal('mug');
  });

  it('collects [in] values from a comma list and repeated keys', () => {
    const query = parse({ 'filter[price][in]': ['1,2', '3'] });
    expect(query.filters).to.have.length(1);
    expect(query.filters[0].values.map((v) => v.eq)).to.deep.equal([1, 2, 3]);
  });

  it('turns repeated keys of other operators into separate conditions', () => {
    const query = parse({ 'filter[tags]': ['even', 'five'] });
    expect(query.filters.map((f) => f.values[0].eq)).to.deep.equal(['even', 'five']);
  });

  it('coerces booleans from true/false/1/0 and rejects other values', () => {
    expect(parse({ 'filter[featured]': '1' }).filters[0].values[0].eq).to.equal(true);
    expect(parse({ 'filter[featured]': 'FALSE' }).filters[0].values[0].eq).to.equal(false);
    expect(rejection({ 'filter[featured]': 'yes' }).code).to.equal('invalid_request');
  });

  it('requires numbers and ISO dates where the field needs them', () => {
    expect(rejection({ 'filter[price][gt]': 'cheap' }).code).to.equal('invalid_request');
    expect(rejection({ 'filter[price]': '' }).code).to.equal('invalid_request');
    expect(rejection({ 'filter[release][lt]': 'tomorrow' }).code).to.equal('invalid_request');
    expect(rejection({ 'filter[created_at][gte]': '1' }).code).to.equal('invalid_request');
    expect(parse({ 'filter[release][lt]': '2023-02-01' }).filters[0].values[0].key).to.equal(Date.parse('2023-02-01'));
  });

  it('rejects a filter on an unknown field, naming it in fields', () => {
    const error = rejection({ 'filter[x]': '1' });
    expect(error.code).to.equal('invalid_request');
    expect(error.fields).to.have.property('filter[x]');
    expect(error.message).to.contain('"x"');
  });

  it('rejects unknown operators and malformed keys', () => {
    for (const key of ['filter[x][zz]', 'filter[price][zz]', 'filter[]', 'filter', 'filter[price', 'filter[price][gt][lt]', 'filter[price][]', 'filter[a]b']) {
      const error = rejection({ [key]: '1' });
      expect(error.code, key).to.equal('invalid_request');
      expect(error.fields, key).to.have.property(key);
    }
  });

  it('accepts filters on every system field', () => {
    const query = parse({
      'filter[id]': 'p01', 'filter[slug]': 'product-1', 'filter[status]': 'published', 'filter[title]': 'Zebra mug',
      'filter[created_at][gte]': '2024-01-01', 'filter[updated_at][lt]': '2025-01-01T00:00:00Z', 'filter[published_at][lte]': '2025-01-01',
    });
    expect(query.filters).to.have.length(7);
  });
});
