// Webhooks for site builds (issue 13 item 7): every delivery names the commit
// that caused it, and a webhook set to `batch` gets one `content.batch` per
// commit listing every entry it changed: for a bulk write, a commit made with
// plain git in the content folder and a push over HTTP; and one `media.batch`
// per change listing its media files: an upload of several, a backup
// restore. A receiving HTTP server on port 0 records what arrives.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { cloneFrom, commitIn, mustGit, removeFolders, repoUrl } from '../helpers/git-client.ts';
import { contentRepoOf, externalCommit, headOid } from '../helpers/git.ts';
import { startLocalHttp, type LocalHttpServer, type ReceivedRequest } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';
import { awaitDeliveries } from '../helpers/webhook-deliveries.ts';
import { makePng, uploadMedia } from './media-fixtures.ts';

const FAST = { CMS_WEBHOOK_RETRY_BASE_MS: '20', CMS_WEBHOOK_TIMEOUT_MS: '300' };
const POSTS = '/api/v1/workspaces/default/content/posts';

interface Change {
  type: string;
  id: string;
  slug: string;
  change: string;
  previous_slug?: string;
}

interface Delivered {
  event: string;
  occurred_at: string;
  workspace: string;
  commit: string | null;
  data: Record<string, unknown>;
}

function bodiesAt(requests: ReceivedRequest[], url: string): Delivered[] {
  return requests.filter((request) => request.url === url).map((request) => JSON.parse(request.body.toString('utf8')) as Delivered);
}

function byId(changes: unknown): Change[] {
  return [...(changes as Change[])].sort((a, b) => a.id.localeCompare(b.id));
}

function entryFile(id: string, title: string): string {
  return ['---', `id: ${id}`, `title: ${title}`, 'status: published', 'published_at: 2024-01-01T00:00:00.000Z', '---', 'Body', ''].join('\n');
}

describe('webhooks for site builds: commit ids and content.batch', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let receiver: LocalHttpServer;
  let repo: string;

  beforeEach(async () => {
    receiver = await startLocalHttp();
    ({ server, admin, token } = await buildAdminServer({ env: FAST, token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    const type = await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts', fields: { body: { type: 'markdown' } } }, token });
    expect(type.status).to.equal(201);
  });
  afterEach(async () => {
    await server?.close();
    await receiver.close();
    await removeFolders();
  });

  async function configure(hooks: unknown[]) {
    const response = await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: hooks });
    expect(response.status).to.equal(200);
    return response;
  }

  // Waits for `count` requests, then for the queue to drain, so late extra deliveries would show.
  const received = (count: number) => awaitDeliveries(server, receiver, count);

  async function createPosts(...titles: string[]): Promise<{ id: string; slug: string }[]> {
    const made = [];
    for (const title of titles) {
      const response = await server.request('POST', POSTS, { body: { title }, token });
      expect(response.status).to.equal(201);
      made.push({ id: response.body.data.id as string, slug: response.body.data.slug as string });
    }
    return made;
  }

  it('stores the batch setting, shows it, keeps it when omitted and refuses a value that is not true or false', async () => {
    const put = await configure([{ id: 'builds', url: `${receiver.url}/b`, events: ['*'], batch: true }, { id: 'each', url: `${receiver.url}/e`, events: ['*'] }]);
    expect(put.body.data.map((hook: { id: string; batch: boolean }) => [hook.id, hook.batch])).to.deep.equal([['builds', true], ['each', false]]);
    await configure([{ id: 'builds', url: `${receiver.url}/b2`, events: ['*'] }, { id: 'each', url: `${receiver.url}/e`, events: ['*'], batch: false }]);
    const list = await adminRequest(server, admin, 'GET', '/webhooks');
    expect(list.body.data.map((hook: { id: string; batch: boolean }) => [hook.id, hook.batch])).to.deep.equal([['builds', true], ['each', false]]);

    const bad = await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: [{ url: `${receiver.url}/b`, events: ['*'], batch: 'yes' }] });
    expect(bad.status).to.equal(422);
    expect(bad.body.error.code).to.equal('validation_failed');
    expect(bad.body.error.fields).to.have.all.keys('webhooks.0.batch');
    expect((await adminRequest(server, admin, 'GET', '/webhooks')).body.data).to.deep.equal(list.body.data);
  });

  it('names the commit in every delivery: the repo\'s HEAD after the write that caused it', async () => {
    await configure([{ url: `${receiver.url}/each`, events: ['*'] }]);
    const [post] = await createPosts('Hello');
    await received(1);
    const created = bodiesAt(receiver.requests, '/each');
    expect(created.map((body) => body.event)).to.deep.equal(['content.created']);
    expect(created[0]).to.have.all.keys('event', 'occurred_at', 'workspace', 'commit', 'data');
    expect(created[0].commit).to.match(/^[0-9a-f]{40}$/);
    expect(created[0].commit).to.equal(await headOid(repo));
    expect(created[0].data).to.deep.equal({ type: 'posts', ...post });

    receiver.requests.length = 0;
    expect((await server.request('PUT', '/api/v1/workspaces/default/content-types/posts', { body: { label: 'Posts' }, token })).status).to.equal(200);
    await received(1);
    const [schema] = bodiesAt(receiver.requests, '/each');
    expect(schema.event).to.equal('schema.updated');
    expect(schema.commit).to.equal(await headOid(repo));
    expect(schema.commit).to.not.equal(created[0].commit);
  });

  it('delivers a bulk write as one content.batch listing every entry, and one event per entry to the others', async () => {
    const posts = await createPosts('One', 'Two', 'Three');
    await configure([
      { url: `${receiver.url}/batch`, events: ['content.updated'], batch: true },
      { url: `${receiver.url}/each`, events: ['content.updated', 'content.published'] },
    ]);
    const bulk = await adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: posts.map((post) => post.id), changes: { status: 'published' } });
    expect(bulk.status).to.equal(200);
    const head = await headOid(repo);
    await received(7);

    const batches = bodiesAt(receiver.requests, '/batch');
    expect(batches).to.have.length(1);
    expect(batches[0]).to.have.all.keys('event', 'occurred_at', 'workspace', 'commit', 'data');
    expect(batches[0]).to.include({ event: 'content.batch', workspace: 'default', commit: head });
    expect(byId(batches[0].data.changes)).to.deep.equal(byId(posts.map((post) => ({ type: 'posts', ...post, change: 'published', events: ['content.updated', 'content.published'] }))));
    const batchRequest = receiver.requests.find((request) => request.url === '/batch');
    expect(batchRequest?.headers['x-service-event']).to.equal('content.batch');

    const each = bodiesAt(receiver.requests, '/each');
    expect(each.map((body) => body.event).sort()).to.deep.equal([...Array(3).fill('content.published'), ...Array(3).fill('content.updated')]);
    for (const body of each) expect(body.commit).to.equal(head);

    receiver.requests.length = 0;
    const deleted = await adminRequest(server, admin, 'DELETE', '/content/posts/bulk', { ids: [posts[0].id, posts[2].id] });
    expect(deleted.status).to.equal(200);
    // The batched webhook subscribes to content.updated only: a commit that only deletes is not its business.
    await configure([{ url: `${receiver.url}/batch`, events: ['content.deleted'], batch: true }]);
    const again = await adminRequest(server, admin, 'DELETE', '/content/posts/bulk', { ids: [posts[1].id] });
    expect(again.status).to.equal(200);
    await received(1);
    const [removal] = bodiesAt(receiver.requests, '/batch');
    expect(receiver.requests).to.have.length(1);
    expect(removal).to.include({ event: 'content.batch', commit: await headOid(repo) });
    expect(removal.data.changes).to.deep.equal([{ type: 'posts', ...posts[1], change: 'deleted', events: ['content.deleted', 'content.unpublished'] }]);
  });

  it('delivers an external git commit touching three entries as one content.batch', async () => {
    const [kept, removed] = await createPosts('Kept', 'Removed');
    await configure([
      { url: `${receiver.url}/batch`, events: ['*'], batch: true },
      { url: `${receiver.url}/each`, events: ['content.created', 'content.updated', 'content.deleted'] },
    ]);
    const keptFile = (await mustGit(repo, ['show', `HEAD:default/entries/posts/${kept.slug}.md`])).replace('title: Kept', 'title: Kept, edited');
    const head = await externalCommit(
      repo,
      { write: { 'default/entries/posts/added.md': entryFile('added00001', 'Added'), [`default/entries/posts/${kept.slug}.md`]: keptFile }, remove: [`default/entries/posts/${removed.slug}.md`] },
      'Edit three posts with git',
    );
    await received(4);

    const batches = bodiesAt(receiver.requests, '/batch');
    expect(batches).to.have.length(1);
    expect(batches[0]).to.include({ event: 'content.batch', workspace: 'default', commit: head });
    expect(byId(batches[0].data.changes)).to.deep.equal(
      byId([
        { type: 'posts', id: 'added00001', slug: 'added', change: 'created', events: ['content.created', 'content.published'] },
        { type: 'posts', ...kept, change: 'updated', events: ['content.updated'] },
        { type: 'posts', ...removed, change: 'deleted', events: ['content.deleted'] },
      ]),
    );
    const each = bodiesAt(receiver.requests, '/each');
    expect(each.map((body) => body.event).sort()).to.deep.equal(['content.created', 'content.deleted', 'content.updated']);
    for (const body of each) expect(body.commit).to.equal(head);
  });

  it('delivers a push over HTTP as one content.batch naming the pushed head, with previous_slug on a rename', async () => {
    const [renamed] = await createPosts('Renamed');
    await configure([{ url: `${receiver.url}/batch`, events: ['content.updated', 'content.created'], batch: true }]);
    const work = await cloneFrom(repoUrl(server.baseUrl, token));
    const text = await mustGit(work, ['show', `HEAD:default/entries/posts/${renamed.slug}.md`]);
    await commitIn(work, { [`default/entries/posts/${renamed.slug}.md`]: null, 'default/entries/posts/sequel.md': text }, 'Rename a post');
    const pushed = await commitIn(work, { 'default/entries/posts/pushed.md': entryFile('pushed0001', 'Pushed') }, 'Add a post');
    await mustGit(work, ['push', '--quiet']);
    await received(1);

    const batches = bodiesAt(receiver.requests, '/batch');
    expect(batches).to.have.length(1);
    expect(batches[0]).to.include({ event: 'content.batch', commit: pushed });
    expect(pushed).to.equal(await headOid(repo));
    expect(byId(batches[0].data.changes)).to.deep.equal(
      byId([
        { type: 'posts', id: renamed.id, slug: 'sequel', change: 'updated', events: ['content.updated'], previous_slug: renamed.slug },
        { type: 'posts', id: 'pushed0001', slug: 'pushed', change: 'created', events: ['content.created', 'content.published'] },
      ]),
    );
  });

  it('names each change by its event: an entry archived, deleted, restored from the trash, its workspace archived and brought back', async () => {
    const publish = async (workspace: string, title: string) => {
      const response = await server.request('POST', `/api/v1/workspaces/${workspace}/content/posts`, { body: { title, status: 'published' }, token });
      expect(response.status).to.equal(201);
      return { id: response.body.data.id as string, slug: response.body.data.slug as string };
    };
    const archived = await publish('default', 'Archived');
    const binned = await publish('default', 'Binned');
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    expect((await server.request('POST', '/api/v1/workspaces/shop/content-types', { body: { name: 'posts' }, token })).status).to.equal(201);
    const shelved = await publish('shop', 'Shelved');
    await configure([{ url: `${receiver.url}/batch`, events: ['content.updated', 'content.published', 'content.unpublished', 'content.deleted', 'content.restored'], batch: true }]);
    const changesOf = async (write: () => Promise<{ status: number }>) => {
      expect((await write()).status).to.equal(200);
      await received(1);
      const batches = bodiesAt(receiver.requests, '/batch');
      receiver.requests.length = 0;
      expect(batches.map((batch) => batch.event)).to.deep.equal(['content.batch']);
      return batches[0].data.changes;
    };

    expect(await changesOf(() => server.request('PATCH', `${POSTS}/${archived.id}`, { body: { status: 'archived' }, token }))).to.deep.equal([
      { type: 'posts', ...archived, change: 'unpublished', events: ['content.updated', 'content.unpublished'] },
    ]);
    expect(await changesOf(() => server.request('DELETE', `${POSTS}/${binned.id}`, { token }))).to.deep.equal([{ type: 'posts', ...binned, change: 'deleted', events: ['content.deleted', 'content.unpublished'] }]);
    expect(await changesOf(() => adminRequest(server, admin, 'POST', `/trash/posts/${binned.id}/restore`))).to.deep.equal([
      { type: 'posts', ...binned, change: 'restored', events: ['content.restored', 'content.published'] },
    ]);
    expect(await changesOf(() => adminRequest(server, admin, 'DELETE', '/workspaces/shop'))).to.deep.equal([{ type: 'posts', ...shelved, change: 'unpublished', events: ['content.unpublished'] }]);
    expect(await changesOf(() => adminRequest(server, admin, 'PUT', '/workspaces/shop', { archived: false }))).to.deep.equal([{ type: 'posts', ...shelved, change: 'published', events: ['content.published'] }]);
  });

  it('delivers the media files a restore places as one media.batch to batched webhooks subscribed to a media event, and one event per file to the others', async () => {
    const uploaded = await uploadMedia(server, [
      { filename: 'a.png', bytes: await makePng(10, 10) },
      { filename: 'b.png', bytes: await makePng(11, 10) },
      { filename: 'c.png', bytes: await makePng(12, 10) },
    ], { session: admin });
    expect(uploaded.status, uploaded.text).to.equal(201);
    const filenames = (uploaded.body.data as { filename: string }[]).map((item) => item.filename).sort();
    const backup = await adminRequest(server, admin, 'POST', '/backups', { parts: ['media'] });
    expect(backup.status).to.equal(201);
    for (const filename of filenames) expect((await adminRequest(server, admin, 'DELETE', `/media/${filename}`)).status).to.equal(200);
    await configure([
      { url: `${receiver.url}/media-only`, events: ['media.uploaded'], batch: true },
      { url: `${receiver.url}/everything`, events: ['*'], batch: true },
      { url: `${receiver.url}/entries-only`, events: ['content.created', 'media.deleted'], batch: true },
      { url: `${receiver.url}/each`, events: ['media.uploaded'] },
    ]);

    const restored = await adminRequest(server, admin, 'POST', `/backups/${backup.body.data.name}/restore`, { parts: ['media'] });
    expect(restored.status, restored.text).to.equal(200);
    await received(5);
    const changes = filenames.map((filename) => ({ filename, change: 'uploaded', events: ['media.uploaded'] }));
    for (const url of ['/media-only', '/everything']) {
      const batches = bodiesAt(receiver.requests, url);
      expect(batches, url).to.have.length(1);
      expect(batches[0]).to.have.all.keys('event', 'occurred_at', 'workspace', 'commit', 'data');
      // The binaries are placed after the restore's commit, not by it (docs/operations.md "Restore").
      expect(batches[0]).to.include({ event: 'media.batch', workspace: 'default', commit: null });
      expect([...(batches[0].data.changes as { filename: string }[])].sort((x, y) => x.filename.localeCompare(y.filename))).to.deep.equal(changes);
      expect(receiver.requests.find((request) => request.url === url)?.headers['x-service-event']).to.equal('media.batch');
    }
    expect(bodiesAt(receiver.requests, '/entries-only'), 'no media event it subscribes to').to.deep.equal([]);
    const each = bodiesAt(receiver.requests, '/each');
    expect(each.map((body) => `${body.event} ${body.data.filename}`).sort()).to.deep.equal(filenames.map((filename) => `media.uploaded ${filename}`));
  });

  it('delivers the media files of one upload as one media.batch naming its commit', async () => {
    await configure([{ url: `${receiver.url}/batch`, events: ['media.uploaded'], batch: true }]);
    const uploaded = await uploadMedia(server, [
      { filename: 'one.png', bytes: await makePng(10, 10) },
      { filename: 'two.png', bytes: await makePng(11, 10) },
    ], { session: admin });
    expect(uploaded.status, uploaded.text).to.equal(201);
    await received(1);
    const [batch] = bodiesAt(receiver.requests, '/batch');
    expect(receiver.requests).to.have.length(1);
    expect(batch).to.include({ event: 'media.batch', workspace: 'default', commit: await headOid(repo) });
    expect(batch.data.changes).to.deep.equal((uploaded.body.data as { filename: string }[]).map(({ filename }) => ({ filename, change: 'uploaded', events: ['media.uploaded'] })));
  });

  it('batches the scheduler\'s publish commit like any other, and sends events no commit caused with commit null', async () => {
    await server.close();
    ({ server, admin, token } = await buildAdminServer({ env: { ...FAST, CMS_SCHEDULER_INTERVAL_MS: '50' }, token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts' }, token });
    await configure([{ url: `${receiver.url}/batch`, events: ['content.published'], batch: true }]);
    const created = await server.request('POST', POSTS, { body: { title: 'Later', status: 'scheduled', published_at: new Date(Date.now() + 1500).toISOString() }, token });
    expect(created.status).to.equal(201);
    await pollUntil(async () => receiver.requests.length, (count) => count >= 1);
    await received(1);
    const [published] = bodiesAt(receiver.requests, '/batch');
    expect(published).to.deep.include({ event: 'content.batch', commit: await mustGit(repo, ['rev-parse', 'HEAD']).then((out) => out.trim()) });
    expect(published.data.changes).to.deep.equal([{ type: 'posts', id: created.body.data.id, slug: created.body.data.slug, change: 'published', events: ['content.published'] }]);

    receiver.requests.length = 0;
    const hooks = (await adminRequest(server, admin, 'GET', '/webhooks')).body.data;
    expect((await adminRequest(server, admin, 'POST', `/webhooks/${hooks[0].id}/test`)).status).to.equal(202);
    await received(1);
    expect(bodiesAt(receiver.requests, '/batch')[0]).to.include({ event: 'webhook.test', commit: null });
  });
});
