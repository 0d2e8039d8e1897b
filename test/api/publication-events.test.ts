// content.published and content.unpublished follow public visibility judged
// at the time of the write, as commit subjects and the files' `draft` flag do
// (docs/operations.md "Publication events"): a scheduled entry whose date has
// passed is public at once. Told to a real webhook receiver.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { commitInfo, contentRepoOf, externalCommit, fileAt } from '../helpers/git.ts';
import { startLocalHttp, type LocalHttpServer } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';
import { takeDeliveries, TICK_BY_HAND_ENV } from '../helpers/webhook-deliveries.ts';

const BASE = '/api/v1/workspaces/default/content/posts';
const HOUR = 3_600_000;

describe('publication events follow public visibility', () => {
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let receiver: LocalHttpServer;

  beforeEach(async () => {
    receiver = await startLocalHttp();
    ({ server, admin, token } = await buildAdminServer({ env: TICK_BY_HAND_ENV, token: FULL_ACCESS }));
    expect((await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts' }, token })).status).to.equal(201);
    const hooks = await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: [{ url: `${receiver.url}/hook`, events: ['content.created', 'content.updated', 'content.published', 'content.unpublished', 'content.deleted', 'content.restored'] }] });
    expect(hooks.status).to.equal(200);
  });
  afterEach(async () => {
    await server?.close();
    await receiver.close();
  });

  // The events delivered since the last call, as `event id` sorted, once the queue has drained.
  const delivered = (count: number) => takeDeliveries(server, receiver, count, ({ event, data }) => `${event} ${data.id}`);

  async function create(body: Record<string, unknown>): Promise<string> {
    const response = await server.request('POST', BASE, { body, token });
    expect(response.status).to.equal(201);
    return response.body.data.id as string;
  }

  async function patch(id: string, body: Record<string, unknown>): Promise<void> {
    const response = await server.request('PATCH', `${BASE}/${id}`, { body, token });
    expect(response.status).to.equal(200);
  }

  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

  // Two looks of the scheduler: it keeps what writes announced one look longer than their dates need (publish-scheduler.ts), then only the dates tell.
  async function forgetAnnouncements(): Promise<void> {
    expect(await server.services.scheduler.tick()).to.equal(0);
    expect(await server.services.scheduler.tick()).to.equal(0);
  }

  it('publishes a draft saved as scheduled with a date already past, and the scheduler does not announce it again', async () => {
    const id = await create({ title: 'Late' });
    expect(await delivered(1)).to.deep.equal([`content.created ${id}`]);
    // A date after the scheduler's last look (its start) and before the save: the scheduler's next tick finds it due.
    await patch(id, { status: 'scheduled', published_at: ago(1) });
    expect(await delivered(2)).to.deep.equal([`content.published ${id}`, `content.updated ${id}`]);
    expect(await server.services.scheduler.tick()).to.equal(0);
    const marker = await create({ title: 'Marker' });
    expect(await delivered(1)).to.deep.equal([`content.created ${marker}`]);
  });

  it('publishes an entry created as scheduled with a date already past', async () => {
    const id = await create({ title: 'Backdated', status: 'scheduled', published_at: ago(HOUR) });
    expect(await delivered(2)).to.deep.equal([`content.created ${id}`, `content.published ${id}`]);
  });

  it('only updates a scheduled entry whose date has passed when it is set to published', async () => {
    const id = await create({ title: 'Due', status: 'scheduled', published_at: ago(HOUR) });
    await delivered(2);
    await patch(id, { status: 'published' });
    expect(await delivered(1)).to.deep.equal([`content.updated ${id}`]);
  });

  it('unpublishes a scheduled entry whose date has passed when it goes back to draft', async () => {
    const id = await create({ title: 'Due', status: 'scheduled', published_at: ago(HOUR) });
    await delivered(2);
    await patch(id, { status: 'draft' });
    expect(await delivered(2)).to.deep.equal([`content.unpublished ${id}`, `content.updated ${id}`]);
  });

  it('unpublishes a published entry moved to a future date, and the scheduler announces it then', async () => {
    const id = await create({ title: 'Postponed', status: 'published' });
    await delivered(2);
    const later = Date.now() + 300;
    await patch(id, { status: 'scheduled', published_at: new Date(later).toISOString() });
    expect(await delivered(2)).to.deep.equal([`content.unpublished ${id}`, `content.updated ${id}`]);
    await pollUntil(async () => Date.now(), (now) => now > later);
    expect(await server.services.scheduler.tick()).to.equal(1);
    expect(await delivered(1)).to.deep.equal([`content.published ${id}`]);
  });

  it('only updates a published entry saved as published', async () => {
    const id = await create({ title: 'Steady', status: 'published' });
    expect(await delivered(2)).to.deep.equal([`content.created ${id}`, `content.published ${id}`]);
    await patch(id, { title: 'Steady, edited', status: 'published' });
    expect(await delivered(1)).to.deep.equal([`content.updated ${id}`]);
  });

  // Public since its date, but nobody was told: the save is the news, and the scheduler does not announce it again.
  for (const [saved, body] of [
    ['set to published', { status: 'published' }],
    ['edited', { title: 'Just due, edited' }],
  ] as const) {
    it(`publishes a scheduled entry ${saved} after its date passed and before the scheduler looked, and the scheduler does not announce it again`, async () => {
      const dueAt = Date.now() + 300;
      const id = await create({ title: 'Just due', status: 'scheduled', published_at: new Date(dueAt).toISOString() });
      expect(await delivered(1)).to.deep.equal([`content.created ${id}`]);
      await pollUntil(async () => Date.now(), (now) => now > dueAt);
      await patch(id, body);
      expect(await delivered(2)).to.deep.equal([`content.published ${id}`, `content.updated ${id}`]);
      expect(await server.services.scheduler.tick()).to.equal(0);
      const marker = await create({ title: 'Marker' });
      expect(await delivered(1)).to.deep.equal([`content.created ${marker}`]);
    });
  }

  it('rewrites the files of a scheduled entry a commit from outside announced, without announcing it again', async () => {
    const repo = contentRepoOf(server.dataDir);
    const file = 'default/entries/posts/pushed.md';
    const text = `---\nid: pushed\ntitle: Pushed\nstatus: scheduled\ndraft: true\npublishDate: ${ago(HOUR)}\n---\nFrom git.\n`;
    await externalCommit(repo, { write: { [file]: text } }, 'Add a post that is due');
    expect(await delivered(2)).to.deep.equal(['content.created pushed', 'content.published pushed']);
    expect(await server.services.scheduler.tick()).to.equal(0);
    expect(await fileAt(repo, file)).to.match(/^draft: false$/m);
    const head = await commitInfo(repo);
    expect([head.subject, head.trailers.Actor]).to.deep.equal(['Publish posts/pushed', 'system']);
    const marker = await create({ title: 'Marker' });
    expect(await delivered(1)).to.deep.equal([`content.created ${marker}`]);
  });

  it('only updates a published entry moved to a date that passed since the scheduler last looked, and the scheduler does not announce it', async () => {
    const id = await create({ title: 'Backdated later', status: 'published' });
    await delivered(2);
    await forgetAnnouncements();
    // After the scheduler's last look: its next tick finds the date due, but the entry was public and announced all along.
    await patch(id, { status: 'scheduled', published_at: ago(1) });
    expect(await delivered(1)).to.deep.equal([`content.updated ${id}`]);
    expect(await server.services.scheduler.tick()).to.equal(0);
    const marker = await create({ title: 'Marker' });
    expect(await delivered(1)).to.deep.equal([`content.created ${marker}`]);
  });

  it('only updates a published entry a commit from outside moves to a date that passed since the scheduler last looked, and the scheduler does not announce it', async () => {
    const repo = contentRepoOf(server.dataDir);
    const file = 'default/entries/posts/pushed.md';
    const post = (front: string) => `---\nid: pushed\ntitle: Pushed\n${front}\n---\nFrom git.\n`;
    await externalCommit(repo, { write: { [file]: post('status: published') } }, 'Add a published post');
    expect(await delivered(2)).to.deep.equal(['content.created pushed', 'content.published pushed']);
    await forgetAnnouncements();
    await externalCommit(repo, { write: { [file]: post(`status: scheduled\npublishDate: ${ago(1)}`) } }, 'Move its date');
    expect(await delivered(1)).to.deep.equal(['content.updated pushed']);
    expect(await server.services.scheduler.tick()).to.equal(0);
    const marker = await create({ title: 'Marker' });
    expect(await delivered(1)).to.deep.equal([`content.created ${marker}`]);
  });

  it('only updates a published entry a revision restore moves back to a scheduled date that passed since the scheduler last looked', async () => {
    const id = await create({ title: 'Restored' });
    const dueAt = Date.now() + 1500;
    await patch(id, { status: 'scheduled', published_at: new Date(dueAt).toISOString() });
    await patch(id, { status: 'published' });
    await delivered(3);
    await forgetAnnouncements();
    await pollUntil(async () => Date.now(), (now) => now > dueAt);
    const revisions = await adminRequest(server, admin, 'GET', `/content/posts/${id}/revisions`);
    const scheduled = revisions.body.data[1].id as string;
    expect((await adminRequest(server, admin, 'POST', `/content/posts/${id}/revisions/${scheduled}/restore`)).status).to.equal(200);
    expect(await delivered(1)).to.deep.equal([`content.updated ${id}`]);
    expect(await server.services.scheduler.tick()).to.equal(0);
    const marker = await create({ title: 'Marker' });
    expect(await delivered(1)).to.deep.equal([`content.created ${marker}`]);
  });

  it('only updates announced scheduled entries a bulk update moves to another date that passed since the scheduler last looked', async () => {
    const published = await create({ title: 'Published', status: 'published' });
    const due = await create({ title: 'Due', status: 'scheduled', published_at: ago(HOUR) });
    await delivered(4);
    await forgetAnnouncements();
    const moved = await adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: [published, due], changes: { status: 'scheduled', published_at: ago(1) } });
    expect(moved.status).to.equal(200);
    expect(await delivered(2)).to.deep.equal([`content.updated ${due}`, `content.updated ${published}`].sort());
    expect(await server.services.scheduler.tick()).to.equal(0);
    const marker = await create({ title: 'Marker' });
    expect(await delivered(1)).to.deep.equal([`content.created ${marker}`]);
  });

  it('unpublishes a public entry it deletes, and publishes it again when it is restored from the trash', async () => {
    const id = await create({ title: 'Public', status: 'published' });
    const draft = await create({ title: 'Draft' });
    await delivered(3);
    expect((await server.request('DELETE', `${BASE}/${id}`, { token })).status).to.equal(200);
    expect((await server.request('DELETE', `${BASE}/${draft}`, { token })).status).to.equal(200);
    expect(await delivered(3)).to.deep.equal([`content.deleted ${draft}`, `content.deleted ${id}`, `content.unpublished ${id}`].sort());
    for (const restored of [id, draft]) expect((await adminRequest(server, admin, 'POST', `/trash/posts/${restored}/restore`)).status).to.equal(200);
    expect(await delivered(3)).to.deep.equal([`content.published ${id}`, `content.restored ${draft}`, `content.restored ${id}`].sort());
  });

  it('publishes a scheduled entry restored from the trash after its date passed, and the scheduler does not announce it again', async () => {
    const dueAt = Date.now() + 300;
    const id = await create({ title: 'Soon', status: 'scheduled', published_at: new Date(dueAt).toISOString() });
    await delivered(1);
    expect((await server.request('DELETE', `${BASE}/${id}`, { token })).status).to.equal(200);
    expect(await delivered(1)).to.deep.equal([`content.deleted ${id}`]);
    await pollUntil(async () => Date.now(), (now) => now > dueAt);
    expect((await adminRequest(server, admin, 'POST', `/trash/posts/${id}/restore`)).status).to.equal(200);
    expect(await delivered(2)).to.deep.equal([`content.published ${id}`, `content.restored ${id}`]);
    expect(await server.services.scheduler.tick()).to.equal(0);
    const marker = await create({ title: 'Marker' });
    expect(await delivered(1)).to.deep.equal([`content.created ${marker}`]);
  });

  it('unpublishes public entries a bulk delete or a commit from outside removes', async () => {
    const ids = [await create({ title: 'One', status: 'published' }), await create({ title: 'Two' })];
    await delivered(3);
    expect((await adminRequest(server, admin, 'DELETE', '/content/posts/bulk', { ids })).status).to.equal(200);
    expect(await delivered(3)).to.deep.equal([`content.deleted ${ids[0]}`, `content.deleted ${ids[1]}`, `content.unpublished ${ids[0]}`].sort());
    const repo = contentRepoOf(server.dataDir);
    await externalCommit(repo, { write: { 'default/entries/posts/pushed.md': `---\nid: pushed\ntitle: Pushed\nstatus: published\n---\nFrom git.\n` } }, 'Add a post');
    expect(await delivered(2)).to.deep.equal(['content.created pushed', 'content.published pushed']);
    await externalCommit(repo, { remove: ['default/entries/posts/pushed.md'] }, 'Remove the post');
    expect(await delivered(2)).to.deep.equal(['content.deleted pushed', 'content.unpublished pushed']);
  });

  it('applies the same rule to bulk updates', async () => {
    const drafts = [await create({ title: 'One' }), await create({ title: 'Two' })];
    const due = await create({ title: 'Three', status: 'scheduled', published_at: ago(HOUR) });
    await delivered(4);
    const toPast = await adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: drafts, changes: { status: 'scheduled', published_at: ago(1) } });
    expect(toPast.status).to.equal(200);
    expect(await delivered(4)).to.deep.equal([...drafts.map((id) => `content.published ${id}`), ...drafts.map((id) => `content.updated ${id}`)].sort());
    expect(await server.services.scheduler.tick()).to.equal(0);
    const toPublished = await adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: [...drafts, due], changes: { status: 'published' } });
    expect(toPublished.status).to.equal(200);
    expect(await delivered(3)).to.deep.equal([...drafts, due].map((id) => `content.updated ${id}`).sort());
  });
});
