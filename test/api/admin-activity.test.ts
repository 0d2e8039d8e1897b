import { expect } from 'chai';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, buildAdminServer, issueToken, type AdminSession } from '../helpers/auth.ts';
import { createEntry, createType, sessionWithGrants } from '../helpers/editorial.ts';
import { commitCount, commitInfo, contentRepoOf, externalCommit } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';

interface ActivityView {
  id: string;
  time: string;
  level: string;
  type: string;
  message: string;
  user_id: string | null;
  workspace: string | null;
  details: Record<string, unknown>;
}

describe('admin activity log', () => {
  let server: TestServer;
  let admin: AdminSession;
  let adminId: string;

  before(async () => {
    ({ server, admin, adminId } = await buildAdminServer({ env: { CMS_SCHEDULER_INTERVAL_MS: '50' } }));
    await createType(server, admin, { name: 'posts', fields: {} });
  });
  after(() => server.close());

  async function activity(query = ''): Promise<{ data: ActivityView[]; meta: { total: number; limit: number; offset: number } }> {
    const response = await adminRequest(server, admin, 'GET', `/activity${query}`);
    expect(response.status, response.text).to.equal(200);
    return response.body;
  }

  async function waitFor(query: string, accept: (record: ActivityView) => boolean): Promise<ActivityView> {
    const found = await pollUntil(() => activity(query), (body) => body.data.some(accept));
    const record = found.data.find(accept);
    expect(record, `no activity matching ${query}`).to.not.equal(undefined);
    return record as ActivityView;
  }

  it('records every write with who, where and what', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Logged', slug: 'logged' });
    const record = await waitFor('?type=content.created', (item) => item.details.id === entry.id);
    expect(record).to.include({ level: 'info', type: 'content.created', message: 'Created posts/logged.', user_id: adminId, workspace: 'default' });
    expect(record.details).to.deep.equal({ type: 'posts', id: entry.id, slug: 'logged' });
    expect(Date.parse(record.time)).to.be.closeTo(Date.now(), 60_000);
    await adminRequest(server, admin, 'DELETE', `/content/posts/${entry.id}`);
    const deleted = await waitFor('?type=content', (item) => item.type === 'content.deleted' && item.details.id === entry.id);
    expect(deleted.message).to.equal('Moved to the trash: posts/logged.');
    const schema = await waitFor('?type=schema', (item) => item.type === 'schema.created');
    expect(schema).to.include({ message: 'Created the content type "posts".', user_id: adminId });
  });

  it('records a write that also publishes or unpublishes as one line that says both, found by either type', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Public', slug: 'public', status: 'published' });
    const created = await waitFor('?type=content', (item) => item.details.id === entry.id);
    expect(created).to.include({ type: 'content.created', message: 'Created and published posts/public.' });
    expect(created.details).to.deep.equal({ type: 'posts', id: entry.id, slug: 'public', events: ['content.created', 'content.published'] });
    expect((await adminRequest(server, admin, 'DELETE', `/content/posts/${entry.id}`)).status).to.equal(200);
    const deleted = await waitFor('?type=content.deleted', (item) => item.details.id === entry.id);
    expect(deleted).to.include({ message: 'Unpublished and moved to the trash: posts/public.', user_id: adminId });
    expect(deleted.details.events).to.deep.equal(['content.deleted', 'content.unpublished']);
    const lines = (await activity('?type=content&limit=500')).data.filter((item) => item.details.id === entry.id);
    expect(lines.map((item) => item.message)).to.deep.equal(['Unpublished and moved to the trash: posts/public.', 'Created and published posts/public.']);
    const unpublished = (await activity('?type=content.unpublished&limit=500')).data.filter((item) => item.details.id === entry.id);
    expect(unpublished.map((item) => item.id)).to.deep.equal([deleted.id]);
  });

  it('records sign-ins and refused sign-ins', async () => {
    const wrong = await server.request('POST', '/admin/api/login', { body: { username: ADMIN_USERNAME, password: 'wrong password' } });
    expect(wrong.status).to.equal(401);
    const failed = await waitFor('?type=auth.login_failed', (item) => item.details.username === ADMIN_USERNAME);
    expect(failed).to.include({ level: 'warning', user_id: null });
    expect(failed.details.reason).to.equal('invalid_credentials');
    expect((await server.request('POST', '/admin/api/login', { body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } })).status).to.equal(200);
    const signedIn = await waitFor('?type=auth.login', (item) => item.type === 'auth.login' && item.details.username === ADMIN_USERNAME);
    expect(signedIn).to.include({ level: 'info', user_id: adminId, message: `"${ADMIN_USERNAME}" signed in.` });
  });

  it('records refused token use: an invalid token and a missing grant', async () => {
    const unknown = await server.request('GET', '/api/v1/workspaces/default/content/posts', { token: 'cms_0123456789abcdef_nope' });
    expect(unknown.status).to.equal(401);
    const invalid = await waitFor('?type=token.denied', (item) => item.details.code === 'unauthorized');
    expect(invalid).to.include({ level: 'warning', workspace: 'default' });
    expect(invalid.details).to.include({ token_id: '0123456789abcdef', method: 'GET', path: '/api/v1/workspaces/default/content/posts' });

    const token = await issueToken(server, admin, [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }], 'reader');
    const tokenId = token.split('_')[1];
    const denied = await server.request('POST', '/api/v1/workspaces/default/content/posts', { token, body: { title: 'Nope' } });
    expect(denied.status).to.equal(403);
    const forbidden = await waitFor('?type=token.denied', (item) => item.details.code === 'forbidden');
    expect(forbidden).to.include({ user_id: `token:${tokenId}` });
    expect(forbidden.details.token_id).to.equal(tokenId);
  });

  it('records a file skipped from an outside commit as an error', async () => {
    const repo = contentRepoOf(server.dataDir);
    await externalCommit(repo, { write: { 'default/entries/posts/broken.md': '---\ntitle: [unclosed\n---\n' } }, 'Add a broken file');
    const skipped = await waitFor('?level=error', (item) => item.type === 'content.file_skipped');
    expect(skipped).to.include({ workspace: 'default' });
    expect(skipped.details.path).to.equal('default/entries/posts/broken.md');
    expect(skipped.message).to.match(/^Skipped default\/entries\/posts\/broken\.md: /);
  });

  it('records what other services report, such as webhook failures', async () => {
    await server.services.activity.record({ level: 'error', type: 'webhook.failed', message: 'Delivery to https://example.test failed.', details: { webhook_id: 'w1' } });
    const body = await activity('?type=webhook');
    expect(body.data[0]).to.include({ level: 'error', type: 'webhook.failed', user_id: null, workspace: null });
    expect(body.data[0].details).to.deep.equal({ webhook_id: 'w1' });
  });

  it('filters by level and type and pages newest first', async () => {
    for (const name of ['one', 'two', 'three']) await server.services.activity.record({ level: 'warning', type: 'test.paging', message: name });
    const page = await activity('?type=test.paging&level=warning&limit=2&offset=1');
    expect(page.data.map((item) => item.message)).to.deep.equal(['two', 'one']);
    expect(page.meta).to.deep.equal({ total: 3, limit: 2, offset: 1 });
    expect((await activity('?type=test.paging&level=info')).meta.total).to.equal(0);
    expect((await activity('?type=test')).meta.total).to.equal(3);
    expect((await activity('?type=test.pag')).meta.total).to.equal(0);
    expect((await activity()).meta.limit).to.equal(50);
  });

  it('filters by actor, content type and time', async () => {
    await createType(server, admin, { name: 'pages', fields: {} });
    const before = new Date(Date.now() - 1000).toISOString();
    await createEntry(server, admin, 'pages', { title: 'Filtered', slug: 'filtered' });
    await server.services.activity.record({ type: 'test.actor', message: 'by nobody' });
    await waitFor(`?content_type=pages&type=content.created`, (item) => item.details.slug === 'filtered');
    const byAdmin = await activity(`?actor=${adminId}&content_type=pages&from=${encodeURIComponent(before)}`);
    expect(byAdmin.data.map((item) => item.type)).to.include('content.created');
    expect(byAdmin.data.every((item) => item.user_id === adminId && item.details.type === 'pages')).to.equal(true);
    expect((await activity('?actor=nobody')).meta.total).to.equal(0);
    expect((await activity(`?type=test.actor&until=${encodeURIComponent(before)}`)).meta.total).to.equal(0);
    expect((await activity('?type=test.actor&from=2000-01-01&until=2999-01-01')).meta.total).to.equal(1);
  });

  it('answers 400 for bad query values', async () => {
    for (const query of ['level=loud', 'level=', 'limit=0', 'limit=501', 'offset=-1', 'limit=abc', 'limit=', 'type=a&type=b', 'from=yesterday', 'until=2026-13-45', 'from=1&from=2']) {
      const response = await adminRequest(server, admin, 'GET', `/activity?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.error.code).to.equal('invalid_request');
    }
  });

  it('needs activity.read', async () => {
    const editor = await sessionWithGrants(server, admin, 'no-activity', [{ effect: 'allow', actions: ['content.*'], resources: ['*'] }]);
    const response = await adminRequest(server, editor, 'GET', '/activity');
    expect(response.status).to.equal(403);
    expect(response.body.error.code).to.equal('forbidden');
    const anonymous = await server.request('GET', '/admin/api/activity');
    expect(anonymous.status).to.equal(401);
  });

  it('announces a scheduled entry once when its publish time passes, and commits its files with draft: false', async () => {
    const repo = contentRepoOf(server.dataDir);
    const soon = new Date(Date.now() + 300).toISOString();
    const first = await createEntry(server, admin, 'posts', { title: 'Scheduled', status: 'scheduled', published_at: soon });
    const commits = await commitCount(repo);
    const published = await waitFor('?type=content.published', (item) => item.details.id === first.id);
    expect(published).to.include({ user_id: null, workspace: 'default', message: `Published posts/${first.slug}.` });
    // The server made the publish commit: it is authored as the server's own commits are, not as anonymous.
    const publishCommit = await commitInfo(repo, 'HEAD');
    expect(publishCommit).to.include({ subject: `Publish posts/${first.slug}`, authorName: 'git-cms', authorEmail: 'git-cms@localhost' });
    expect(publishCommit.trailers.Actor).to.equal('system');

    const second = await createEntry(server, admin, 'posts', { title: 'Scheduled later', status: 'scheduled', published_at: new Date(Date.now() + 200).toISOString() });
    await waitFor('?type=content.published', (item) => item.details.id === second.id);
    const announcements = (await activity('?type=content.published&limit=500')).data.filter((item) => item.details.id === first.id);
    expect(announcements).to.have.length(1);
    // The first entry's publish commit, the second's create and its publish commit (docs/static-sites.md).
    expect(await commitCount(repo)).to.equal(commits + 3);
    const read = await server.request('GET', `/api/v1/workspaces/default/content/posts/${first.id}`);
    expect(read.status).to.equal(200);
    expect(read.body.data.status).to.equal('scheduled');
  });

  it('records a workspace archived or brought back as one line naming it and the count, however many entries leave or return', async () => {
    const posts = Object.fromEntries(Array.from({ length: 60 }, (_, n) => [`blog/entries/posts/post-${n}.md`, `---\ntitle: Post ${n}\nstatus: published\n---\nBody\n`]));
    const repo = contentRepoOf(server.dataDir);
    await externalCommit(repo, { write: { 'blog/workspace.yaml': 'label: Blog\n', 'blog/types/posts.yaml': 'fields: {}\n', ...posts } }, 'A blog of 60 posts');
    await pollUntil(() => activity('?workspace=blog&type=content.created'), (body) => body.meta.total === 60);
    // The 60 "Created and published" lines are found by type=content.published too: the moves are the lines with a `change`.
    const moves = async (type: string) => (await activity(`?workspace=blog&type=${type}&limit=100`)).data.filter((line) => line.details.change !== undefined);
    const lines = async (type: string, total: number) => pollUntil(() => moves(type), (found) => found.length >= total);

    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: true })).status).to.equal(200);
    const [archived] = await lines('content.unpublished', 1);
    expect(archived).to.include({ type: 'content.unpublished', message: 'Archived the workspace "blog": 60 entries left the site.', user_id: adminId, workspace: 'blog' });
    expect(archived.details).to.include({ workspace: 'blog', change: 'archived', count: 60 });
    expect(archived.details.entries).to.have.length(50).and.include('posts/post-0');

    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: false })).status).to.equal(200);
    const [back] = await lines('content.published', 1);
    expect(back).to.include({ type: 'content.published', message: 'Brought back the workspace "blog": 60 entries back on the site.', user_id: adminId });
    expect(back.details).to.include({ change: 'restored', count: 60 });

    // The same by a commit of workspace.yaml from outside, without an actor.
    await externalCommit(repo, { write: { 'blog/workspace.yaml': 'label: Blog\narchived: true\n' } }, 'Archive the blog');
    const outside = await lines('content.unpublished', 2);
    expect(outside.map((line) => line.message)).to.deep.equal(Array(2).fill('Archived the workspace "blog": 60 entries left the site.'));
    expect(outside[0].user_id).to.equal(null);
    expect(await moves('content.published')).to.have.length(1);
  });

  it('records a workspace archived or brought back with no public entry as its one line, with count 0', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'quiet', label: 'Quiet' })).status).to.equal(201);
    const lines = (type: string, total: number) => pollUntil(() => activity(`?workspace=quiet&type=${type}`), (body) => body.data.length >= total);

    expect((await adminRequest(server, admin, 'PUT', '/workspaces/quiet', { archived: true })).status).to.equal(200);
    const [archived] = (await lines('content.unpublished', 1)).data;
    expect(archived).to.include({ level: 'info', type: 'content.unpublished', message: 'Archived the workspace "quiet": 0 entries left the site.', user_id: adminId, workspace: 'quiet' });
    expect(archived.details).to.deep.equal({ workspace: 'quiet', change: 'archived', count: 0, entries: [] });

    expect((await adminRequest(server, admin, 'PUT', '/workspaces/quiet', { archived: false })).status).to.equal(200);
    const [back] = (await lines('content.published', 1)).data;
    expect(back).to.include({ type: 'content.published', message: 'Brought back the workspace "quiet": 0 entries back on the site.', user_id: adminId });

    // The same by a commit of workspace.yaml from outside, without an actor.
    await externalCommit(contentRepoOf(server.dataDir), { write: { 'quiet/workspace.yaml': 'label: Quiet\narchived: true\n' } }, 'Archive the quiet workspace');
    const [outside] = (await lines('content.unpublished', 2)).data;
    expect(outside).to.include({ message: 'Archived the workspace "quiet": 0 entries left the site.', user_id: null });
  });

  it('records a workspace a commit removed as one line counting its types and entries, while every event is still told', async () => {
    const posts = Object.fromEntries(Array.from({ length: 60 }, (_, n) => [`shop/entries/${n % 2 ? 'pages' : 'items'}/item-${n}.md`, `---\ntitle: Item ${n}\nstatus: ${n < 30 ? 'published' : 'draft'}\n---\nBody\n`]));
    const files = { 'shop/workspace.yaml': 'label: Shop\n', 'shop/types/items.yaml': 'fields: {}\n', 'shop/types/pages.yaml': 'fields: {}\n', ...posts };
    const repo = contentRepoOf(server.dataDir);
    await externalCommit(repo, { write: files }, 'A shop of 60 items');
    await pollUntil(() => activity('?workspace=shop&type=content.created'), (body) => body.meta.total === 60);

    await externalCommit(repo, { remove: Object.keys(files) }, 'git rm -r shop/');
    const found = await pollUntil(() => activity('?workspace=shop&type=content.deleted&limit=100'), (body) => body.data.some((line) => line.details.change === 'removed'));
    expect(found.meta.total, 'no line per entry').to.equal(1);
    const [removed] = found.data;
    expect(removed).to.include({ level: 'info', type: 'content.deleted', message: 'The workspace "shop" was removed by a commit: 2 types and 60 entries went.', user_id: null, workspace: 'shop' });
    expect(removed.details).to.include({ workspace: 'shop', change: 'removed', count: 60, types: 2 });
    expect(removed.details.entries).to.have.length(50).and.include('items/item-0');
    expect(removed.details.events).to.have.members(['schema.deleted', 'content.deleted', 'content.unpublished']);
    // Found by the types it told: the two types' created lines and the removal.
    expect((await activity('?workspace=shop&type=schema')).meta.total).to.equal(3);

    // A workspace that held nothing is one line too.
    await externalCommit(repo, { write: { 'void/workspace.yaml': 'label: Void\n' } }, 'An empty workspace');
    await pollUntil(() => adminRequest(server, admin, 'GET', '/workspaces'), (response) => response.body.data.some((workspace: { slug: string }) => workspace.slug === 'void'));
    await externalCommit(repo, { remove: ['void/workspace.yaml'] }, 'Remove it');
    const [gone] = (await pollUntil(() => activity('?workspace=void'), (body) => body.data.length > 0)).data;
    expect(gone.message).to.equal('The workspace "void" was removed by a commit: 0 types and 0 entries went.');
  });
});
