// GET /admin/api/events: live updates for the signed-in user. Changes made
// through the public API, the admin API and plain git commits arrive as
// events; what the user's grants do not let them read does not; the stream
// has heartbeats and ends on logout, when the session is gone, and on shutdown.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, issueToken, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { login, userWithGrants } from '../helpers/admin-users.ts';
import { openEventStream, type EventStreamReader } from '../helpers/event-stream.ts';
import { contentRepoOf, externalCommit } from '../helpers/git.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const FAST = { CMS_EVENTS_HEARTBEAT_MS: '100' };

describe('admin live events', () => {
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  const streams: EventStreamReader[] = [];

  const open = async (session: AdminSession) => {
    const stream = await openEventStream(server, session);
    streams.push(stream);
    await stream.next('ready');
    return stream;
  };
  const createType = async (name: string) => {
    const response = await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name, fields: { body: { type: 'markdown' } } }, token });
    expect(response.status).to.equal(201);
  };

  beforeEach(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS, env: FAST }));
  });

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await server.close();
  });

  it('opens with a ready event and sends heartbeats', async () => {
    const stream = await openEventStream(server, admin);
    streams.push(stream);
    expect(stream.status).to.equal(200);
    expect(stream.contentType).to.equal('text/event-stream; charset=utf-8');
    expect((await stream.next('ready')).data).to.deep.equal({ heartbeat_ms: 100 });
    await pollFor(() => stream.heartbeats() >= 2);
  });

  it('sends a change made through the public API', async () => {
    const stream = await open(admin);
    await createType('posts');
    const schema = await stream.next('schema.created');
    expect(schema.data).to.include({ event: 'schema.created', workspace: 'default' });
    expect(schema.data.data).to.deep.equal({ type: 'posts' });
    const created = await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Hello', status: 'published' }, token });
    const event = await stream.next('content.created');
    expect(event.data.data).to.deep.equal({ type: 'posts', id: created.body.data.id, slug: 'hello' });
    expect(event.data.actor).to.match(/^token:/);
    expect(Date.parse(event.data.occurred_at)).to.be.a('number').and.not.NaN;
    await stream.next('content.published');
  });

  it('sends a change made by a plain git commit in the content repo', async () => {
    await createType('posts');
    const stream = await open(admin);
    const file = ['---', 'id: gitentry01', 'title: From git', 'status: draft', 'created_at: 2024-01-01T00:00:00.000Z', 'updated_at: 2024-01-01T00:00:00.000Z', '---', 'Body', ''].join('\n');
    await externalCommit(contentRepoOf(server.dataDir), { write: { 'default/entries/posts/from-git.md': file } }, 'Add an entry with git');
    const event = await stream.next('content.created');
    expect(event.data.data).to.deep.equal({ type: 'posts', id: 'gitentry01', slug: 'from-git' });
    expect(event.data).not.to.have.property('actor');
  });

  it('sends only what the user may read', async () => {
    await createType('posts');
    await createType('secrets');
    const reader = await userWithGrants(server, admin, 'postreader', [{ effect: 'allow', actions: ['content.read', 'schema.read'], resources: ['content:posts:*', 'schema:posts'] }]);
    const stream = await open(reader.session);
    await server.request('POST', '/api/v1/workspaces/default/content/secrets', { body: { title: 'Hidden' }, token });
    await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Visible' }, token });
    const event = await stream.next('content.created');
    expect(event.data.data.type).to.equal('posts');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.events.filter((received) => received.event.startsWith('content.')).map((received) => received.data.data.type)).to.deep.equal(['posts']);
  });

  it('ends the stream on logout without sending later events', async () => {
    await createType('posts');
    const stream = await open(admin);
    const logout = await adminRequest(server, admin, 'POST', '/logout');
    expect(logout.status).to.equal(200);
    await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'After logout' }, token });
    await stream.ended;
    expect(stream.events.map((received) => received.event)).to.deep.equal(['ready']);
  });

  it('ends the stream when the session is ended elsewhere (user deleted)', async () => {
    const other = await userWithGrants(server, admin, 'leaving', [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
    const stream = await open(other.session);
    expect((await adminRequest(server, admin, 'DELETE', `/users/${other.id}`)).status).to.equal(200);
    await stream.ended;
  });

  it('ends every stream when the server shuts down', async () => {
    const stream = await open(admin);
    const second = await open(await login(server, 'admin', 'correct horse battery'));
    await server.running.close();
    await Promise.all([stream.ended, second.ended]);
    server = await startTestServer();
  });

  it('answers 401 without a session, also with an API token', async () => {
    const anonymous = await openEventStream(server);
    expect(anonymous.status).to.equal(401);
    const withToken = await fetch(`${server.baseUrl}/admin/api/events`, { headers: { authorization: `Bearer ${await issueToken(server, admin, FULL_ACCESS)}` } });
    expect(withToken.status).to.equal(401);
    expect(((await withToken.json()) as { error: { code: string } }).error.code).to.equal('unauthenticated');
  });

  it('answers 503 not_set_up before the first user exists', async () => {
    const fresh = await startTestServer();
    try {
      const response = await fresh.request('GET', '/admin/api/events');
      expect(response.status).to.equal(503);
      expect(response.body.error.code).to.equal('not_set_up');
    } finally {
      await fresh.close();
    }
  });
});

async function pollFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
