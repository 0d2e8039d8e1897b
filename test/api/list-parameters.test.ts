// Each SPEC list parameter over HTTP, on a small fixed collection.
import { expect } from 'chai';
import { fullAccessToken } from '../helpers/auth.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = '/api/v1/workspaces/default';

describe('list parameters (public API)', () => {
  let server: TestServer;
  let token: string;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startTestServer();
    token = await fullAccessToken(server);
    const types = [
      { name: 'people', fields: { role: { type: 'text' } } },
      { name: 'secret-notes', visibility: 'private', fields: {} },
      {
        name: 'items',
        fields: {
          price: { type: 'number' },
          on_sale: { type: 'boolean' },
          released: { type: 'date' },
          colors: { type: 'select', multiple: true, options: ['red', 'green', 'blue'] },
          description: { type: 'textarea' },
          maker: { type: 'relation', target: 'people' },
          note: { type: 'relation', target: 'secret-notes' },
        },
      },
    ];
    for (const body of types) expect((await server.request('POST', `${ROOT}/content-types`, { body, token })).status).to.equal(201);
    ids.ada = (await create('people', { title: 'Ada', status: 'published', role: 'engineer' })).id;
    ids.hidden = (await create('people', { title: 'Hidden', role: 'draft person' })).id;
    ids.note = (await create('secret-notes', { title: 'Psst', status: 'published' })).id;
    const items = [
      { title: 'Widget', price: 10, on_sale: true, released: '2024-03-01', colors: ['red'], description: 'A small widget', maker: ids.ada, note: ids.note },
      { title: 'gadget', price: 2, on_sale: false, released: '2023-12-31', colors: ['green', 'blue'], description: 'Crème-filled gadget', maker: ids.hidden },
      { title: 'Doohickey', price: 100, on_sale: true, released: '2025-01-15', colors: [], description: 'Large doohickey' },
      { title: 'Thingamajig', on_sale: false, description: 'No price yet' },
    ];
    for (const item of items) ids[item.title] = (await create('items', { ...item, status: 'published' })).id;
  });
  after(() => server.close());

  async function create(type: string, body: Record<string, unknown>) {
    const response = await server.request('POST', `${ROOT}/content/${type}`, { body, token });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    return response.body.data;
  }
  const titles = async (query: string, auth?: string) => {
    const response = await server.request('GET', `${ROOT}/content/items?${query}`, { token: auth });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.data.map((entry: { title: string }) => entry.title);
  };

  it('sorts numbers as numbers with missing values last, both directions', async () => {
    expect(await titles('sort=price')).to.deep.equal(['gadget', 'Widget', 'Doohickey', 'Thingamajig']);
    expect(await titles('sort=-price')).to.deep.equal(['Doohickey', 'Widget', 'gadget', 'Thingamajig']);
    expect(await titles('sort=price&order=desc')).to.deep.equal(['Doohickey', 'Widget', 'gadget', 'Thingamajig']);
  });

  it('sorts dates as dates and strings case-insensitively', async () => {
    expect(await titles('sort=released')).to.deep.equal(['gadget', 'Widget', 'Doohickey', 'Thingamajig']);
    expect(await titles('sort=title')).to.deep.equal(['Doohickey', 'gadget', 'Thingamajig', 'Widget']);
  });

  it('pages with limit and offset and reports meta', async () => {
    const response = await server.request('GET', `${ROOT}/content/items?sort=title&limit=2&offset=1`);
    expect(response.body.data.map((entry: { title: string }) => entry.title)).to.deep.equal(['gadget', 'Thingamajig']);
    expect(response.body.meta).to.deep.equal({ total: 4, limit: 2, offset: 1, sort: 'title', order: 'asc' });
  });

  it('filters with every operator', async () => {
    expect(await titles('filter[price]=10')).to.deep.equal(['Widget']);
    expect(await titles('filter[price][in]=2,100&sort=price')).to.deep.equal(['gadget', 'Doohickey']);
    expect(await titles('filter[price][in]=2&filter[price][in]=100&sort=price')).to.deep.equal(['gadget', 'Doohickey']);
    expect(await titles('filter[price][ne]=10&sort=title')).to.deep.equal(['Doohickey', 'gadget', 'Thingamajig']);
    expect(await titles('filter[price][gt]=2&sort=price')).to.deep.equal(['Widget', 'Doohickey']);
    expect(await titles('filter[price][gte]=10&filter[price][lt]=100')).to.deep.equal(['Widget']);
    expect(await titles('filter[price][lte]=10&sort=price')).to.deep.equal(['gadget', 'Widget']);
    expect(await titles('filter[released][gt]=2024-01-01&sort=released')).to.deep.equal(['Widget', 'Doohickey']);
    expect(await titles('filter[description][contains]=WIDGET')).to.deep.equal(['Widget']);
    expect(await titles('filter[slug]=gadget')).to.deep.equal(['gadget']);
    expect(await titles(`filter[id]=${ids.Widget}`)).to.deep.equal(['Widget']);
  });

  it('matches booleans as true/false/1/0 and arrays when any item matches', async () => {
    expect(await titles('filter[on_sale]=true&sort=title')).to.deep.equal(['Doohickey', 'Widget']);
    expect(await titles('filter[on_sale]=0&sort=title')).to.deep.equal(['gadget', 'Thingamajig']);
    expect(await titles('filter[colors]=blue')).to.deep.equal(['gadget']);
    expect(await titles('filter[colors][in]=red,blue&sort=title')).to.deep.equal(['gadget', 'Widget']);
  });

  it('searches with q: prefixes, all terms, accents ignored, combined with filters', async () => {
    expect(await titles('q=wid')).to.deep.equal(['Widget']);
    expect(await titles('q=creme')).to.deep.equal(['gadget']);
    expect(await titles('q=large doo')).to.deep.equal(['Doohickey']);
    expect(await titles('q=large widget')).to.deep.equal([]);
    expect(await titles('q=widget&filter[on_sale]=true')).to.deep.equal(['Widget']);
    expect(await titles('q=gadget&filter[on_sale]=true')).to.deep.equal([]);
  });

  it('expands relations with include, hiding invisible and private targets', async () => {
    const anonymous = await server.request('GET', `${ROOT}/content/items?include=maker&sort=title`);
    const byTitle = Object.fromEntries(anonymous.body.data.map((entry: { title: string; data: object }) => [entry.title, entry.data]));
    expect(byTitle.Widget.maker.title).to.equal('Ada');
    expect(byTitle.gadget.maker).to.equal(null);
    expect(byTitle.Widget).to.not.have.property('note');
    const withToken = await server.request('GET', `${ROOT}/content/items/${ids.Widget}?include=maker,note`, { token });
    expect(withToken.body.data.data.maker.id).to.equal(ids.ada);
    expect(withToken.body.data.data.note.id).to.equal(ids.note);
  });

  it('rejects bad parameters with 400 invalid_request', async () => {
    for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'order=up', 'filter[nope]=1', 'filter[price][zz]=1', 'filter[]=', 'sort=;drop', 'include=unknown', 'include=price', 'locale=../../x', `q=${'x'.repeat(10_000)}`, 'filter[on_sale]=maybe']) {
      const response = await server.request('GET', `${ROOT}/content/items?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.error.code, query).to.equal('invalid_request');
    }
  });
});
