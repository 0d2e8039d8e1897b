// The query-string parser of http/query-params.ts: every rule, its one
// message, and the typed values the routes receive.
import { expect } from 'chai';
import { AppError } from '../../src/errors/app-error.ts';
import {
  MAX_Q_LENGTH, choiceParam, filterParams, integerChoiceParam, integerParam, localeParam, namesParam, pagingParams, parseListParams, parseReadParams,
  searchParam, singleParam, sortParams, textParam, validateQuery, type QueryValues,
} from '../../src/http/query-params.ts';

function rejection(parse: () => unknown): AppError {
  try {
    parse();
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected the query to be rejected');
}

/** Checks the one message of a rule: code invalid_request, the message, and `fields` naming the parameter with it. */
function expectRule(parse: () => unknown, param: string, message: string): void {
  const error = rejection(parse);
  expect(error.code).to.equal('invalid_request');
  expect(error.message).to.equal(message);
  expect(error.fields).to.deep.equal({ [param]: message });
}

describe('query parameters: one rule, one message', () => {
  describe('a value given once', () => {
    it('returns the value, empty included, and undefined when absent', () => {
      expect(singleParam({ type: 'x' }, 'type')).to.equal('x');
      expect(singleParam({ type: '' }, 'type')).to.equal('');
      expect(singleParam({}, 'type')).to.equal(undefined);
    });

    it('refuses a repeated key, on every parameter', () => {
      for (const key of ['limit', 'offset', 'order', 'sort', 'q', 'locale', 'category', 'level', 'type']) {
        expectRule(() => singleParam({ [key]: ['a', 'b'] }, key), key, `The query parameter "${key}" may be given only once.`);
      }
      expectRule(() => parseListParams({ limit: ['1', '2'] }), 'limit', 'The query parameter "limit" may be given only once.');
    });

    it('reads free text with empty as not given', () => {
      expect(textParam({ type: 'content' }, 'type')).to.equal('content');
      expect(textParam({ type: '' }, 'type')).to.equal(undefined);
    });
  });

  describe('integers', () => {
    it('accepts digits within the range', () => {
      expect(integerParam({ limit: '20' }, 'limit', { min: 1 })).to.equal(20);
      expect(integerParam({ offset: '0' }, 'offset', { min: 0 })).to.equal(0);
      expect(integerParam({ limit: '500' }, 'limit', { min: 1, max: 500 })).to.equal(500);
      expect(integerParam({}, 'limit', { min: 1 })).to.equal(undefined);
    });

    for (const value of ['0', 'abc', '', '-1', '1.5', ' 1', '1e3', '99999999999999999999']) {
      it(`refuses limit=${JSON.stringify(value)} with the integer message`, () => {
        expectRule(() => integerParam({ limit: value }, 'limit', { min: 1 }), 'limit', 'The query parameter "limit" must be an integer of at least 1.');
      });
    }

    it('names the upper bound when there is one', () => {
      expectRule(() => integerParam({ limit: '501' }, 'limit', { min: 1, max: 500 }), 'limit', 'The query parameter "limit" must be an integer of at least 1 and at most 500.');
    });

    it('pages with limit (absent means all) and offset (0 by default)', () => {
      expect(pagingParams({})).to.deep.equal({ offset: 0 });
      expect(pagingParams({ limit: '5', offset: '10' })).to.deep.equal({ limit: 5, offset: 10 });
      expectRule(() => pagingParams({ offset: '-1' }), 'offset', 'The query parameter "offset" must be an integer of at least 0.');
      expectRule(() => pagingParams({ limit: '1001' }, 1000), 'limit', 'The query parameter "limit" must be an integer of at least 1 and at most 1000.');
    });
  });

  describe('choices', () => {
    it('returns the choice and refuses anything else, empty included', () => {
      expect(choiceParam({ order: 'desc' }, 'order', ['asc', 'desc'])).to.equal('desc');
      expect(choiceParam({}, 'order', ['asc', 'desc'])).to.equal(undefined);
      for (const value of ['up', '', 'ASC']) {
        expectRule(() => choiceParam({ order: value }, 'order', ['asc', 'desc']), 'order', 'The query parameter "order" must be one of: asc, desc.');
      }
      expectRule(() => choiceParam({ include_archived: 'yes' }, 'include_archived', ['true', 'false']), 'include_archived', 'The query parameter "include_archived" must be one of: true, false.');
    });
  });

  describe('integer choices', () => {
    it('returns a listed number and refuses any other value, naming the list', () => {
      expect(integerChoiceParam({ w: '640' }, 'w', [320, 640])).to.equal(640);
      expect(integerChoiceParam({}, 'w', [320, 640])).to.equal(undefined);
      for (const value of ['500', '', '640.0', '+640', 'abc', '-320']) {
        expectRule(() => integerChoiceParam({ w: value }, 'w', [320, 640]), 'w', 'The query parameter "w" must be one of: 320, 640.');
      }
    });
  });

  describe('search text', () => {
    it('trims q and drops a blank one', () => {
      expect(searchParam({ q: '  torch  ' })).to.equal('torch');
      expect(searchParam({ q: '   ' })).to.equal(undefined);
      expect(searchParam({ q: ` ${'a'.repeat(MAX_Q_LENGTH)} ` })).to.have.length(MAX_Q_LENGTH);
    });

    it('refuses a q over the limit', () => {
      expectRule(() => searchParam({ q: 'a'.repeat(MAX_Q_LENGTH + 1) }), 'q', `The query parameter "q" may be at most ${MAX_Q_LENGTH} characters long.`);
    });
  });

  describe('locale', () => {
    it('accepts a code of letters, digits, _ and -, and reads empty as not given', () => {
      expect(localeParam({ locale: 'de-AT' })).to.equal('de-AT');
      expect(localeParam({ locale: 'zh_Hant' })).to.equal('zh_Hant');
      expect(localeParam({ locale: '' })).to.equal(undefined);
    });

    for (const locale of ['../../x', 'de AT', 'de;', 'ü']) {
      it(`refuses locale=${JSON.stringify(locale)}`, () => {
        expectRule(() => localeParam({ locale }), 'locale', 'The query parameter "locale" may contain only letters, digits, "_" and "-".');
      });
    }
  });

  describe('names', () => {
    it('reads a comma list and repeated keys, trimmed, without blanks and duplicates', () => {
      expect(namesParam({ include: 'maker, related,,maker' }, 'include')).to.deep.equal(['maker', 'related']);
      expect(namesParam({ include: ['maker', 'secret'] }, 'include')).to.deep.equal(['maker', 'secret']);
      expect(namesParam({}, 'include')).to.deep.equal([]);
    });
  });

  describe('sort and order', () => {
    it('reads a - prefix as descending; an explicit order wins', () => {
      expect(sortParams({ sort: '-price' })).to.deep.equal({ sort: 'price', order: 'desc' });
      expect(sortParams({ sort: 'price' })).to.deep.equal({ sort: 'price', order: 'asc' });
      expect(sortParams({ sort: '-title', order: 'asc' })).to.deep.equal({ sort: 'title', order: 'asc' });
      expect(sortParams({ order: 'desc' })).to.deep.equal({ order: 'desc' });
      expect(sortParams({ sort: '' })).to.deep.equal({});
    });

    it('refuses a bad order with the choice message', () => {
      expectRule(() => sortParams({ sort: 'price', order: 'up' }), 'order', 'The query parameter "order" must be one of: asc, desc.');
    });
  });

  describe('filters', () => {
    it('reads filter[field] as eq and filter[field][op] for each operator', () => {
      const raw: QueryValues = { 'filter[category]': 'tools', 'filter[price][gte]': '2', 'filter[title][contains]': 'Mug', 'filter[status][ne]': 'draft', limit: '3' };
      expect(filterParams(raw)).to.deep.equal([
        { key: 'filter[category]', field: 'category', op: 'eq', values: ['tools'] },
        { key: 'filter[price][gte]', field: 'price', op: 'gte', values: ['2'] },
        { key: 'filter[title][contains]', field: 'title', op: 'contains', values: ['Mug'] },
        { key: 'filter[status][ne]', field: 'status', op: 'ne', values: ['draft'] },
      ]);
    });

    it('collects [in] from comma lists and repeated keys into one condition', () => {
      expect(filterParams({ 'filter[price][in]': ['1, 2', '3,'] })).to.deep.equal([{ key: 'filter[price][in]', field: 'price', op: 'in', values: ['1', '2', '3'] }]);
    });

    it('makes repeated keys of other operators separate conditions, values untouched', () => {
      expect(filterParams({ 'filter[tags]': ['even', ' five'] }).map((filter) => filter.values)).to.deep.equal([['even'], [' five']]);
    });

    for (const key of ['filter[]', 'filter', 'filter[price', 'filter[price][gt][lt]', 'filter[a]b', 'filter[a[b]]']) {
      it(`refuses the malformed key ${key}`, () => {
        expectRule(() => filterParams({ [key]: '1' }), key, `The filter parameter ${JSON.stringify(key)} is malformed; use filter[field] or filter[field][op].`);
      });
    }

    for (const [key, op] of [['filter[x][zz]', 'zz'], ['filter[price][]', ''], ['filter[price][EQ]', 'EQ']]) {
      it(`refuses the unknown operator in ${key}`, () => {
        expectRule(() => filterParams({ [key]: '1' }), key, `Unknown filter operator ${JSON.stringify(op)} in ${JSON.stringify(key)}; use one of in, ne, gt, gte, lt, lte, contains.`);
      });
    }

    it('ignores keys that only look alike', () => {
      expect(filterParams({ filters: 'x', 'filterx[a]': '1' })).to.deep.equal([]);
    });
  });

  describe('whole queries', () => {
    it('parses a content list query, leaving out what was not given', () => {
      expect(parseListParams({})).to.deep.equal({ offset: 0, include: [], filters: [] });
      expect(parseListParams({ limit: '2', offset: '4', sort: '-price', q: ' mug ', include: 'maker', locale: 'de', 'filter[price][lt]': '9', token: 'ignored' })).to.deep.equal({
        limit: 2, offset: 4, sort: 'price', order: 'desc', q: 'mug', include: ['maker'], locale: 'de',
        filters: [{ key: 'filter[price][lt]', field: 'price', op: 'lt', values: ['9'] }],
      });
    });

    it('reads only include and locale for a single entry', () => {
      expect(parseReadParams({ include: 'maker', locale: 'de', limit: 'abc', 'filter[]': 'x' })).to.deep.equal({ include: ['maker'], locale: 'de' });
      expect(parseReadParams({})).to.deep.equal({ include: [] });
    });
  });

  describe('validateQuery', () => {
    it('puts the parsed query on ctx.state.query before the route runs', async () => {
      const ctx = { query: { limit: '3' }, state: {} as { query?: unknown } };
      let seen: unknown;
      await validateQuery(pagingParams)(ctx as never, async () => {
        seen = ctx.state.query;
      });
      expect(seen).to.deep.equal({ limit: 3, offset: 0 });
    });

    it('throws the rule error and never calls the route', async () => {
      const ctx = { query: { limit: '0' }, state: {} };
      let called = false;
      const error = await validateQuery(pagingParams)(ctx as never, async () => {
        called = true;
      }).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(AppError);
      expect(called).to.equal(false);
    });
  });
});
