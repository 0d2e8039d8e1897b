// The cache of serialized read answers (docs/performance.md "Response
// cache"): every way the content or the reader can change must show in the
// next read, through the real server and the real git repository.
import { expect } from 'chai';
import { buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { contentRepoOf, externalCommit, headOid } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';

const ROOT = '/api/v1/workspaces/default';

describe('response cache of public reads', () => {
  let server: TestServer;
  let token: string;
  let admin: AdminSession;
  const titles = async (url: string, options: { token?: string; headers?: Record<string, string> } = {}): Promise<string[]> => {
    const response = await server.request('GET', `${ROOT}${url}`, options);
    expect(response.status, response.text).to.equal(200);
    return response.body.data.map((entry: { title: string }) => entry.title).sort();
  };
  const create = async (body: Record<string, unknown>): Promise<string> => {
    const created = await server.request('POST', `${ROOT}/content/posts`, { body, token });
    expect(created.status, created.text).to.equal(201);
    return created.body.data.id;
  };

  before(async () => {
    const built = await buildAdminServer({ token: FULL_ACCESS, env: { CMS_TRUST_PROXY: '1' } });
    server = built.server;
    token = built.token;
    admin = built.admin;
    const type = await server.request('POST', `${ROOT}/content-types`, { body: { name: 'posts', fields: { cover: { type: 'media' } } }, token });
    expect(type.status, type.text).to.equal(201);
    await create({ title: 'First', status: 'published' });
  });
  after(() => server.close());

  it('shows an API write in the next read of a list and of an entry', async () => {
    const id = await create({ title: 'Before', status: 'published' });
    expect(await titles('/content/posts')).to.include('Before');
    expect((await server.request('GET', `${ROOT}/content/posts/${id}`)).body.data.title).to.equal('Before');
    const updated = await server.request('PATCH', `${ROOT}/content/posts/${id}`, { body: { title: 'After' }, token });
    expect(updated.status, updated.text).to.equal(200);
    expect(await titles('/content/posts')).to.include('After').and.not.include('Before');
    const read = await server.request('GET', `${ROOT}/content/posts/${id}`);
    expect(read.body.data.title).to.equal('After');
    expect(read.headers.get('etag')).to.equal(updated.headers.get('etag'));
  });

  it('shows a developer commit made with git', async () => {
    expect(await titles('/content/posts')).to.not.include('From git');
    const file = '---\ntitle: From git\nstatus: published\n---\nWritten by hand.\n';
    await externalCommit(contentRepoOf(server.dataDir), { write: { 'default/entries/posts/from-git.md': file } }, 'Add a post by hand');
    await pollUntil(() => titles('/content/posts'), (list) => list.includes('From git'));
  });

  it('shows a scheduled entry once its publish time has passed, with no write in between', async () => {
    const publishAt = Date.now() + 1500;
    await create({ title: 'Scheduled', status: 'scheduled', published_at: new Date(publishAt).toISOString() });
    expect(await titles('/content/posts')).to.not.include('Scheduled');
    await new Promise((resolve) => setTimeout(resolve, publishAt - Date.now() + 100));
    expect(await titles('/content/posts')).to.include('Scheduled');
  });

  it('keeps answers apart by reader: a draft seen by a token never reaches an anonymous reader', async () => {
    await create({ title: 'Draft', status: 'draft' });
    expect(await titles('/content/posts', { token })).to.include('Draft');
    expect(await titles('/content/posts')).to.not.include('Draft');
    const readPublished = await issueToken(server, admin, [{ effect: 'allow', actions: ['content.read'], resources: ['content:posts:*'], conditions: { status: ['published'] } }]);
    expect(await titles('/content/posts', { token: readPublished })).to.not.include('Draft');
    expect(await titles('/content/posts', { token })).to.include('Draft');
  });

  it('answers a hot read with the same status, headers and body as the route, anonymous or with a token; a token that is no token is still 401', async () => {
    const id = await create({ title: 'Hot', status: 'published' });
    const url = `${ROOT}/content/posts/${id}?locale=en`;
    const first = await server.request('GET', url);
    const second = await server.request('GET', url);
    expect(second.status).to.equal(200);
    expect(second.text).to.equal(first.text);
    const headers = (response: typeof first) => Object.fromEntries([...response.headers].filter(([name]) => !['date', 'x-request-id'].includes(name)));
    expect(headers(second)).to.deep.equal(headers(first));
    expect(second.headers.get('x-request-id')).to.be.a('string').and.not.equal(first.headers.get('x-request-id'));
    const notModified = await server.request('GET', url, { headers: { 'if-none-match': first.headers.get('etag') as string } });
    expect(notModified.status).to.equal(304);
    expect(notModified.headers.get('etag')).to.equal(first.headers.get('etag'));
    expect(notModified.headers.get('content-type')).to.equal(null);
    expect((await server.request('GET', url, { headers: { 'x-request-id': 'client-id-1' } })).headers.get('x-request-id'), 'a hot read echoes the client\'s request id').to.equal('client-id-1');
    const listUrl = `${ROOT}/content/posts?limit=7`;
    const heads = [await server.request('HEAD', listUrl), await server.request('HEAD', listUrl)];
    expect(heads.map((head) => [head.status, head.text])).to.deep.equal([[200, ''], [200, '']]);
    expect(headers(heads[1]), 'a hot HEAD has the headers the route gave').to.deep.equal(headers(heads[0]));
    expect(heads[1].headers.get('content-length')).to.equal((await server.request('GET', listUrl)).headers.get('content-length'));
    const atHead = `${url}&ref=${await headOid(contentRepoOf(server.dataDir))}`;
    await server.request('GET', atHead);
    expect((await server.request('GET', atHead)).headers.get('cache-control'), 'a read at a full commit id keeps its caching headers when hot').to.contain('immutable');
    const withToken = [await server.request('GET', url, { token }), await server.request('GET', url, { token })];
    expect(withToken[1].text).to.equal(withToken[0].text);
    expect(headers(withToken[1])).to.deep.equal(headers(withToken[0]));
    const badToken = await server.request('GET', url, { token: 'not-a-token' });
    expect(badToken.status).to.equal(401);
    expect((await server.request('GET', `${ROOT}/content/nope/${id}`)).status, 'an uncached URL is routed').to.equal(404);
  });

  it('keeps answers apart by base URL, so media links point at the host that was asked', async () => {
    await create({ title: 'With cover', status: 'published', cover: ['cover.png'] });
    const coverFrom = async (host: string): Promise<string> => {
      const response = await server.request('GET', `${ROOT}/content/posts?q=cover`, { headers: { 'x-forwarded-host': host } });
      const entry = response.body.data.find((candidate: { title: string }) => candidate.title === 'With cover');
      return entry.data.cover[0];
    };
    expect(await coverFrom('one.example')).to.equal('http://one.example/media/default/cover.png');
    expect(await coverFrom('two.example')).to.equal('http://two.example/media/default/cover.png');
  });
});
