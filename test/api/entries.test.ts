import { expect } from 'chai';
import { buildAdminServer, FULL_ACCESS, issueToken, loginAdmin } from '../helpers/auth.ts';
import type { TestServer } from '../helpers/server.ts';

const ROOT = '/api/v1/workspaces/default';

describe('entries (public API)', () => {
  let server: TestServer;
  let token: string;
  let writer: string;
  let reader: string;
  let postsOnly: string;

  before(async () => {
    const started = await buildAdminServer({ token: FULL_ACCESS });
    ({ server, token } = started);
    const session = started.admin;
    writer = await issueToken(server, session, [{ effect: 'allow', actions: ['content.create', 'content.update', 'content.read'], resources: ['content:*'] }]);
    reader = await issueToken(server, session, [{ effect: 'allow', actions: ['content.read'], resources: ['content:*'] }]);
    postsOnly = await issueToken(server, session, [{ effect: 'allow', actions: ['content.read'], resources: ['content:posts:*'] }]);
    const types = [
      { name: 'authors', fields: { bio: { type: 'textarea' } } },
      {
        name: 'posts',
        fields: {
          body: { type: 'markdown' },
          summary: { type: 'html' },
          rating: { type: 'number', default: 3 },
          featured: { type: 'boolean' },
          code: { type: 'text', unique: true },
          tags: { type: 'select', multiple: true, options: ['news', 'tech'] },
          cover: { type: 'media' },
          author: { type: 'relation', target: 'authors' },
        },
      },
      { name: 'home', singleton: true, fields: { headline: { type: 'text' } } },
      { name: 'memos', visibility: 'private' },
    ];
    for (const body of types) {
      const response = await server.request('POST', `${ROOT}/content-types`, { body, token });
      expect(response.status, body.name).to.equal(201);
    }
  });
  after(() => server.close());

  const post = (body: unknown, auth = token, type = 'posts') => server.request('POST', `${ROOT}/content/${type}`, { body, token: auth });

  it('creates an entry with generated id and slug, defaults and draft status', async () => {
    const response = await post({ title: 'Crème Brûlée Recipes', body: '# Hello' });
    expect(response.status).to.equal(201);
    const entry = response.body.data;
    expect(entry.id).to.match(/^[0-9a-z]{16}$/);
    expect(entry.slug).to.equal('creme-brulee-recipes');
    expect(entry.type).to.equal('posts');
    expect(entry.status).to.equal('draft');
    expect(entry.published_at).to.equal(null);
    expect(entry.created_at).to.equal(entry.updated_at);
    expect(entry.data).to.deep.equal({ body: '# Hello', rating: 3, tags: [], cover: [], author: null });
    expect(response.headers.get('etag')).to.match(/^"[^"]+"$/);
  });

  it('makes generated slugs unique and rejects a taken explicit slug with 409', async () => {
    const first = await post({ title: 'Same Title' });
    const second = await post({ title: 'Same Title' });
    expect(first.body.data.slug).to.equal('same-title');
    expect(second.body.data.slug).to.equal('same-title-2');
    const taken = await post({ title: 'Other', slug: 'same-title' });
    expect(taken.status).to.equal(409);
    expect(taken.body.error.code).to.equal('conflict');
  });

  it('reads one entry by id and by slug', async () => {
    const created = (await post({ title: 'Readable', status: 'published' })).body.data;
    for (const identifier of [created.id, created.slug]) {
      const response = await server.request('GET', `${ROOT}/content/posts/${identifier}`);
      expect(response.status).to.equal(200);
      expect(response.body.data.id).to.equal(created.id);
    }
  });

  it('updates partially with PUT and PATCH, and sets published_at on first publish', async () => {
    const created = (await post({ title: 'Partial', featured: true })).body.data;
    const put = await server.request('PUT', `${ROOT}/content/posts/${created.id}`, { body: { rating: 5 }, token });
    expect(put.status).to.equal(200);
    expect(put.body.data.data.featured).to.equal(true);
    expect(put.body.data.data.rating).to.equal(5);
    const patch = await server.request('PATCH', `${ROOT}/content/posts/${created.slug}`, { body: { status: 'published', slug: 'partial-renamed' }, token });
    expect(patch.status).to.equal(200);
    expect(patch.body.data.status).to.equal('published');
    expect(patch.body.data.slug).to.equal('partial-renamed');
    expect(Date.parse(patch.body.data.published_at)).to.be.closeTo(Date.now(), 60_000);
    expect(patch.body.data.title).to.equal('Partial');
    const old = await server.request('GET', `${ROOT}/content/posts/partial`, { token });
    expect(old.status).to.equal(404);
  });

  it('soft-deletes an entry', async () => {
    const created = (await post({ title: 'Doomed', status: 'published' })).body.data;
    const response = await server.request('DELETE', `${ROOT}/content/posts/${created.id}`, { token });
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal({ ok: true });
    const gone = await server.request('GET', `${ROOT}/content/posts/${created.id}`, { token });
    expect(gone.status).to.equal(404);
    expect(gone.body.error).to.deep.equal({ code: 'not_found', message: 'Content entry not found.' });
  });

  it('validates each field and names it in error.fields', async () => {
    const response = await post({ title: 'Bad', rating: 'five', featured: 'yes', tags: ['sports'], author: 'nobody', mystery: 1 });
    expect(response.status).to.equal(422);
    expect(response.body.error.code).to.equal('validation_failed');
    expect(response.body.error.fields).to.have.all.keys('rating', 'featured', 'tags', 'mystery');
    const relation = await post({ title: 'Bad relation', author: 'nobody' });
    expect(relation.status).to.equal(422);
    expect(relation.body.error.fields).to.have.all.keys('author');
  });

  it('sanitizes html fields on save', async () => {
    const response = await post({ title: 'Html', summary: '<p onclick="x()">Hi<script>alert(1)</script> <a href="javascript:alert(1)">link</a></p>' });
    expect(response.status).to.equal(201);
    const html: string = response.body.data.data.summary;
    expect(html).to.contain('<p>Hi');
    expect(html).to.not.match(/script|onclick|javascript:/i);
  });

  it('enforces unique fields across active entries', async () => {
    expect((await post({ title: 'Coded', code: 'A-1' })).status).to.equal(201);
    const duplicate = await post({ title: 'Coded again', code: 'A-1' });
    expect(duplicate.status).to.equal(422);
    expect(duplicate.body.error.fields).to.have.all.keys('code');
  });

  it('stores relations as ids and media as URLs on the public API', async () => {
    const author = (await post({ title: 'Ada', status: 'published' }, token, 'authors')).body.data;
    const created = await post({ title: 'Related', status: 'published', author: author.id, cover: ['photo.jpg'] });
    expect(created.status).to.equal(201);
    const read = await server.request('GET', `${ROOT}/content/posts/${created.body.data.id}`);
    expect(read.body.data.data.author).to.equal(author.id);
    expect(read.body.data.data.cover).to.deep.equal([`${server.baseUrl}/media/default/photo.jpg`]);
  });

  describe('single pages', () => {
    it('forces id and slug to the type name and allows one active entry', async () => {
      const created = await post({ title: 'Welcome', slug: 'ignored', status: 'published' }, token, 'home');
      expect(created.status).to.equal(201);
      expect(created.body.data.id).to.equal('home');
      expect(created.body.data.slug).to.equal('home');
      const second = await post({ title: 'Again' }, token, 'home');
      expect(second.status).to.equal(409);
      expect(second.body.error.code).to.equal('conflict');
      const list = await server.request('GET', `${ROOT}/content/home`);
      expect(list.status).to.equal(200);
      expect(list.body.data.id).to.equal('home');
      expect(list.body).to.not.have.property('meta');
    });

    it('checks the list parameters on the list route of a single page like on any list route', async () => {
      for (const query of ['limit=abc', 'order=up', 'filter[]=x', 'locale=../x']) {
        const response = await server.request('GET', `${ROOT}/content/home?${query}`);
        expect(response.status, query).to.equal(400);
        expect(response.body.error.code, query).to.equal('invalid_request');
      }
      expect((await server.request('GET', `${ROOT}/content/home?locale=en&limit=5`)).status).to.equal(200);
    });
  });

  describe('visibility', () => {
    it('shows anonymous readers only published and past scheduled entries', async () => {
      await post({ title: 'Vis draft', code: 'vis-1' });
      await post({ title: 'Vis published', status: 'published', code: 'vis-2' });
      await post({ title: 'Vis past', status: 'scheduled', published_at: '2020-01-01T00:00:00Z', code: 'vis-3' });
      await post({ title: 'Vis future', status: 'scheduled', published_at: '2999-01-01T00:00:00Z', code: 'vis-4' });
      await post({ title: 'Vis protected', status: 'protected', code: 'vis-5' });
      const anonymous = await server.request('GET', `${ROOT}/content/posts?filter[code][contains]=vis-&sort=code`);
      expect(anonymous.body.data.map((entry: { title: string }) => entry.title)).to.deep.equal(['Vis published', 'Vis past']);
      const withToken = await server.request('GET', `${ROOT}/content/posts?filter[code][contains]=vis-&sort=code`, { token: reader });
      expect(withToken.body.meta.total).to.equal(5);
      const draft = await server.request('GET', `${ROOT}/content/posts/vis-draft`);
      expect(draft.status).to.equal(404);
      const draftWithToken = await server.request('GET', `${ROOT}/content/posts/vis-draft`, { token: reader });
      expect(draftWithToken.status).to.equal(200);
    });

    it('needs content.read for private types: 401 anonymous, 403 without the grant', async () => {
      expect((await post({ title: 'Secret memo' }, token, 'memos')).status).to.equal(201);
      const anonymous = await server.request('GET', `${ROOT}/content/memos`);
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.error.code).to.equal('unauthorized');
      const forbidden = await server.request('GET', `${ROOT}/content/memos`, { token: postsOnly });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body.error.code).to.equal('forbidden');
      const allowed = await server.request('GET', `${ROOT}/content/memos`, { token: reader });
      expect(allowed.status).to.equal(200);
      expect(allowed.body.meta.total).to.equal(1);
    });

    it('needs content.publish to publish', async () => {
      const refused = await post({ title: 'Eager', status: 'published' }, writer);
      expect(refused.status).to.equal(403);
      expect(refused.body.error.code).to.equal('forbidden');
      const draft = await post({ title: 'Patient' }, writer);
      expect(draft.status).to.equal(201);
      const publish = await server.request('PATCH', `${ROOT}/content/posts/${draft.body.data.id}`, { body: { status: 'published' }, token: writer });
      expect(publish.status).to.equal(403);
    });
  });

  describe('entry grants', () => {
    it('accepts grants naming the entry by slug, and status conditions on the stored status', async () => {
      const session = await loginAdmin(server);
      const draft = (await post({ title: 'Granted draft' })).body.data;
      const live = (await post({ title: 'Granted live', status: 'published' })).body.data;
      const bySlug = await issueToken(server, session, [{ effect: 'allow', actions: ['content.update'], resources: ['content:posts:granted-draft'] }]);
      expect((await server.request('PATCH', `${ROOT}/content/posts/${draft.id}`, { body: { featured: true }, token: bySlug })).status).to.equal(200);
      expect((await server.request('PATCH', `${ROOT}/content/posts/${live.id}`, { body: { featured: true }, token: bySlug })).status).to.equal(403);
      const draftsOnly = await issueToken(server, session, [{ effect: 'allow', actions: ['content.update', 'content.create'], resources: ['content:posts:*'], conditions: { status: ['draft'] } }]);
      expect((await server.request('PATCH', `${ROOT}/content/posts/${draft.slug}`, { body: { rating: 1 }, token: draftsOnly })).status).to.equal(200);
      expect((await server.request('PATCH', `${ROOT}/content/posts/${live.slug}`, { body: { rating: 1 }, token: draftsOnly })).status).to.equal(403);
      expect((await post({ title: 'Conditional create' }, draftsOnly)).status).to.equal(201);
      expect((await post({ title: 'Conditional archive', status: 'archived' }, draftsOnly)).status).to.equal(403);
    });
  });

  describe('lists', () => {
    it('answers meta with total, limit, offset, sort and order', async () => {
      const response = await server.request('GET', `${ROOT}/content/posts?limit=2&offset=1`, { token });
      expect(response.status).to.equal(200);
      expect(response.body.data).to.have.length(2);
      expect(response.body.meta).to.include({ limit: 2, offset: 1, sort: 'created_at', order: 'desc' });
      expect(response.body.meta.total).to.be.greaterThan(2);
      const all = await server.request('GET', `${ROOT}/content/posts`, { token });
      expect(all.body.meta.limit).to.equal(all.body.meta.total);
      expect(all.body.data).to.have.length(all.body.meta.total);
    });
  });
});

