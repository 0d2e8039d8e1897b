// Webhooks over HTTP (issue 7: "Webhooks"): configuration with secrets that
// never come back, signed deliveries of an entry's life cycle and of an
// external git commit to a local receiver, retries, timeouts, and a queue
// that survives a restart.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { login, userWithGrants } from '../helpers/admin-users.ts';
import { contentRepoOf, externalCommit } from '../helpers/git.ts';
import { startLocalHttp, type LocalHttpServer, type ReceivedRequest } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { awaitDeliveries } from '../helpers/webhook-deliveries.ts';

const SECRET = 'receiver-secret-1';
const FAST = { CMS_WEBHOOK_RETRY_BASE_MS: '20', CMS_WEBHOOK_TIMEOUT_MS: '300' };
const DELIVERY_KEYS = ['id', 'webhook_id', 'event', 'url', 'attempt', 'status_code', 'duration_ms', 'ok', 'error', 'attempted_at', 'next_attempt_at'];

interface Delivered {
  event: string;
  occurred_at: string;
  workspace: string;
  data: Record<string, string>;
}

function signatureOf(body: Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function bodiesOf(requests: ReceivedRequest[]): Delivered[] {
  return requests.map((request) => JSON.parse(request.body.toString('utf8')) as Delivered);
}

function eventNames(requests: ReceivedRequest[]): string[] {
  return bodiesOf(requests)
    .map((body) => body.event)
    .sort();
}

describe('admin API: webhooks', () => {
  let server: TestServer;
  let admin: AdminSession;
  let receiver: LocalHttpServer;

  async function configure(hooks: unknown[]) {
    return adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: hooks });
  }

  beforeEach(async () => {
    receiver = await startLocalHttp();
  });
  afterEach(async () => {
    await server?.close();
    await receiver.close();
  });

  describe('configuration', () => {
    beforeEach(async () => {
      ({ server, admin } = await buildAdminServer());
    });

    it('lists the events a webhook can subscribe to', async () => {
      const list = await adminRequest(server, admin, 'GET', '/webhooks');
      expect(list.body.meta.events).to.include.members(['content.created', 'content.published', 'media.uploaded', 'schema.updated']);
    });

    it('replaces the set and never returns a secret', async () => {
      const empty = await adminRequest(server, admin, 'GET', '/webhooks');
      expect(empty.status).to.equal(200);
      expect(empty.body.data).to.deep.equal([]);
      expect(empty.body.meta.total).to.equal(0);

      const put = await configure([
        { url: `${receiver.url}/a`, secret: SECRET, events: ['content.created', 'content.created'] },
        { url: `${receiver.url}/b`, events: ['*'], enabled: false },
      ]);
      expect(put.status).to.equal(200);
      expect(put.text).to.not.include(SECRET);
      const [first, second] = put.body.data;
      expect(first).to.have.all.keys('id', 'url', 'events', 'enabled', 'batch', 'has_secret', 'created_at', 'updated_at');
      expect(first).to.include({ url: `${receiver.url}/a`, enabled: true, batch: false, has_secret: true });
      expect(first.events).to.deep.equal(['content.created']);
      expect(second).to.include({ enabled: false, has_secret: false });

      const list = await adminRequest(server, admin, 'GET', '/webhooks');
      expect(list.body.data).to.deep.equal(put.body.data);
      expect(list.text).to.not.include(SECRET);
    });

    it('keeps the secret of an existing id when none is sent, and removes it with null', async () => {
      const put = await configure([{ url: `${receiver.url}/a`, secret: SECRET, events: ['*'] }]);
      const id = put.body.data[0].id;
      const kept = await configure([{ id, url: `${receiver.url}/changed`, events: ['*'] }]);
      expect(kept.body.data[0]).to.include({ id, url: `${receiver.url}/changed`, has_secret: true });
      const stored = await readFile(path.join(server.dataDir, 'state', 'webhooks.json'), 'utf8');
      expect(stored).to.include(SECRET);
      const removed = await configure([{ id, url: `${receiver.url}/changed`, secret: null, events: ['*'] }]);
      expect(removed.body.data[0].has_secret).to.equal(false);
      const dropped = await configure([]);
      expect(dropped.body.data).to.deep.equal([]);
    });

    it('answers 422 validation_failed for URLs that are not http(s), unknown events and repeated ids', async () => {
      const response = await configure([
        { url: 'ftp://example.com/hook', events: ['content.created'] },
        { url: 'javascript:alert(1)', events: ['content.created'] },
        { url: '/relative', events: ['content.created'] },
        { id: 'same', url: `${receiver.url}/x`, events: ['content.exploded'] },
        { id: 'same', url: `${receiver.url}/y`, events: [] },
      ]);
      expect(response.status).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(response.body.error.fields).to.have.all.keys('webhooks.0.url', 'webhooks.1.url', 'webhooks.2.url', 'webhooks.3.events', 'webhooks.4.id', 'webhooks.4.events');
      const list = await adminRequest(server, admin, 'GET', '/webhooks');
      expect(list.body.data).to.deep.equal([]);
    });

    it('answers 422 validation_failed for unknown keys and a missing url', async () => {
      const response = await configure([{ events: ['*'], colour: 'red' }]);
      expect(response.status).to.equal(422);
      expect(response.body.error.fields).to.have.all.keys('webhooks.0.url', 'webhooks.0.colour');
    });

    it('answers 403 forbidden without webhooks.manage and 401 unauthenticated without a session', async () => {
      const { session } = await userWithGrants(server, admin, 'editor1', [{ effect: 'allow', actions: ['content.*'], resources: ['*'] }]);
      for (const [method, url] of [['GET', '/webhooks'], ['PUT', '/webhooks'], ['GET', '/webhooks/deliveries']]) {
        const response = await adminRequest(server, session, method, url, method === 'PUT' ? { webhooks: [] } : undefined);
        expect(response.status, `${method} ${url}`).to.equal(403);
        expect(response.body.error.code).to.equal('forbidden');
      }
      const anonymous = await server.request('GET', '/admin/api/webhooks');
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.error.code).to.equal('unauthenticated');
    });

    it('answers 400 invalid_request for bad paging of deliveries', async () => {
      for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'limit=5000', 'limit=', 'limit=1&limit=2']) {
        const response = await adminRequest(server, admin, 'GET', `/webhooks/deliveries?${query}`);
        expect(response.status, query).to.equal(400);
        expect(response.body.error.code).to.equal('invalid_request');
      }
    });
  });

  describe('delivery', () => {
    let token: string;

    async function start(env: Record<string, string> = FAST, dataDir?: string) {
      ({ server, admin, token } = await buildAdminServer({ env, dataDir, token: FULL_ACCESS }));
      const type = await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts', fields: { body: { type: 'markdown' } } }, token });
      expect(type.status).to.equal(201);
    }

    function deliveries() {
      return adminRequest(server, admin, 'GET', '/webhooks/deliveries');
    }

    // Waits for `count` requests, then for the queue to drain, so late extra deliveries would show.
    const received = (count: number) => awaitDeliveries(server, receiver, count);

    it('delivers an entry life cycle, signed, with the API.md body and headers', async () => {
      await start();
      await configure([{ url: `${receiver.url}/hook`, secret: SECRET, events: ['content.created', 'content.updated', 'content.published', 'content.unpublished', 'content.deleted', 'content.restored'] }]);
      const base = '/api/v1/workspaces/default/content/posts';
      const created = await server.request('POST', base, { body: { title: 'Hello' }, token });
      expect(created.status).to.equal(201);
      const { id, slug } = created.body.data;
      expect((await server.request('PATCH', `${base}/${id}`, { body: { status: 'published' }, token })).status).to.equal(200);
      expect((await server.request('PATCH', `${base}/${id}`, { body: { status: 'draft' }, token })).status).to.equal(200);
      expect((await server.request('DELETE', `${base}/${id}`, { token })).status).to.equal(200);
      expect((await adminRequest(server, admin, 'POST', `/trash/posts/${id}/restore`)).status).to.equal(200);

      const expected = ['content.created', 'content.deleted', 'content.published', 'content.restored', 'content.unpublished', 'content.updated', 'content.updated'];
      await received(expected.length);
      expect(eventNames(receiver.requests)).to.deep.equal(expected);
      for (const request of receiver.requests) {
        expect(request.method).to.equal('POST');
        expect(request.url).to.equal('/hook');
        expect(request.headers['content-type']).to.match(/^application\/json/);
        expect(request.headers['x-service-signature']).to.equal(signatureOf(request.body, SECRET));
        const body = JSON.parse(request.body.toString('utf8')) as Delivered;
        expect(body).to.have.all.keys('event', 'occurred_at', 'workspace', 'commit', 'data');
        expect(request.headers['x-service-event']).to.equal(body.event);
        expect(body.workspace).to.equal('default');
        expect(body.data).to.deep.equal({ type: 'posts', id, slug });
        expect(Date.parse(body.occurred_at)).to.not.be.NaN;
      }
      const ids = receiver.requests.map((request) => request.headers['x-service-delivery']);
      expect(new Set(ids).size).to.equal(expected.length);

      const log = await pollUntil(deliveries, (response) => response.body.meta.total >= expected.length);
      expect(log.status).to.equal(200);
      expect(log.body.meta).to.include({ total: expected.length, limit: 100, offset: 0 });
      for (const attempt of log.body.data) {
        expect(attempt).to.have.all.keys(...DELIVERY_KEYS);
        expect(attempt).to.include({ url: `${receiver.url}/hook`, attempt: 1, status_code: 200, ok: true, error: null, next_attempt_at: null });
        expect(attempt.duration_ms).to.be.a('number');
      }
      expect(log.body.data.map((attempt: { id: string }) => attempt.id).sort()).to.deep.equal([...ids].sort());
    });

    it('delivers only subscribed events, and nothing to disabled webhooks', async () => {
      await start();
      await configure([
        { url: `${receiver.url}/created`, events: ['content.created'] },
        { url: `${receiver.url}/off`, events: ['*'], enabled: false },
      ]);
      await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'One', status: 'published' }, token });
      await pollUntil(deliveries, (response) => response.body.meta.total >= 1);
      await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'pages' }, token });
      await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Two' }, token });
      await pollUntil(deliveries, (response) => response.body.meta.total >= 2);
      expect(receiver.requests.map((request) => request.url)).to.deep.equal(['/created', '/created']);
      expect(eventNames(receiver.requests)).to.deep.equal(['content.created', 'content.created']);
      expect(receiver.requests[0].headers).to.not.have.property('x-service-signature');
    });

    it('delivers schema events', async () => {
      await start();
      await configure([{ url: `${receiver.url}/schema`, events: ['schema.created', 'schema.updated', 'schema.deleted'] }]);
      await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'pages' }, token });
      await server.request('PUT', '/api/v1/workspaces/default/content-types/pages', { body: { label: 'Pages' }, token });
      await server.request('DELETE', '/api/v1/workspaces/default/content-types/pages', { token });
      await received(3);
      expect(eventNames(receiver.requests)).to.deep.equal(['schema.created', 'schema.deleted', 'schema.updated']);
      expect(bodiesOf(receiver.requests)[0].data).to.deep.equal({ type: 'pages' });
    });

    it('delivers content.published when a scheduled entry\'s time passes', async () => {
      await start({ ...FAST, CMS_SCHEDULER_INTERVAL_MS: '50' });
      await configure([{ url: `${receiver.url}/scheduled`, events: ['content.published'] }]);
      const publishAt = new Date(Date.now() + 1500).toISOString();
      const created = await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Later', status: 'scheduled', published_at: publishAt }, token });
      expect(created.status).to.equal(201);
      await pollUntil(async () => receiver.requests.length, (count) => count >= 1);
      await received(1);
      expect(eventNames(receiver.requests)).to.deep.equal(['content.published']);
      expect(bodiesOf(receiver.requests)[0].data).to.deep.equal({ type: 'posts', id: created.body.data.id, slug: created.body.data.slug });
    });

    it('delivers the entry events of an external git commit', async () => {
      await start();
      await configure([{ url: `${receiver.url}/git`, secret: SECRET, events: ['*'] }]);
      const repo = contentRepoOf(server.dataDir);
      const file = ['---', 'id: ext0000001', 'title: From git', 'status: published', 'published_at: 2024-01-01T00:00:00.000Z', 'created_at: 2024-01-01T00:00:00.000Z', 'updated_at: 2024-01-01T00:00:00.000Z', '---', 'Body', ''].join('\n');
      await externalCommit(repo, { write: { 'default/entries/posts/from-git.md': file } }, 'Add an entry with git');
      await received(2);
      expect(eventNames(receiver.requests)).to.deep.equal(['content.created', 'content.published']);
      expect(bodiesOf(receiver.requests)[0].data).to.deep.equal({ type: 'posts', id: 'ext0000001', slug: 'from-git' });
      for (const request of receiver.requests) expect(request.headers['x-service-signature']).to.equal(signatureOf(request.body, SECRET));

      receiver.requests.length = 0;
      await externalCommit(repo, { write: { 'default/entries/posts/from-git.md': file.replace('status: published', 'status: draft') } }, 'Unpublish with git');
      await received(2);
      expect(eventNames(receiver.requests)).to.deep.equal(['content.unpublished', 'content.updated']);

      receiver.requests.length = 0;
      const draft = file.replace('status: published', 'status: draft');
      await externalCommit(repo, { write: { 'default/entries/posts/renamed.md': draft }, remove: ['default/entries/posts/from-git.md'] }, 'Rename with git');
      await received(1);
      expect(eventNames(receiver.requests)).to.deep.equal(['content.updated']);
      expect(bodiesOf(receiver.requests)[0].data).to.deep.equal({ type: 'posts', id: 'ext0000001', slug: 'renamed', previous_slug: 'from-git' });

      // A new slug that sorts before the old one is read first; the old entry must still be found as the one renamed.
      receiver.requests.length = 0;
      await externalCommit(repo, { write: { 'default/entries/posts/earlier.md': draft }, remove: ['default/entries/posts/renamed.md'] }, 'Rename with git again');
      await received(1);
      expect(eventNames(receiver.requests)).to.deep.equal(['content.updated']);
      expect(bodiesOf(receiver.requests)[0].data).to.deep.equal({ type: 'posts', id: 'ext0000001', slug: 'earlier', previous_slug: 'renamed' });

      receiver.requests.length = 0;
      await externalCommit(repo, { remove: ['default/entries/posts/earlier.md'] }, 'Remove with git');
      await received(1);
      expect(eventNames(receiver.requests)).to.deep.equal(['content.deleted']);
      expect(bodiesOf(receiver.requests)[0].data).to.deep.equal({ type: 'posts', id: 'ext0000001', slug: 'earlier' });
    });

    it('names the previous slug when an API update renames an entry', async () => {
      await start();
      await configure([{ url: `${receiver.url}/rename`, events: ['content.updated'] }]);
      const base = '/api/v1/workspaces/default/content/posts';
      const created = await server.request('POST', base, { body: { title: 'Old name' }, token });
      expect((await server.request('PATCH', `${base}/${created.body.data.id}`, { body: { slug: 'new-name' }, token })).status).to.equal(200);
      await received(1);
      expect(bodiesOf(receiver.requests)[0].data).to.deep.equal({ type: 'posts', id: created.body.data.id, slug: 'new-name', previous_slug: 'old-name' });
    });

    it('retries a receiver that fails twice, and records every attempt', async () => {
      await start();
      receiver.respond((_request, count) => (count <= 2 ? { status: 500, body: 'down' } : { status: 204 }));
      await configure([{ url: `${receiver.url}/flaky`, events: ['content.created'] }]);
      await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Retry me' }, token });
      const log = await pollUntil(deliveries, (response) => response.body.meta.total >= 3);
      const attempts = [...log.body.data].reverse();
      expect(attempts.map((attempt: { attempt: number }) => attempt.attempt)).to.deep.equal([1, 2, 3]);
      expect(attempts.map((attempt: { status_code: number }) => attempt.status_code)).to.deep.equal([500, 500, 204]);
      expect(attempts.map((attempt: { ok: boolean }) => attempt.ok)).to.deep.equal([false, false, true]);
      expect(new Set(attempts.map((attempt: { id: string }) => attempt.id)).size).to.equal(1);
      expect(attempts[0].error).to.be.a('string');
      expect(attempts[0].next_attempt_at).to.be.a('string');
      expect(attempts[2].next_attempt_at).to.equal(null);
      expect(receiver.requests).to.have.length(3);
      expect(new Set(receiver.requests.map((request) => request.body.toString())).size).to.equal(1);
      const pending = await pollUntil(async () => server.services.webhookDispatcher.pending().length, (count) => count === 0);
      expect(pending).to.equal(0);
    });

    it('gives up after the last attempt on a receiver that never answers, without holding up writes', async () => {
      await start({ ...FAST, CMS_WEBHOOK_MAX_ATTEMPTS: '3' });
      receiver.respond(() => 'hang');
      await configure([{ url: `${receiver.url}/slow`, events: ['content.created'] }]);
      const first = await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'One' }, token });
      expect(first.status).to.equal(201);
      await received(1);
      const second = await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Two' }, token });
      expect(second.status).to.equal(201);

      const log = await pollUntil(deliveries, (response) => response.body.data.filter((attempt: { next_attempt_at: string | null }) => attempt.next_attempt_at === null).length >= 2);
      expect(log.body.meta.total).to.equal(6);
      for (const attempt of log.body.data) expect(attempt).to.include({ status_code: null, ok: false });
      expect(log.body.data.map((attempt: { attempt: number }) => attempt.attempt).sort()).to.deep.equal([1, 1, 2, 2, 3, 3]);
      const activity = await pollUntil(
        () => adminRequest(server, admin, 'GET', '/activity?type=webhook.failed'),
        (response) => response.body.meta?.total === 2,
      );
      expect(activity.body.data.map((record: { level: string }) => record.level)).to.deep.equal(['error', 'error']);
      expect(activity.body.data[0].details).to.include({ webhook_id: log.body.data[0].webhook_id, status_code: null });
    });

    it('sends a test delivery to one webhook on request, whatever events it subscribes to', async () => {
      await start();
      const [hook] = (await configure([{ url: `${receiver.url}/test`, events: ['content.deleted'], secret: 'shh' }])).body.data;
      const sent = await adminRequest(server, admin, 'POST', `/webhooks/${hook.id}/test`);
      expect(sent.status, sent.text).to.equal(202);
      await received(1);
      expect(eventNames(receiver.requests)).to.deep.equal(['webhook.test']);
      expect(bodiesOf(receiver.requests)[0]).to.deep.include({ event: 'webhook.test', data: { webhook_id: hook.id } });
      expect(receiver.requests[0].headers['x-service-signature']).to.match(/^sha256=/);
      const log = await pollUntil(deliveries, (response) => response.body.meta.total === 1);
      expect(log.body.data[0]).to.include({ id: sent.body.data.delivery_id, event: 'webhook.test', ok: true });
      expect(log.body.data[0]).to.not.have.property('body');
      expect((await adminRequest(server, admin, 'POST', '/webhooks/nope/test')).status).to.equal(404);
    });

    it('retries a delivery that gave up, once asked, under the same delivery id', async () => {
      await start({ ...FAST, CMS_WEBHOOK_MAX_ATTEMPTS: '3' });
      receiver.respond(() => ({ status: 500, body: 'down' }));
      await configure([{ url: `${receiver.url}/down`, events: ['content.created'] }]);
      await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Late' }, token });
      const failed = await pollUntil(deliveries, (response) => response.body.data.some((attempt: { next_attempt_at: string | null }) => attempt.next_attempt_at === null));
      const deliveryId = failed.body.data[0].id;
      expect((await adminRequest(server, admin, 'POST', '/webhooks/deliveries/unknown-id/retry')).status).to.equal(404);
      receiver.respond(() => ({ status: 204 }));
      const retried = await adminRequest(server, admin, 'POST', `/webhooks/deliveries/${deliveryId}/retry`);
      expect(retried.status, retried.text).to.equal(202);
      expect(retried.body.data.delivery_id).to.equal(deliveryId);
      const log = await pollUntil(deliveries, (response) => response.body.data[0].ok === true);
      expect(log.body.data[0]).to.include({ id: deliveryId, attempt: 1, status_code: 204 });
      expect(new Set(receiver.requests.map((request) => request.body.toString())).size, 'the same body again').to.equal(1);
      const again = await adminRequest(server, admin, 'POST', `/webhooks/deliveries/${deliveryId}/retry`);
      expect(again.status, 'a delivery that arrived is not retried').to.equal(404);
      const viewer = await server.request('POST', `/admin/api/webhooks/deliveries/${deliveryId}/retry`);
      expect(viewer.status).to.equal(401);
    });

    it('keeps pending deliveries across a restart', async () => {
      await start({ CMS_WEBHOOK_RETRY_BASE_MS: '600000' });
      receiver.respond(() => ({ status: 503 }));
      await configure([{ url: `${receiver.url}/later`, secret: SECRET, events: ['content.created'] }]);
      await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Survivor' }, token });
      await pollUntil(deliveries, (response) => response.body.meta.total >= 1);
      const dataDir = server.dataDir;
      await server.close({ keepData: true });
      const queued = JSON.parse(await readFile(path.join(dataDir, 'state', 'webhook-queue.json'), 'utf8')) as { attempts: number }[];
      expect(queued).to.have.length(1);
      expect(queued[0].attempts).to.equal(1);

      receiver.respond(() => ({ status: 200 }));
      server = await startTestServer({ dataDir, env: FAST });
      admin = await login(server, ADMIN_USERNAME, ADMIN_PASSWORD);
      const log = await pollUntil(deliveries, (response) => response.body.meta.total >= 2);
      expect(log.body.data[0]).to.include({ attempt: 2, status_code: 200, ok: true });
      expect(receiver.requests).to.have.length(2);
      expect(receiver.requests[1].body.toString()).to.equal(receiver.requests[0].body.toString());
      expect(receiver.requests[1].headers['x-service-signature']).to.equal(signatureOf(receiver.requests[1].body, SECRET));
    });
  });
});
