import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { commitCount, contentRepoOf, trackedFiles } from '../helpers/git.ts';
import type { TestServer } from '../helpers/server.ts';

const ROOT = '/api/v1/workspaces/default';

describe('content types (public API)', () => {
  let server: TestServer;
  let token: string;
  let readOnly: string;
  let session: AdminSession;

  before(async () => {
    ({ server, admin: session, token } = await buildAdminServer({ token: FULL_ACCESS }));
    readOnly = await issueToken(server, session, [{ effect: 'allow', actions: ['schema.read', 'content.read'], resources: ['*'] }]);
  });
  after(() => server.close());

  const create = (body: unknown, auth = token) => server.request('POST', `${ROOT}/content-types`, { body, token: auth });

  it('creates a type and answers with all ten SPEC fields and their defaults', async () => {
    const response = await create({ name: 'articles', fields: { body: { type: 'markdown' } } });
    expect(response.status).to.equal(201);
    expect(response.body.data).to.deep.equal({
      name: 'articles',
      label: 'articles',
      icon: '',
      singleton: false,
      visibility: 'public',
      slug_field: 'slug',
      slug_source: 'title',
      locales: [],
      default_locale: '',
      fields: { body: { type: 'markdown' } },
    });
    const listed = await server.request('GET', `${ROOT}/content-types`);
    expect(listed.status).to.equal(200);
    expect(listed.body.data.map((type: { name: string }) => type.name)).to.include('articles');
    const one = await server.request('GET', `${ROOT}/content-types/articles`);
    expect(one.body.data).to.deep.equal(response.body.data);
  });

  it('rejects a duplicate name with 409 conflict', async () => {
    await create({ name: 'dupes' });
    const response = await create({ name: 'dupes' });
    expect(response.status).to.equal(409);
    expect(response.body.error.code).to.equal('conflict');
  });

  for (const name of ['Posts', 'my posts', 'a/b', '..', 'x'.repeat(65), '']) {
    it(`rejects the name ${JSON.stringify(name.slice(0, 20))} with 422`, async () => {
      const response = await create({ name });
      expect(response.status).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(response.body.error.fields).to.have.property('name');
    });
  }

  const badFields: Array<[string, unknown]> = [
    ['an unknown field type', { a: { type: 'rainbow' } }],
    ['a select without options', { a: { type: 'select' } }],
    ['a relation to a missing type', { a: { type: 'relation', target: 'nowhere' } }],
    ['a range without bounds', { a: { type: 'range' } }],
    ['a default of the wrong type', { a: { type: 'number', default: 'ten' } }],
    ['a field named like a system key', { status: { type: 'text' } }],
    ['an option that does not fit the type', { a: { type: 'text', target: 'posts' } }],
  ];
  for (const [label, fields] of badFields) {
    it(`rejects ${label} with 422`, async () => {
      const response = await create({ name: 'bad-fields', fields });
      expect(response.status).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(Object.keys(response.body.error.fields).join(' ')).to.match(/^fields\./);
    });
  }

  it('names the key a misspelt key likely meant in the admin API\'s 422 envelope, and commits nothing', async () => {
    const repo = contentRepoOf(server.dataDir);
    const commitsBefore = await commitCount(repo);
    const response = await adminRequest(server, session, 'POST', '/content-types', { name: 'misspelt', lable: 'Misspelt', fields: { body: { type: 'text', requried: true } } });
    expect(response.status).to.equal(422);
    expect(response.body.error).to.deep.include({
      code: 'validation_failed',
      fields: {
        lable: 'Unknown property "lable": did you mean "label"?',
        'fields.body.requried': 'Property "requried" is not allowed on a text field: did you mean "required"?',
      },
    });
    expect(await commitCount(repo)).to.equal(commitsBefore);
    expect((await server.request('GET', `${ROOT}/content-types/misspelt`, { token })).status).to.equal(404);
  });

  it('updates partially and ignores name in the body', async () => {
    await create({ name: 'pages', label: 'Pages' });
    const response = await server.request('PUT', `${ROOT}/content-types/pages`, { body: { name: 'other', icon: 'file' }, token });
    expect(response.status).to.equal(200);
    expect(response.body.data.name).to.equal('pages');
    expect(response.body.data.label).to.equal('Pages');
    expect(response.body.data.icon).to.equal('file');
    const other = await server.request('GET', `${ROOT}/content-types/other`);
    expect(other.status).to.equal(404);
    expect(other.body.error.code).to.equal('not_found');
  });

  it('answers 404 for unknown types on get, update and delete', async () => {
    for (const [method, body] of [['GET', undefined], ['PUT', { label: 'x' }], ['DELETE', undefined]] as const) {
      const response = await server.request(method, `${ROOT}/content-types/missing`, { body, token });
      expect(response.status, method).to.equal(404);
      expect(response.body.error.code).to.equal('not_found');
    }
  });

  it('hides private types from anonymous readers and shows them to schema.read', async () => {
    await create({ name: 'secrets', visibility: 'private' });
    const anonymousList = await server.request('GET', `${ROOT}/content-types`);
    expect(anonymousList.body.data.map((type: { name: string }) => type.name)).to.not.include('secrets');
    const anonymousGet = await server.request('GET', `${ROOT}/content-types/secrets`);
    expect(anonymousGet.status).to.equal(401);
    expect(anonymousGet.body.error.code).to.equal('unauthorized');
    const tokenList = await server.request('GET', `${ROOT}/content-types`, { token: readOnly });
    expect(tokenList.body.data.map((type: { name: string }) => type.name)).to.include('secrets');
  });

  it('leaves relations to a type the reader may not see out of public type definitions', async () => {
    await create({ name: 'hidden-notes', visibility: 'private' });
    expect((await create({ name: 'essays', fields: { title_note: { type: 'text' }, note: { type: 'relation', target: 'hidden-notes' } } })).status).to.equal(201);
    const anonymous = await server.request('GET', `${ROOT}/content-types/essays`);
    expect(Object.keys(anonymous.body.data.fields)).to.deep.equal(['title_note']);
    expect(JSON.stringify((await server.request('GET', `${ROOT}/content-types`)).body)).to.not.include('hidden-notes');
    const reader = await server.request('GET', `${ROOT}/content-types/essays`, { token: readOnly });
    expect(reader.body.data.fields.note).to.deep.include({ type: 'relation', target: 'hidden-notes' });
  });

  it('requires a token to write (401) and the grant (403)', async () => {
    const anonymous = await create({ name: 'nope' }, '');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('unauthorized');
    const limited = await create({ name: 'nope' }, readOnly);
    expect(limited.status).to.equal(403);
    expect(limited.body.error.code).to.equal('forbidden');
  });

  it('switches a collection to a single page only while it has at most one entry', async () => {
    await create({ name: 'notes' });
    for (const title of ['One', 'Two']) {
      expect((await server.request('POST', `${ROOT}/content/notes`, { body: { title }, token })).status).to.equal(201);
    }
    const refused = await server.request('PUT', `${ROOT}/content-types/notes`, { body: { singleton: true }, token });
    expect(refused.status).to.equal(409);
    expect(refused.body.error.code).to.equal('conflict');
    await server.request('DELETE', `${ROOT}/content/notes/two`, { token });
    const repo = contentRepoOf(server.dataDir);
    const commitsBefore = await commitCount(repo);
    const accepted = await server.request('PUT', `${ROOT}/content-types/notes`, { body: { singleton: true }, token });
    expect(accepted.status).to.equal(200);
    expect(accepted.body.data.singleton).to.equal(true);
    // The one entry becomes the single page in the same commit (hardening issue, item 11).
    expect(await commitCount(repo)).to.equal(commitsBefore + 1);
    const page = await server.request('GET', `${ROOT}/content/notes`, { token });
    expect(page.status, page.text).to.equal(200);
    expect(page.body.data).to.include({ id: 'notes', slug: 'notes', title: 'One' });
    const files = await trackedFiles(repo);
    expect(files).to.include('default/entries/notes/notes.md');
    expect(files).to.not.include('default/entries/notes/one.md');
    expect((await server.request('GET', `${ROOT}/content/notes/notes`, { token })).body.data.title).to.equal('One');
    const history = await adminRequest(server, session, 'GET', '/content/notes/notes/revisions');
    expect(history.body.meta.total, 'the entry keeps its earlier versions').to.be.at.least(2);
  });

  it('deletes a type with all its entries', async () => {
    await create({ name: 'temp' });
    await server.request('POST', `${ROOT}/content/temp`, { body: { title: 'Gone soon', status: 'published' }, token });
    const response = await server.request('DELETE', `${ROOT}/content-types/temp`, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal({ ok: true });
    const list = await server.request('GET', `${ROOT}/content/temp`);
    expect(list.status).to.equal(404);
    expect(list.body.error.code).to.equal('not_found');
  });

  it('keeps schemas per workspace', async () => {
    const created = await adminRequest(server, session, 'POST', '/workspaces', { slug: 'blog', label: 'Blog' });
    expect(created.status).to.equal(201);
    const response = await server.request('POST', '/api/v1/workspaces/blog/content-types', { body: { name: 'articles', fields: { price: { type: 'number' } } }, token });
    expect(response.status).to.equal(201);
    const inBlog = await server.request('GET', '/api/v1/workspaces/blog/content-types/articles');
    const inDefault = await server.request('GET', `${ROOT}/content-types/articles`);
    expect(Object.keys(inBlog.body.data.fields)).to.deep.equal(['price']);
    expect(Object.keys(inDefault.body.data.fields)).to.deep.equal(['body']);
  });
});
