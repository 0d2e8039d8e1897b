import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { createEntry, createType, sessionWithGrants } from '../helpers/editorial.ts';
import { changedFiles, commitCount, contentRepoOf, statusPorcelain, trackedFiles } from '../helpers/git.ts';
import type { TestServer } from '../helpers/server.ts';

describe('admin trash', () => {
  let server: TestServer;
  let admin: AdminSession;
  let adminId: string;
  let repo: string;

  before(async () => {
    ({ server, admin, adminId } = await buildAdminServer());
    repo = contentRepoOf(server.dataDir);
    await createType(server, admin, { name: 'posts', fields: { body: { type: 'markdown' }, code: { type: 'text', unique: true } }, locales: ['en', 'de'], default_locale: 'en' });
    await createType(server, admin, { name: 'about', singleton: true, fields: {} });
  });
  after(() => server.close());

  async function trashList(type = 'posts') {
    return adminRequest(server, admin, 'GET', `/trash/${type}`);
  }

  it('lists a deleted entry with deleted_at and deleted_by, and restores it under its slug in one commit', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Hello', slug: 'hello', body: 'Text', status: 'published' });
    await adminRequest(server, admin, 'PUT', `/content/posts/${entry.id}`, { locale: 'de', title: 'Hallo', body: 'Text de' });
    expect((await adminRequest(server, admin, 'DELETE', `/content/posts/${entry.id}`)).status).to.equal(200);

    const listed = await trashList();
    expect(listed.status).to.equal(200);
    expect(listed.body.meta).to.deep.equal({ total: 1, limit: 1, offset: 0 });
    const [item] = listed.body.data;
    expect(item).to.include({ id: entry.id, slug: 'hello', title: 'Hello', status: 'published', type: 'posts', deleted_by: adminId });
    expect(item.data).to.deep.equal({ body: 'Text' });
    expect(Date.parse(item.deleted_at)).to.be.a('number').and.not.NaN;
    const german = await adminRequest(server, admin, 'GET', '/trash/posts?locale=de');
    expect(german.body.data[0].title).to.equal('Hallo');

    const before = await commitCount(repo);
    const restored = await adminRequest(server, admin, 'POST', `/trash/posts/${entry.id}/restore`);
    expect(restored.status).to.equal(200);
    expect(restored.body.data).to.include({ id: entry.id, slug: 'hello', title: 'Hello', status: 'published' });
    expect(restored.headers.get('etag')).to.be.a('string');
    expect(await commitCount(repo)).to.equal(before + 1);
    expect(await changedFiles(repo)).to.deep.equal([
      { status: 'A', path: 'default/entries/posts/hello.de.md' },
      { status: 'A', path: 'default/entries/posts/hello.md' },
      { status: 'D', path: `default/trash/posts/${entry.id}/hello.de.md` },
      { status: 'D', path: `default/trash/posts/${entry.id}/hello.md` },
    ]);
    expect(await statusPorcelain(repo)).to.equal('');
    expect((await trashList()).body.data).to.deep.equal([]);
    const live = await server.request('GET', '/api/v1/workspaces/default/content/posts/hello?locale=de');
    expect(live.status).to.equal(200);
    expect(live.body.data.title).to.equal('Hallo');
  });

  it('answers 409 when the slug is taken again, and changes nothing', async () => {
    const first = await createEntry(server, admin, 'posts', { title: 'Taken', slug: 'taken' });
    await adminRequest(server, admin, 'DELETE', `/content/posts/${first.id}`);
    await createEntry(server, admin, 'posts', { title: 'Taken again', slug: 'taken' });
    const before = await commitCount(repo);
    const response = await adminRequest(server, admin, 'POST', `/trash/posts/${first.id}/restore`);
    expect(response.status).to.equal(409);
    expect(response.body.error.code).to.equal('conflict');
    expect(await commitCount(repo)).to.equal(before);
    expect((await trashList()).body.data.map((item: { id: string }) => item.id)).to.include(first.id);
  });

  it('answers 409 when the single page exists again', async () => {
    await createEntry(server, admin, 'about', { title: 'About us' });
    await adminRequest(server, admin, 'DELETE', '/content/about/about');
    await createEntry(server, admin, 'about', { title: 'About us, new' });
    const response = await adminRequest(server, admin, 'POST', '/trash/about/about/restore');
    expect(response.status).to.equal(409);
    expect(response.body.error.code).to.equal('conflict');
  });

  it('answers 422 when a restored value collides with a unique field', async () => {
    const first = await createEntry(server, admin, 'posts', { title: 'Coded', code: 'X1' });
    await adminRequest(server, admin, 'DELETE', `/content/posts/${first.id}`);
    await createEntry(server, admin, 'posts', { title: 'Coded again', code: 'X1' });
    const response = await adminRequest(server, admin, 'POST', `/trash/posts/${first.id}/restore`);
    expect(response.status).to.equal(422);
    expect(response.body.error.code).to.equal('validation_failed');
    expect(response.body.error.fields).to.have.property('code');
  });

  it('purges one trashed entry for good in one commit; a second purge is 404', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Purge me' });
    await adminRequest(server, admin, 'DELETE', `/content/posts/${entry.id}`);
    const before = await commitCount(repo);
    const purged = await adminRequest(server, admin, 'DELETE', `/trash/posts/${entry.id}`);
    expect(purged.status).to.equal(200);
    expect(purged.body.data).to.deep.equal({ ok: true });
    expect(await commitCount(repo)).to.equal(before + 1);
    expect(await changedFiles(repo)).to.deep.equal([
      { status: 'D', path: `default/trash/posts/${entry.id}/purge-me.md` },
    ]);
    const again = await adminRequest(server, admin, 'DELETE', `/trash/posts/${entry.id}`);
    expect(again.status).to.equal(404);
    expect(again.body.error.code).to.equal('not_found');
  });

  it('answers 404 for trash operations on a live entry and on unknown collections', async () => {
    const live = await createEntry(server, admin, 'posts', { title: 'Alive' });
    for (const [method, url] of [['POST', `/trash/posts/${live.id}/restore`], ['DELETE', `/trash/posts/${live.id}`], ['GET', '/trash/nope'], ['DELETE', '/trash/nope']] as const) {
      const response = await adminRequest(server, admin, method, url);
      expect(response.status, `${method} ${url}`).to.equal(404);
      expect(response.body.error.code).to.equal('not_found');
    }
    expect((await server.request('GET', `/api/v1/workspaces/default/content/posts/${live.id}`, { token: await issueToken(server, admin, FULL_ACCESS) })).status).to.equal(200);
  });

  it('empties a collection trash in one commit, and an empty trash without a commit', async () => {
    await createType(server, admin, { name: 'notes', fields: {} });
    const token = await issueToken(server, admin, FULL_ACCESS, 'deleter');
    for (const title of ['One', 'Two', 'Three']) {
      const entry = await createEntry(server, admin, 'notes', { title });
      await server.request('DELETE', `/api/v1/workspaces/default/content/notes/${entry.id}`, { token });
    }
    const listed = await trashList('notes');
    expect(listed.body.meta.total).to.equal(3);
    expect(listed.body.data[0].deleted_by).to.match(/^token:/);
    const paged = await adminRequest(server, admin, 'GET', '/trash/notes?limit=1&offset=1');
    expect(paged.body.data).to.have.length(1);
    expect(paged.body.meta).to.deep.equal({ total: 3, limit: 1, offset: 1 });

    const before = await commitCount(repo);
    const emptied = await adminRequest(server, admin, 'DELETE', '/trash/notes');
    expect(emptied.status).to.equal(200);
    expect(emptied.body.data).to.deep.equal({ ok: true, purged: 3 });
    expect(await commitCount(repo)).to.equal(before + 1);
    expect((await trackedFiles(repo)).filter((file) => file.startsWith('default/trash/notes/'))).to.deep.equal([]);
    const again = await adminRequest(server, admin, 'DELETE', '/trash/notes');
    expect(again.body.data).to.deep.equal({ ok: true, purged: 0 });
    expect(await commitCount(repo)).to.equal(before + 1);
  });

  it('answers 400 for bad paging values', async () => {
    for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'limit=', 'limit=1&limit=2', 'locale=../x']) {
      const response = await adminRequest(server, admin, 'GET', `/trash/posts?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.error.code).to.equal('invalid_request');
    }
  });

  it('removes the trash of a deleted content type', async () => {
    await createType(server, admin, { name: 'drafts', fields: {} });
    const entry = await createEntry(server, admin, 'drafts', { title: 'Gone' });
    await adminRequest(server, admin, 'DELETE', `/content/drafts/${entry.id}`);
    expect((await trackedFiles(repo)).some((file) => file.startsWith('default/trash/drafts/'))).to.equal(true);
    expect((await adminRequest(server, admin, 'DELETE', '/content-types/drafts')).status).to.equal(200);
    expect((await trackedFiles(repo)).filter((file) => file.startsWith('default/trash/drafts/'))).to.deep.equal([]);
    expect((await trashList('drafts')).status).to.equal(404);
  });

  it('checks trash.read, trash.restore and trash.purge', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Guarded' });
    await adminRequest(server, admin, 'DELETE', `/content/posts/${entry.id}`);
    const editor = await sessionWithGrants(server, admin, 'no-trash', [{ effect: 'allow', actions: ['content.*', 'schema.read'], resources: ['*'] }]);
    const reader = await sessionWithGrants(server, admin, 'trash-reader', [{ effect: 'allow', actions: ['trash.read'], resources: ['trash:posts'] }]);
    const listDenied = await adminRequest(server, editor, 'GET', '/trash/posts');
    expect(listDenied.status).to.equal(403);
    expect(listDenied.body.error.code).to.equal('forbidden');
    expect((await adminRequest(server, reader, 'GET', '/trash/posts')).status).to.equal(200);
    for (const [method, url] of [['POST', `/trash/posts/${entry.id}/restore`], ['DELETE', `/trash/posts/${entry.id}`], ['DELETE', '/trash/posts']] as const) {
      const response = await adminRequest(server, reader, method, url);
      expect(response.status, `${method} ${url}`).to.equal(403);
      expect(response.body.error.code).to.equal('forbidden');
    }
    const restorer = await sessionWithGrants(server, admin, 'restorer', [{ effect: 'allow', actions: ['trash.restore'], resources: [`trash:posts:${entry.id}`] }]);
    expect((await adminRequest(server, restorer, 'POST', `/trash/posts/${entry.id}/restore`)).status).to.equal(200);
  });

  it('needs a session', async () => {
    const response = await server.request('GET', '/admin/api/trash/posts');
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('unauthenticated');
  });
});
