// Caching headers (issue 2, point 6; API.md "Entries"): ETag on single entries
// and lists, If-None-Match → 304, If-Match on writes → 412 when stale, and a
// stale write changes nothing in the data root.
import { expect } from 'chai';
import { fullAccessToken } from '../helpers/auth.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { diffSnapshots, snapshotDataRoot } from '../helpers/snapshot.ts';

const ROOT = '/api/v1/workspaces/default';
const ENTITY_TAG = /^(W\/)?"[^"]+"$/;

describe('caching headers', () => {
  let server: TestServer;
  let token: string;
  let counter = 0;

  const etagOf = (response: TestResponse): string => {
    const etag = response.headers.get('etag');
    expect(etag, `ETag of ${response.status} ${response.text.slice(0, 200)}`).to.be.a('string');
    expect(etag).to.match(ENTITY_TAG);
    return etag as string;
  };
  const get = (url: string, headers: Record<string, string> = {}) => server.request('GET', `${ROOT}${url}`, { token, headers });
  /** Creates a published entry with a fresh slug and returns its id and the ETag of a GET. */
  const createEntry = async (): Promise<{ id: string; url: string; etag: string }> => {
    counter += 1;
    const created = await server.request('POST', `${ROOT}/content/posts`, { body: { title: `Cached ${counter}`, summary: 'v1', status: 'published' }, token });
    expect(created.status, created.text).to.equal(201);
    const url = `/content/posts/${created.body.data.id}`;
    const read = await get(url);
    expect(read.status).to.equal(200);
    return { id: created.body.data.id, url, etag: etagOf(read) };
  };

  before(async () => {
    server = await startTestServer();
    token = await fullAccessToken(server);
    const created = await server.request('POST', `${ROOT}/content-types`, { body: { name: 'posts', fields: { summary: { type: 'text' } } }, token });
    expect(created.status, created.text).to.equal(201);
  });
  after(() => server.close());

  describe('conditional reads', () => {
    it('gives a single entry an ETag and answers a matching If-None-Match with 304 and no body', async () => {
      const { id, url, etag } = await createEntry();
      const slug = `cached-${counter}`;
      for (const [path, auth] of [[url, token], [`/content/posts/${slug}`, token], [url, undefined]] as const) {
        const fresh = await server.request('GET', `${ROOT}${path}`, { token: auth });
        expect(fresh.status).to.equal(200);
        expect(fresh.body.data.id).to.equal(id);
        expect(etagOf(fresh)).to.equal(etag);
        const cached = await server.request('GET', `${ROOT}${path}`, { token: auth, headers: { 'if-none-match': etag } });
        expect(cached.status, path).to.equal(304);
        expect(cached.text).to.equal('');
      }
      const other = await get(url, { 'if-none-match': '"something-else"' });
      expect(other.status).to.equal(200);
      expect(other.body.data.id).to.equal(id);
    });

    it('gives a list an ETag and answers a matching If-None-Match with 304', async () => {
      await createEntry();
      const list = await get('/content/posts');
      expect(list.status).to.equal(200);
      const etag = etagOf(list);
      const cached = await get('/content/posts', { 'if-none-match': etag });
      expect(cached.status).to.equal(304);
      expect(cached.text).to.equal('');
      const paged = await get('/content/posts?limit=1', { 'if-none-match': etag });
      expect(paged.status).to.equal(200);
      expect(etagOf(paged)).to.not.equal(etag);
    });

    it('changes the list ETag when an entry is added', async () => {
      await createEntry();
      const before = etagOf(await get('/content/posts'));
      await createEntry();
      const after = await get('/content/posts', { 'if-none-match': before });
      expect(after.status).to.equal(200);
      expect(etagOf(after)).to.not.equal(before);
    });

    it('changes the entry and list ETags after an update', async () => {
      const { url, etag } = await createEntry();
      const listBefore = etagOf(await get('/content/posts'));
      const updated = await server.request('PATCH', `${ROOT}${url}`, { body: { summary: 'v2' }, token });
      expect(updated.status, updated.text).to.equal(200);

      const entry = await get(url, { 'if-none-match': etag });
      expect(entry.status).to.equal(200);
      expect(entry.body.data.data.summary).to.equal('v2');
      const newEtag = etagOf(entry);
      expect(newEtag).to.not.equal(etag);
      expect((await get(url, { 'if-none-match': newEtag })).status).to.equal(304);

      const list = await get('/content/posts', { 'if-none-match': listBefore });
      expect(list.status).to.equal(200);
      expect(etagOf(list)).to.not.equal(listBefore);
    });
  });

  describe('conditional writes', () => {
    const bodyFor = (method: string) => (method === 'DELETE' ? undefined : { summary: `by ${method}` });

    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      it(`${method} with a stale If-Match → 412 precondition_failed and nothing changes`, async () => {
        const { url, etag: stale } = await createEntry();
        const changed = await server.request('PATCH', `${ROOT}${url}`, { body: { summary: 'v2' }, token });
        expect(changed.status, changed.text).to.equal(200);
        const current = etagOf(await get(url));

        for (const ifMatch of [stale, '"not-a-version"']) {
          const before = await snapshotDataRoot(server.dataDir);
          const response = await server.request(method, `${ROOT}${url}`, { body: bodyFor(method), token, headers: { 'if-match': ifMatch } });
          expect(response.status, response.text).to.equal(412);
          expect(response.body.error.code).to.equal('precondition_failed');
          expect(diffSnapshots(before, await snapshotDataRoot(server.dataDir))).to.deep.equal([]);
        }
        const after = await get(url);
        expect(after.status).to.equal(200);
        expect(after.body.data.data.summary).to.equal('v2');
        expect(etagOf(after)).to.equal(current);
      });

      it(`${method} with the current ETag in If-Match → 200`, async () => {
        const { url, etag } = await createEntry();
        const response = await server.request(method, `${ROOT}${url}`, { body: bodyFor(method), token, headers: { 'if-match': etag } });
        expect(response.status, response.text).to.equal(200);
        const after = await get(url);
        if (method === 'DELETE') {
          expect(after.status).to.equal(404);
        } else {
          expect(after.body.data.data.summary).to.equal(`by ${method}`);
          expect(etagOf(after)).to.not.equal(etag);
        }
      });
    }

    it('answers writes with an ETag that the next If-Match accepts', async () => {
      const created = await server.request('POST', `${ROOT}/content/posts`, { body: { title: 'Chained', status: 'published' }, token });
      expect(created.status, created.text).to.equal(201);
      const url = `${ROOT}/content/posts/${created.body.data.id}`;
      let etag = etagOf(created);
      for (const method of ['PATCH', 'PUT']) {
        const response = await server.request(method, url, { body: { summary: method }, token, headers: { 'if-match': etag } });
        expect(response.status, response.text).to.equal(200);
        etag = etagOf(response);
      }
      const removed = await server.request('DELETE', url, { token, headers: { 'if-match': etag } });
      expect(removed.status, removed.text).to.equal(200);
    });
  });
});
