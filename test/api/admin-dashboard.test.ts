import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { createEntry, createType, sessionWithGrants } from '../helpers/editorial.ts';
import { commitByHand, contentRepoOf, git, headOid } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';
import { PDF_BYTES, uploadMedia } from './media-fixtures.ts';

describe('admin dashboard and app', () => {
  let server: TestServer;
  let admin: AdminSession;

  before(async () => {
    ({ server, admin } = await buildAdminServer());
    await createType(server, admin, { name: 'posts', fields: {} });
    await createType(server, admin, { name: 'pages', fields: {} });
    for (const [title, status] of [['P1', 'draft'], ['P2', 'published'], ['P3', 'published'], ['P4', 'archived']]) {
      await createEntry(server, admin, 'posts', { title, status });
    }
    await createEntry(server, admin, 'pages', { title: 'Home', status: 'published' });
  });
  after(() => server.close());

  it('counts entries by type and status and lists recent edits and activity', async () => {
    await adminRequest(server, admin, 'PUT', '/content/posts/p1', { title: 'P1 edited' });
    await pollUntil(() => adminRequest(server, admin, 'GET', '/activity?type=content.updated'), (response) => response.body.meta.total === 1);
    const response = await adminRequest(server, admin, 'GET', '/dashboard');
    expect(response.status).to.equal(200);
    const data = response.body.data;
    expect(data.workspace).to.equal('default');
    expect(data.types).to.deep.equal([
      { name: 'pages', label: 'pages', singleton: false, total: 1, by_status: { draft: 0, published: 1, scheduled: 0, protected: 0, archived: 0 } },
      { name: 'posts', label: 'posts', singleton: false, total: 4, by_status: { draft: 1, published: 2, scheduled: 0, protected: 0, archived: 1 } },
    ]);
    expect(data.totals).to.deep.equal({ entries: 5, by_status: { draft: 1, published: 3, scheduled: 0, protected: 0, archived: 1 } });
    expect(data.media).to.have.keys(['count', 'bytes']);
    const slugs = data.recent_edits.map((edit: { slug: string }) => edit.slug);
    expect(slugs[0]).to.equal('p1');
    expect(slugs.slice(1)).to.have.members(['home', 'p4', 'p3', 'p2']);
    expect(data.recent_edits[0]).to.include({ type: 'posts', title: 'P1 edited', status: 'draft' });
    expect(data.recent_activity[0]).to.include({ type: 'content.updated', message: 'Updated posts/p1.' });
    expect(data.recent_activity.length).to.be.at.most(10);
  });

  it('counts media files and bytes of the workspace', async () => {
    const uploaded = await uploadMedia(server, [{ filename: 'a.pdf', bytes: PDF_BYTES, type: 'application/pdf' }, { filename: 'b.pdf', bytes: PDF_BYTES, type: 'application/pdf' }], { session: admin });
    expect(uploaded.status, uploaded.text).to.equal(201);
    const response = await adminRequest(server, admin, 'GET', '/dashboard');
    expect(response.body.data.media).to.deep.equal({ count: 2, bytes: 2 * PDF_BYTES.length });
  });

  it('lists scheduled entries soonest first, and files from git that were skipped with their reasons', async () => {
    const later = new Date(Date.now() + 48 * 3600_000).toISOString();
    const sooner = new Date(Date.now() + 24 * 3600_000).toISOString();
    await createType(server, admin, { name: 'events', fields: {} });
    await createEntry(server, admin, 'events', { title: 'Later', status: 'scheduled', published_at: later });
    await createEntry(server, admin, 'events', { title: 'Sooner', status: 'scheduled', published_at: sooner });
    const repo = contentRepoOf(server.dataDir);
    await writeFile(path.join(repo, 'default/entries/posts/broken.md'), '---\ntitle: [unclosed\n---\n');
    await git(repo, ['add', '.']);
    await commitByHand(repo, ['-q', '-m', 'Add a broken file']);
    const response = await pollUntil(() => adminRequest(server, admin, 'GET', '/dashboard'), (answer) => answer.body.data.skipped_files.length > 0);
    const data = response.body.data;
    expect(data.scheduled.map((entry: { title: string }) => entry.title)).to.deep.equal(['Sooner', 'Later']);
    expect(data.scheduled[0]).to.include({ type: 'events', published_at: sooner });
    expect(data.skipped_files[0].path).to.equal('default/entries/posts/broken.md');
    expect(data.skipped_files[0].reason).to.be.a('string').and.not.equal('');
    const reader = await sessionWithGrants(server, admin, 'no-activity', [{ effect: 'allow', actions: ['content.read', 'schema.read'], resources: ['*'] }]);
    expect((await adminRequest(server, reader, 'GET', '/dashboard')).body.data.skipped_files).to.deep.equal([]);
  });

  it('shows only what the user may read', async () => {
    const reader = await sessionWithGrants(server, admin, 'posts-reader', [{ effect: 'allow', actions: ['content.read', 'schema.read'], resources: ['content:posts:*', 'schema:*'] }]);
    const response = await adminRequest(server, reader, 'GET', '/dashboard');
    expect(response.status).to.equal(200);
    expect(response.body.data.types.map((type: { name: string }) => type.name)).to.deep.equal(['posts']);
    expect(response.body.data.totals.entries).to.equal(4);
    expect(response.body.data.media).to.equal(null);
    expect(response.body.data.recent_activity).to.deep.equal([]);
    expect(response.body.data.recent_edits.every((edit: { type: string }) => edit.type === 'posts')).to.equal(true);
  });

  it('answers for the workspace in X-Service-Workspace, 404 for an unknown one', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    const shop = await adminRequest(server, admin, 'GET', '/dashboard', undefined, { 'x-service-workspace': 'shop' });
    expect(shop.status).to.equal(200);
    expect(shop.body.data).to.include({ workspace: 'shop' });
    expect(shop.body.data.types).to.deep.equal([]);
    const unknown = await adminRequest(server, admin, 'GET', '/dashboard', undefined, { 'x-service-workspace': 'nope' });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
  });

  it('describes the app: name, version, workspaces, limits, features and the content repo HEAD', async () => {
    const repo = contentRepoOf(server.dataDir);
    const response = await adminRequest(server, admin, 'GET', '/app');
    expect(response.status).to.equal(200);
    const data = response.body.data;
    expect(data).to.include({ name: 'git-cms', default_workspace: 'default', workspace: 'default' });
    expect(data.version).to.match(/^\d+\.\d+\.\d+/);
    expect(data.limits).to.deep.equal({ json_body_bytes: 1024 * 1024, upload_file_bytes: 50 * 1024 * 1024, upload_files: 20, bulk_ids: 1000 });
    expect(data.features).to.include({ revisions: true, trash: true, scheduled_publishing: true });
    expect(data.features.thumbnails).to.be.a('boolean');
    expect(data.content_repo).to.deep.equal({ branch: (await git(repo, ['symbolic-ref', '--short', 'HEAD'])).trim(), head: await headOid(repo) });
    expect(data.content_repo.branch).to.equal('main');
  });

  it('needs a session', async () => {
    for (const url of ['/admin/api/dashboard', '/admin/api/app']) {
      const response = await server.request('GET', url);
      expect(response.status, url).to.equal(401);
      expect(response.body.error.code).to.equal('unauthenticated');
    }
  });
});
