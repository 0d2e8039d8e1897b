// What a replica answers when the primary it forwards a request to fails
// (real servers, real git clone): a small proxy between the replica and the
// primary passes the replica's own traffic (git, /replication/v1) through
// and, on API paths, does what it is told: pass the request on, reset the
// connection before answering, send the primary's headers and then drop the
// connection or fall silent before any body byte, never answer, or answer
// with an error envelope of its own. Without a complete answer from the
// primary, the replica answers 503 primary_unavailable and writes nothing;
// an answer the primary gave, error envelopes included, reaches the client
// unchanged.
import { expect } from 'chai';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildAdminServer, FULL_ACCESS, issueToken } from '../helpers/auth.ts';
import { contentRepoOf, headOid, statusPorcelain } from '../helpers/git.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

type Fault = 'none' | 'reset' | 'drop after headers' | 'silent after headers' | 'hang' | 'own error';

interface FaultyProxy {
  url: string;
  fault: Fault;
  /** API requests that reached the primary through the proxy. */
  passed: number;
  /** How long the replica's own traffic (git, /replication/v1) waits before it is passed on. */
  replicationDelayMs: number;
  close(): Promise<void>;
}

// The envelope the proxy answers with in 'own error' mode, as a failing primary would.
const PRIMARY_ERROR = { status: 500, body: JSON.stringify({ error: { code: 'internal_error', message: 'An unexpected error occurred.' } }) };

// Passes requests to `target`; on API paths, applies the current fault first.
async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const proxy: FaultyProxy = { url: '', fault: 'none', passed: 0, replicationDelayMs: 0, close: async () => {} };
  const server: Server = http.createServer((request, response) => {
    const isApi = /^\/(api|admin)\//.test(request.url ?? '');
    const fault = isApi ? proxy.fault : 'none';
    if (fault === 'reset') return void request.socket.destroy();
    if (fault === 'hang') return void request.resume();
    if (fault === 'own error') {
      request.resume();
      return void response.writeHead(PRIMARY_ERROR.status, { 'content-type': 'application/json; charset=utf-8' }).end(PRIMARY_ERROR.body);
    }
    if (isApi) proxy.passed++;
    if (!isApi && proxy.replicationDelayMs > 0) request.pause();
    setTimeout(() => pass(request, response, fault), isApi ? 0 : proxy.replicationDelayMs);
  });
  const pass = (request: http.IncomingMessage, response: http.ServerResponse, fault: Fault) => {
    const forwarded = http.request(new URL(request.url ?? '/', target), { method: request.method, headers: request.headers }, (answer) => {
      if (fault === 'drop after headers') {
        response.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': '1000', 'content-disposition': 'attachment; filename="broken.zip"' });
        response.flushHeaders();
        answer.resume();
        setImmediate(() => response.socket?.destroy());
        return;
      }
      if (fault === 'silent after headers') {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        response.flushHeaders();
        return void answer.resume();
      }
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.once('error', () => response.destroy());
    request.pipe(forwarded);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}

const TYPES = '/api/v1/workspaces/default/content-types';
const POSTS = '/api/v1/workspaces/default/content/posts';

describe('a replica whose primary fails a forwarded request', function () {
  this.timeout(120_000);
  let primary: TestServer;
  let replica: TestServer;
  let proxy: FaultyProxy;
  let token: string;

  before(async () => {
    const built = await buildAdminServer({ token: FULL_ACCESS });
    primary = built.server;
    token = built.token;
    expect((await primary.request('POST', TYPES, { token, body: { name: 'posts', fields: { views: { type: 'number' } } } })).status).to.equal(201);
    const replicaToken = await issueToken(primary, built.admin, [{ effect: 'allow', actions: ['git.pull', 'replication.read'], resources: ['*'] }], 'replica');
    proxy = await startFaultyProxy(primary.baseUrl);
    replica = await startTestServer({ env: { CMS_ROLE: 'replica', CMS_PRIMARY_URL: proxy.url, CMS_GIT_UPSTREAM_TOKEN: replicaToken, CMS_PRIMARY_TIMEOUT_MS: '500' } });
  });
  beforeEach(() => {
    proxy.fault = 'none';
    proxy.replicationDelayMs = 0;
  });
  after(async () => {
    await replica?.close();
    await proxy?.close();
    await primary?.close();
  });

  // Sends a create through the replica and checks that neither node holds anything new.
  async function createThroughReplica(slug: string) {
    const heads = [await headOid(contentRepoOf(primary.dataDir)), await headOid(contentRepoOf(replica.dataDir))];
    const answer = await replica.request('POST', POSTS, { token, body: { title: 'Lost on the way', slug, views: 1 }, headers: { 'X-Request-Id': `write-${slug}` } });
    expect([await headOid(contentRepoOf(primary.dataDir)), await headOid(contentRepoOf(replica.dataDir))]).to.deep.equal(heads);
    expect(await statusPorcelain(contentRepoOf(replica.dataDir))).to.equal('');
    expect((await replica.request('GET', `${POSTS}/${slug}`, { token })).status).to.equal(404);
    return answer;
  }

  function expectPrimaryUnavailable(answer: { status: number; headers: Headers; body: any }, requestId: string): void {
    expect(answer.status).to.equal(503);
    expect(answer.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(answer.body.error.code).to.equal('primary_unavailable');
    expect(answer.headers.get('x-request-id')).to.equal(requestId);
  }

  it('passes a write and a bodiless answer through when the primary answers', async () => {
    const created = await replica.request('POST', POSTS, { token, body: { title: 'Through', slug: 'through', views: 2 } });
    expect(created.status).to.equal(201);
    expect((await replica.request('GET', `${POSTS}/through`, { token })).body.data.data.views).to.equal(2);
    // Answers without a body (HEAD here) are not waited on for a first byte that never comes.
    const head = await replica.request('HEAD', '/admin/api/activity', { token });
    expect(head.status).to.equal((await primary.request('HEAD', '/admin/api/activity', { token })).status);
  });

  it('passes a write through when the replica takes longer than the primary timeout to hold it', async () => {
    // The primary answers at once; the replica's pull of the write waits 1.5 s, three times CMS_PRIMARY_TIMEOUT_MS.
    proxy.replicationDelayMs = 1500;
    const created = await replica.request('POST', POSTS, { token, body: { title: 'Held late', slug: 'held-late', views: 3 } });
    expect(created.status).to.equal(201);
    expect(created.body.data.slug).to.equal('held-late');
  });

  it('answers 503 primary_unavailable when the primary resets the connection before answering', async () => {
    proxy.fault = 'reset';
    expectPrimaryUnavailable(await createThroughReplica('reset'), 'write-reset');
  });

  it('answers 503 primary_unavailable when the primary does not answer in time', async () => {
    proxy.fault = 'hang';
    expectPrimaryUnavailable(await createThroughReplica('hang'), 'write-hang');
    proxy.fault = 'silent after headers';
    expectPrimaryUnavailable(await replica.request('GET', '/admin/api/activity', { token, headers: { 'X-Request-Id': 'silent-1' } }), 'silent-1');
  });

  it('answers 503 primary_unavailable when the primary drops its answer after the headers, before any body byte', async () => {
    proxy.fault = 'drop after headers';
    const answer = await replica.request('GET', '/admin/api/backups/broken.zip/download', { token, headers: { 'X-Request-Id': 'forwarded-1' } });
    expectPrimaryUnavailable(answer, 'forwarded-1');
    expect(answer.headers.has('content-disposition')).to.equal(false);
    expect(answer.headers.get('content-length')).to.equal(String(Buffer.byteLength(answer.text)));
    // A write whose answer is dropped may have been made: the primary holds it, and the client is told to read first.
    const write = await replica.request('POST', POSTS, { token, body: { title: 'Answer lost', slug: 'answer-lost' }, headers: { 'X-Request-Id': 'forwarded-2' } });
    expectPrimaryUnavailable(write, 'forwarded-2');
    expect((await primary.request('GET', `${POSTS}/answer-lost`, { token })).status).to.equal(200);
  });

  it("passes the primary's 4xx error envelopes through unchanged", async () => {
    const passed = proxy.passed;
    const invalid = await replica.request('POST', POSTS, { token, body: { title: 'Bad', views: 'many' } });
    expect(invalid.status).to.equal(422);
    expect(invalid.body.error.code).to.equal('validation_failed');
    expect(invalid.body.error.fields).to.have.property('views');
    const unknown = await replica.request('DELETE', `${POSTS}/no-such-entry`, { token });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
    expect((await replica.request('POST', POSTS, { body: { title: 'No token' } })).body.error.code).to.equal('unauthorized');
    // All three were the primary's answers, not the replica's own.
    expect(proxy.passed).to.equal(passed + 3);
  });

  it("passes the primary's 5xx error envelope through unchanged", async () => {
    proxy.fault = 'own error';
    const answer = await replica.request('POST', POSTS, { token, body: { title: 'Failing primary' } });
    expect(answer.status).to.equal(PRIMARY_ERROR.status);
    expect(answer.text).to.equal(PRIMARY_ERROR.body);
    expect(answer.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  });

  it('answers 503 primary_unavailable when the primary refuses the connection', async () => {
    await proxy.close();
    expectPrimaryUnavailable(await createThroughReplica('refused'), 'write-refused');
  });
});
