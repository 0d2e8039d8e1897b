// Entries that leave the public API, or come back to it, without a write of
// their own still tell content.published / content.unpublished (docs/operations.md
// "Publication events"): a type deleted with its entries, a collection made a
// single page, a workspace archived or brought back by the admin API or by a
// commit of workspace.yaml from outside, a workspace whose workspace.yaml a
// commit adds, or removes (its entries are then deleted, as with its whole
// folder). Told to a real webhook receiver, as in publication-events.test.ts.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { commitByHand, contentRepoOf, externalCommit, fileAt, git } from '../helpers/git.ts';
import { startLocalHttp, type LocalHttpServer } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';
import { takeDeliveries, TICK_BY_HAND_ENV } from '../helpers/webhook-deliveries.ts';

const HOUR = 3_600_000;

describe('publication events of entries that leave or rejoin the public API all together', () => {
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let receiver: LocalHttpServer;

  beforeEach(async () => {
    receiver = await startLocalHttp();
    ({ server, admin, token } = await buildAdminServer({ env: TICK_BY_HAND_ENV, token: FULL_ACCESS }));
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'blog', label: 'Blog' })).status).to.equal(201);
    for (const ws of ['default', 'blog']) {
      expect((await server.request('POST', `/api/v1/workspaces/${ws}/content-types`, { body: { name: 'posts' }, token })).status).to.equal(201);
    }
    const hooks = await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: [{ url: `${receiver.url}/hook`, events: ['content.created', 'content.updated', 'content.published', 'content.unpublished', 'content.deleted', 'content.restored'] }] });
    expect(hooks.status).to.equal(200);
  });
  afterEach(async () => {
    await server?.close();
    await receiver.close();
  });

  // The events delivered since the last call, as `event workspace/id` sorted, once the queue has drained.
  const delivered = (count: number) => takeDeliveries(server, receiver, count, ({ event, workspace, data }) => `${event} ${workspace}/${data.id}`);

  async function create(ws: string, body: Record<string, unknown>): Promise<string> {
    const response = await server.request('POST', `/api/v1/workspaces/${ws}/content/posts`, { body, token });
    expect(response.status).to.equal(201);
    return response.body.data.id as string;
  }

  // A public entry, a due scheduled one (public too), a draft and one scheduled for later, in `ws`; their events drained.
  async function fourPosts(ws: string): Promise<{ published: string; due: string; draft: string; later: string }> {
    const posts = {
      published: await create(ws, { title: 'Published', status: 'published' }),
      due: await create(ws, { title: 'Due', status: 'scheduled', published_at: new Date(Date.now() - HOUR).toISOString() }),
      draft: await create(ws, { title: 'Draft' }),
      later: await create(ws, { title: 'Later', status: 'scheduled', published_at: new Date(Date.now() + HOUR).toISOString() }),
    };
    await delivered(6);
    return posts;
  }

  // A write whose one event shows that nothing else was told before it.
  async function expectNothingElse(): Promise<void> {
    const marker = await create('default', { title: 'Marker' });
    expect(await delivered(1)).to.deep.equal([`content.created default/${marker}`]);
  }

  it('deletes every entry of a deleted type, unpublishing the public ones, as an entry delete does', async () => {
    const { published, due, draft, later } = await fourPosts('blog');
    expect((await server.request('DELETE', '/api/v1/workspaces/blog/content-types/posts', { token })).status).to.be.oneOf([200, 204]);
    expect(await delivered(6)).to.deep.equal([
      ...[published, due, draft, later].map((id) => `content.deleted blog/${id}`),
      `content.unpublished blog/${published}`,
      `content.unpublished blog/${due}`,
    ].sort());
  });

  it('tells the one public entry of a collection made a single page gone from its address, and the page published', async () => {
    const id = await create('blog', { title: 'Only', status: 'published' });
    await delivered(2);
    const converted = await server.request('PUT', '/api/v1/workspaces/blog/content-types/posts', { body: { singleton: true }, token });
    expect(converted.status).to.equal(200);
    expect((await server.request('GET', '/api/v1/workspaces/blog/content/posts')).body.data).to.include({ id: 'posts', title: 'Only' });
    expect(await delivered(4)).to.deep.equal([`content.deleted blog/${id}`, `content.unpublished blog/${id}`, 'content.created blog/posts', 'content.published blog/posts'].sort());
  });

  it('unpublishes the public entries of a workspace the admin API archives, and publishes them again when it is brought back', async () => {
    const { published, due } = await fourPosts('blog');
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: true })).status).to.equal(200);
    expect((await server.request('GET', `/api/v1/workspaces/blog/content/posts/${published}`)).status).to.equal(404);
    expect(await delivered(2)).to.deep.equal([`content.unpublished blog/${published}`, `content.unpublished blog/${due}`].sort());
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: false })).status).to.equal(200);
    expect(await delivered(2)).to.deep.equal([`content.published blog/${published}`, `content.published blog/${due}`].sort());
    expect(await server.services.scheduler.tick()).to.equal(0);
    await expectNothingElse();
  });

  it('rewrites with draft: false the files of a scheduled entry that came due while its workspace was archived, told published once when it is brought back', async () => {
    const repo = contentRepoOf(server.dataDir);
    const file = 'blog/entries/posts/due-while-archived.md';
    const dueAt = Date.now() + 300;
    const id = await create('blog', { title: 'Due while archived', status: 'scheduled', published_at: new Date(dueAt).toISOString() });
    expect(await delivered(1)).to.deep.equal([`content.created blog/${id}`]);
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: true })).status).to.equal(200);
    await pollUntil(async () => Date.now(), (now) => now > dueAt);
    // The timer's look while the workspace is archived passes it by.
    expect(await server.services.scheduler.tick()).to.equal(0);
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: false })).status).to.equal(200);
    expect(await delivered(1)).to.deep.equal([`content.published blog/${id}`]);
    // Bringing the workspace back changes only workspace.yaml: the file still says what it said before the date.
    expect(await fileAt(repo, file)).to.match(/^draft: true$/m);
    expect(await server.services.scheduler.tick()).to.equal(0);
    expect(await fileAt(repo, file)).to.match(/^draft: false$/m);
    await expectNothingElse();
  });

  it('gives a batched webhook one content.batch for an archive, however many entries leave', async () => {
    const { published, due } = await fourPosts('blog');
    const hooks = await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: [{ url: `${receiver.url}/build`, events: ['content.unpublished'], batch: true }] });
    expect(hooks.status).to.equal(200);
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: true })).status).to.equal(200);
    await pollUntil(async () => receiver.requests.length, (seen) => seen >= 1);
    await pollUntil(async () => server.services.webhookDispatcher.pending().length, (pending) => pending === 0);
    const bodies = receiver.requests.map((request) => JSON.parse(request.body.toString('utf8')) as { event: string; data: { changes: { id: string; change: string }[] } });
    expect(bodies.map((body) => body.event)).to.deep.equal(['content.batch']);
    expect(bodies[0].data.changes.map(({ id, change }) => `${change} ${id}`).sort()).to.deep.equal([`unpublished ${published}`, `unpublished ${due}`].sort());
  });

  it('unpublishes and publishes again the public entries of a workspace archived and brought back by commits of workspace.yaml from outside, and tells no publication of entries edited while archived', async () => {
    const { published, due, draft } = await fourPosts('blog');
    const repo = contentRepoOf(server.dataDir);
    const file = 'blog/workspace.yaml';
    const active = await fileAt(repo, file);
    const archived = active.replace(/^archived: false$/m, 'archived: true');
    expect(archived).to.not.equal(active);
    await externalCommit(repo, { write: { [file]: archived } }, 'Archive the blog');
    expect(await delivered(2)).to.deep.equal([`content.unpublished blog/${published}`, `content.unpublished blog/${due}`].sort());
    // Off the site while archived: publishing a draft there is news only when the workspace comes back.
    const draftFile = 'blog/entries/posts/draft.md';
    const draftText = (await fileAt(repo, draftFile)).replace(/^status: draft$/m, 'status: published').replace(/^draft: true$/m, 'draft: false');
    await externalCommit(repo, { write: { [draftFile]: draftText } }, 'Publish the draft while archived');
    expect(await delivered(1)).to.deep.equal([`content.updated blog/${draft}`]);
    await externalCommit(repo, { write: { [file]: active } }, 'Bring the blog back');
    expect(await delivered(3)).to.deep.equal([published, due, draft].map((id) => `content.published blog/${id}`).sort());
    expect(await server.services.scheduler.tick()).to.equal(0);
    await expectNothingElse();
  });

  it('deletes every entry of a workspace whose workspace.yaml a commit from outside removes, unpublishing the public ones', async () => {
    const { published, due, draft, later } = await fourPosts('blog');
    const repo = contentRepoOf(server.dataDir);
    await externalCommit(repo, { remove: ['blog/workspace.yaml'] }, 'Drop the blog');
    expect(await delivered(6)).to.deep.equal([
      ...[published, due, draft, later].map((id) => `content.deleted blog/${id}`),
      `content.unpublished blog/${published}`,
      `content.unpublished blog/${due}`,
    ].sort());
    await expectNothingElse();
  });

  it('deletes every entry of a workspace whose folder a developer removes with git rm -r, as the admin API\'s type delete does, and no more once it is gone', async () => {
    const { published, due, draft, later } = await fourPosts('blog');
    const repo = contentRepoOf(server.dataDir);
    await git(repo, ['rm', '-r', '-q', '--', 'blog']);
    await commitByHand(repo, ['-q', '-m', 'Remove the blog']);
    expect(await delivered(6)).to.deep.equal([
      ...[published, due, draft, later].map((id) => `content.deleted blog/${id}`),
      `content.unpublished blog/${published}`,
      `content.unpublished blog/${due}`,
    ].sort());
    expect((await server.request('GET', '/api/v1/workspaces/blog/content/posts')).status).to.equal(404);
    // A stray file left in the folder later is no workspace: nothing of the blog is told again.
    await externalCommit(repo, { write: { 'blog/notes.txt': 'Gone.\n' } }, 'Leave a note');
    await expectNothingElse();
  });

  it('tells the entries of a workspace that arrives by a commit from outside created, and the public ones published', async () => {
    const repo = contentRepoOf(server.dataDir);
    const post = (id: string, status: string) => `---\nid: ${id}\ntitle: Pushed\nstatus: ${status}\n---\nFrom git.\n`;
    await externalCommit(repo, {
      write: {
        'shop/workspace.yaml': 'label: Shop\narchived: false\n',
        'shop/types/posts.yaml': 'label: Posts\nfields: {}\n',
        'shop/entries/posts/open.md': post('open', 'published'),
        'shop/entries/posts/closed.md': post('closed', 'draft'),
      },
    }, 'Add a shop');
    expect(await delivered(3)).to.deep.equal(['content.created shop/closed', 'content.created shop/open', 'content.published shop/open']);
    expect((await server.request('GET', '/api/v1/workspaces/shop/content/posts/open')).status).to.equal(200);
  });
});
