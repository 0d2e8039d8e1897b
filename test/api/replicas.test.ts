// One primary and two read replicas over real HTTP and the real git CLI:
// replicas follow writes (the lag is measured and printed, never asserted),
// a write sent to a replica is forwarded and read back from that replica at
// once, tokens and sign-ins made on the primary work on replicas, a media
// file reaches a replica that never saw its upload, a replica killed with
// SIGKILL catches up after a restart, and with the primary down replicas
// keep serving reads and answer writes with 503 primary_unavailable.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { adminRequest, buildAdminServer, cookieHeaderOf, FULL_ACCESS, issueToken, WILDCARD_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { cloneFrom, commitIn, mustGit, removeFolders, repoUrl } from '../helpers/git-client.ts';
import { contentRepoOf, headOid, statusPorcelain } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { spawnServer, type ServerProcess } from '../helpers/server-process.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makePng, uploadMedia } from './media-fixtures.ts';

interface Answer {
  status: number;
  headers: Headers;
  // Tests read arbitrary response shapes and let chai check them.
  body: any;
}

async function call(baseUrl: string, method: string, url: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(baseUrl + url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

const POSTS = '/api/v1/workspaces/default/content/posts';

describe('a primary with two read replicas', function () {
  this.timeout(120_000);
  let primary: TestServer;
  let admin: AdminSession;
  let token: string;
  let replicaToken: string;
  let near: TestServer;
  let far: ServerProcess;
  let farDataDir: string;
  const lags: number[] = [];

  const replicaEnv = () => ({ CMS_ROLE: 'replica', CMS_PRIMARY_URL: primary.baseUrl, CMS_GIT_UPSTREAM_TOKEN: replicaToken, CMS_WATCH_INTERVAL_MS: '100' });
  const startFar = async () => {
    far = await spawnServer(farDataDir, replicaEnv());
  };

  before(async () => {
    ({ server: primary, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    replicaToken = await issueToken(primary, admin, [{ effect: 'allow', actions: ['git.pull', 'replication.read'], resources: ['*'] }], 'replicas');
    expect((await primary.request('POST', '/api/v1/workspaces/default/content-types', { token, body: { name: 'posts', fields: { views: { type: 'number' } } } })).status).to.equal(201);
    near = await startTestServer({ env: replicaEnv() });
    farDataDir = await mkdtemp(path.join(os.tmpdir(), 'cms-replica-'));
    await startFar();
  });

  after(async () => {
    await far?.kill('SIGTERM');
    await near?.close();
    await primary?.close();
    await rm(farDataDir, { recursive: true, force: true });
    await removeFolders();
    if (lags.length > 0) {
      const sorted = [...lags].sort((a, b) => a - b);
      console.log(`      replica lag over ${sorted.length} writes: median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted[sorted.length - 1]} ms`);
    }
  });

  it('follows each write on the primary on both replicas, and says so in health', async () => {
    for (let round = 0; round < 8; round++) {
      const slug = `lag-${round}`;
      const written = Date.now();
      expect((await primary.request('POST', POSTS, { token, body: { title: `Lag ${round}`, slug, status: 'published' } })).status).to.equal(201);
      const seen = await Promise.all(
        [near.baseUrl, far.url].map(async (url) => {
          const answer = await pollUntil(() => call(url, 'GET', `${POSTS}/${slug}`), (candidate) => candidate.status === 200, { intervalMs: 5 });
          lags.push(Date.now() - written);
          return answer.status;
        }),
      );
      expect(seen).to.deep.equal([200, 200]);
    }
    const head = await headOid(contentRepoOf(primary.dataDir));
    const health = await pollUntil(() => call(far.url, 'GET', '/api/v1/health'), (answer) => answer.body.data.git.head === head && answer.body.data.git.lag_ms === 0);
    expect(health.body.data.git).to.include({ role: 'replica', head, lag_ms: 0, git_available: true });
    expect(health.body.data.git.primary).to.include({ url: primary.baseUrl, reachable: true, head });
    expect((await primary.request('GET', '/api/v1/health')).body.data.git).to.include({ role: 'primary', head, lag_ms: 0 });
  });

  it('forwards a write sent to a replica and answers once that replica can read it back', async () => {
    const created = await near.request('POST', POSTS, { token, body: { title: 'Through a replica', status: 'published', views: 3 } });
    expect(created.status).to.equal(201);
    const readBack = await near.request('GET', `${POSTS}/${created.body.data.id}`);
    expect(readBack.status).to.equal(200);
    expect(readBack.body.data.data.views).to.equal(3);
    expect((await primary.request('GET', `${POSTS}/${created.body.data.id}`)).status).to.equal(200);
    expect(await headOid(contentRepoOf(near.dataDir))).to.equal(await headOid(contentRepoOf(primary.dataDir)));
    expect(await statusPorcelain(contentRepoOf(near.dataDir))).to.equal('');
    const invalid = await near.request('POST', POSTS, { token, body: { title: 'Bad', views: 'many' } });
    expect(invalid.status).to.equal(422);
    expect(invalid.body.error.code).to.equal('validation_failed');
  });

  it('lets tokens and sign-ins made on the primary work on the replicas', async () => {
    const reader = await issueToken(primary, admin, [{ effect: 'allow', actions: ['content.read', 'schema.read'], resources: ['*'] }], 'made on the primary');
    const read = await pollUntil(() => call(far.url, 'GET', '/api/v1/workspaces/default/content-types/posts', { token: reader }), (answer) => answer.status === 200);
    expect(read.status).to.equal(200);

    const login = await fetch(`${near.baseUrl}/admin/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'correct horse battery' }) });
    expect(login.status).to.equal(200);
    const cookie = cookieHeaderOf(login.headers);
    const me = await near.request('GET', '/admin/api/me', { headers: { cookie } });
    expect(me.status).to.equal(200);
    expect(me.body.data.username).to.equal('admin');
    const elsewhere = await pollUntil(() => call(far.url, 'GET', '/admin/api/me', { headers: { cookie } }), (answer) => answer.status === 200);
    expect(elsewhere.body.data.username).to.equal('admin');
    // Only the primary keeps the activity log; a replica asks it.
    const activity = await near.request('GET', '/admin/api/activity?type=auth.login', { headers: { cookie } });
    expect(activity.status).to.equal(200);
    expect(activity.body.data.length).to.be.greaterThan(0);
  });

  it('serves a media file on a replica that never saw its upload, with ranges and 304', async () => {
    const png = await makePng(3, 2);
    const uploaded = await uploadMedia(near, [{ filename: 'pixel.png', bytes: png, type: 'image/png' }], { token });
    expect(uploaded.status).to.equal(201);
    const filename = uploaded.body.data[0].filename as string;
    const file = await pollUntil(() => fetch(`${far.url}/media/default/${filename}`), (response) => response.status === 200);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).to.equal(true);
    const range = await fetch(`${far.url}/media/default/${filename}`, { headers: { range: 'bytes=0-7' } });
    expect(range.status).to.equal(206);
    expect((await range.arrayBuffer()).byteLength).to.equal(8);
    const again = await fetch(`${far.url}/media/default/${filename}`, { headers: { 'if-none-match': file.headers.get('etag') ?? '' } });
    expect(again.status).to.equal(304);
    expect((await fetch(`${far.url}/media-thumbs/default/${filename}`)).status).to.equal(200);
  });

  it('lets a developer clone from a replica and push through it to the primary', async () => {
    const work = await cloneFrom(repoUrl(near.baseUrl, token));
    await commitIn(work, { 'default/entries/posts/pushed-via-replica.md': '---\ntitle: Pushed via a replica\nstatus: published\n---\n' }, 'Push through a replica');
    await mustGit(work, ['push', '--quiet']);
    expect((await primary.request('GET', `${POSTS}/pushed-via-replica`)).status).to.equal(200);
    const seen = await pollUntil(() => near.request('GET', `${POSTS}/pushed-via-replica`), (answer) => answer.status === 200);
    expect(seen.status).to.equal(200);
  });

  it('lists on a replica the releases made through it, which only the primary holds', async () => {
    const session = { cookie: admin.cookie, 'x-csrf-token': admin.csrf };
    const created = await near.request('POST', '/admin/api/releases', { body: { name: 'through-near' }, headers: session });
    expect(created.status).to.equal(201);
    for (const url of [near.baseUrl, far.url]) {
      const listed = await call(url, 'GET', '/admin/api/releases', { headers: { cookie: admin.cookie } });
      expect(listed.status).to.equal(200);
      expect(listed.body.data.map((release: { name: string }) => release.name)).to.include('through-near');
    }
  });

  it('catches up after being killed with SIGKILL and restarted', async () => {
    await far.kill('SIGKILL');
    for (const title of ['While down one', 'While down two']) {
      expect((await primary.request('POST', POSTS, { token, body: { title, status: 'published' } })).status).to.equal(201);
    }
    await startFar();
    const head = await headOid(contentRepoOf(primary.dataDir));
    const health = await pollUntil(() => call(far.url, 'GET', '/api/v1/health'), (answer) => answer.body.data.git.head === head, { timeoutMs: 15_000 });
    expect(health.body.data.git.head).to.equal(head);
    expect((await call(far.url, 'GET', `${POSTS}/while-down-two`)).status).to.equal(200);
    expect(await statusPorcelain(contentRepoOf(farDataDir))).to.equal('');
  });

  it('keeps serving reads with the primary down and answers writes with 503 primary_unavailable', async () => {
    await primary.close({ keepData: true });
    for (const url of [near.baseUrl, far.url]) {
      expect((await call(url, 'GET', `${POSTS}/while-down-one`)).status).to.equal(200);
      const write = await call(url, 'POST', POSTS, { token, body: { title: 'Nowhere to go' } });
      expect(write.status).to.equal(503);
      expect(write.body.error.code).to.equal('primary_unavailable');
    }
    const health = await pollUntil(() => call(far.url, 'GET', '/api/v1/health'), (answer) => answer.body.data.git.primary.reachable === false);
    expect(health.status).to.equal(200);
    expect(health.body.data.git.primary.reachable).to.equal(false);
  });
});

describe("a replica and its primary's releases", function () {
  this.timeout(60_000);
  let primary: TestServer;
  let admin: AdminSession;
  let replica: TestServer;
  const RELEASE_READ = `${POSTS}?ref=v1`;

  before(async () => {
    const built = await buildAdminServer({ token: FULL_ACCESS });
    ({ server: primary, admin } = built);
    const token = built.token;
    expect((await primary.request('POST', '/api/v1/workspaces/default/content-types', { token, body: { name: 'posts' } })).status).to.equal(201);
    expect((await primary.request('POST', POSTS, { token, body: { title: 'Released', status: 'published' } })).status).to.equal(201);
    const replicaToken = await issueToken(primary, admin, [{ effect: 'allow', actions: ['git.pull', 'replication.read'], resources: ['*'] }], 'replica');
    // A release moves no branch; a replica's timed sync (the fallback) is what brings it, made short here.
    replica = await startTestServer({ env: { CMS_ROLE: 'replica', CMS_PRIMARY_URL: primary.baseUrl, CMS_GIT_UPSTREAM_TOKEN: replicaToken, CMS_GIT_SYNC_INTERVAL_MS: '200' } });
  });
  after(async () => {
    await replica?.close();
    await primary?.close();
  });

  it('answers ?ref=<release> like the primary once the release is made there, and 404 once it is deleted', async () => {
    expect((await replica.request('GET', RELEASE_READ)).status).to.equal(404);
    expect((await adminRequest(primary, admin, 'POST', '/releases', { name: 'v1' })).status).to.equal(201);
    const atRelease = await pollUntil(() => replica.request('GET', RELEASE_READ), (answer) => answer.status === 200);
    expect(atRelease.body.data.map((entry: { slug: string }) => entry.slug)).to.deep.equal(['released']);
    expect(atRelease.body).to.deep.equal((await primary.request('GET', RELEASE_READ)).body);
    expect((await adminRequest(primary, admin, 'DELETE', '/releases/v1')).status).to.equal(200);
    const gone = await pollUntil(() => replica.request('GET', RELEASE_READ), (answer) => answer.status === 404);
    expect(gone.body.error.code).to.equal('not_found');
  });
});

describe('a replica that cannot start', () => {
  it('refuses to start without content when its primary cannot be reached', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cms-replica-'));
    try {
      const started = await startTestServer({ dataDir, env: { CMS_ROLE: 'replica', CMS_PRIMARY_URL: 'http://127.0.0.1:9', CMS_LOG_LEVEL: 'silent' } }).then(
        (server) => server.close(),
        (error: unknown) => error,
      );
      expect(started).to.be.instanceOf(Error);
      expect(String(started)).to.contain('could not be cloned');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the replication endpoint of a primary', () => {
  let primary: TestServer;
  let admin: AdminSession;
  let token: string;

  before(async () => {
    ({ server: primary, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
  });
  after(() => primary.close());

  it('hands the replicated state only to a token whose grant names replication.read', async () => {
    expect((await primary.request('GET', '/replication/v1/state')).status).to.equal(401);
    const wildcard = await issueToken(primary, admin, WILDCARD_ACCESS, 'wildcard');
    const everything = await primary.request('GET', '/replication/v1/state', { token: wildcard });
    expect(everything.status).to.equal(403);
    expect(everything.body.error.code).to.equal('forbidden');
    expect((await primary.request('GET', '/replication/v1/state', { token })).status).to.equal(200);
    const replicaToken = await issueToken(primary, admin, [{ effect: 'allow', actions: ['replication.read', 'git.pull'], resources: ['*'] }], 'replica');
    const state = await primary.request('GET', '/replication/v1/state', { token: replicaToken });
    expect(state.status).to.equal(200);
    expect(state.body.data).to.have.all.keys('version', 'users', 'roles', 'tokens', 'sessions', 'session_keys');
    expect(state.body.data.users.map((user: { username: string }) => user.username)).to.deep.equal(['admin']);
  });

  it('answers a long poll at once when the replica is behind, and when the primary moves', async () => {
    const replicaToken = await issueToken(primary, admin, [{ effect: 'allow', actions: ['replication.*'], resources: ['*'] }], 'poller');
    const now = await primary.request('GET', '/replication/v1/changes', { token: replicaToken });
    expect(now.body.data).to.have.all.keys('head', 'state');
    const waiting = primary.request('GET', `/replication/v1/changes?head=${now.body.data.head}&state=${now.body.data.state}&wait=20000`, { token: replicaToken });
    const created = await primary.request('POST', '/api/v1/workspaces/default/content-types', { token, body: { name: 'pages' } });
    expect(created.status).to.equal(201);
    const moved = await waiting;
    expect(moved.status).to.equal(200);
    expect(moved.body.data.head).to.not.equal(now.body.data.head);
    expect(created.headers.get('x-cms-head')).to.equal(moved.body.data.head);
    const badWait = await primary.request('GET', '/replication/v1/changes?wait=forever', { token: replicaToken });
    expect(badWait.status).to.equal(400);
  });
});
