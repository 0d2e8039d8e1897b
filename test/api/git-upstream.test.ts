// Upstream sync with a bare repository and the real git CLI: the server's
// commits reach the upstream, the upstream's reach the server, both moving
// at once is replayed, and a real conflict is parked on a branch and
// reported, with nothing lost. The upstream is made unreachable (renamed)
// while the two sides diverge, so the test decides when the server sees it.
import { expect } from 'chai';
import { rename } from 'node:fs/promises';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { userWithGrants } from '../helpers/admin-users.ts';
import { bareRepository, cloneFrom, commitIn, DEVELOPER, mustGit, refOf, removeFolders } from '../helpers/git-client.ts';
import { commitInfo, contentRepoOf, headOid, statusPorcelain } from '../helpers/git.ts';
import { startLocalHttp, type LocalHttpServer } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';

describe('upstream sync with a bare repository', function () {
  this.timeout(60_000);
  let upstream: string;
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let receiver: LocalHttpServer;

  before(async () => {
    upstream = await bareRepository();
    receiver = await startLocalHttp();
    // Syncs run when the test asks (POST /git/sync); pushes follow every write on their own.
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS, env: { CMS_GIT_UPSTREAM: upstream, CMS_GIT_SYNC_INTERVAL_MS: '600000' } }));
    expect((await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: [{ url: receiver.url, events: ['git.conflict'] }] })).status).to.equal(200);
    expect((await server.request('POST', '/api/v1/workspaces/default/content-types', { token, body: { name: 'notes', fields: { body: { type: 'markdown' } } } })).status).to.equal(201);
  });

  after(async () => {
    await server.close();
    await receiver.close();
    await removeFolders();
  });

  const repo = () => contentRepoOf(server.dataDir);
  const sync = async () => {
    const response = await adminRequest(server, admin, 'POST', '/git/sync');
    expect(response.status).to.equal(200);
    return response.body.data;
  };
  const createNote = async (title: string, body: string) => {
    const response = await server.request('POST', '/api/v1/workspaces/default/content/notes', { token, body: { title, body, status: 'published' } });
    expect(response.status).to.equal(201);
    return response.body.data;
  };
  // While the upstream is away, pushes fail and are retried; the developer works on it meanwhile.
  const whileAway = async <T>(work: (awayPath: string) => Promise<T>): Promise<T> => {
    const away = `${upstream}.away`;
    await rename(upstream, away);
    try {
      return await work(away);
    } finally {
      await rename(away, upstream);
    }
  };

  it('pushes the server\'s commits to the upstream', async () => {
    await createNote('Pushed', 'to the upstream');
    const head = await headOid(repo());
    expect(await pollUntil(() => refOf(upstream, 'refs/heads/main'), (oid) => oid === head)).to.equal(head);
    // The upstream's branch moves before the push ends: git updates the tracking ref, and the server records the push, after it.
    const status = await pollUntil(() => adminRequest(server, admin, 'GET', '/git'), (answer) => answer.body.data?.last_push?.error === null && answer.body.data.ahead === 0);
    expect(status.status).to.equal(200);
    expect(status.body.data).to.include({ role: 'primary', branch: 'main', head, upstream, upstream_branch: 'main', ahead: 0, behind: 0 });
    expect(status.body.data.last_push.error).to.equal(null);
  });

  it('takes in what was pushed to the upstream, on POST /git/sync', async () => {
    const work = await cloneFrom(upstream);
    const commit = await commitIn(work, { 'default/entries/notes/from-upstream.md': '---\ntitle: From upstream\nstatus: published\n---\nWritten on GitHub.\n' }, 'Note from upstream');
    await mustGit(work, ['push', '--quiet']);
    const status = await sync();
    expect(status).to.include({ head: commit, ahead: 0, behind: 0 });
    expect(status.last_fetch).to.include({ error: null });
    const read = await server.request('GET', '/api/v1/workspaces/default/content/notes/from-upstream');
    expect(read.status).to.equal(200);
    expect(read.body.data.data.body).to.contain('Written on GitHub.');
    expect(await statusPorcelain(repo())).to.equal('');
  });

  it('replays local commits onto the upstream when both moved, keeping authors, and pushes the result', async () => {
    const local = await whileAway(async (away) => {
      const created = await createNote('Local while away', 'made on the server');
      const work = await cloneFrom(away);
      await commitIn(work, { 'default/entries/notes/remote-while-away.md': '---\ntitle: Remote while away\nstatus: published\n---\n' }, 'Remote note');
      await mustGit(work, ['push', '--quiet']);
      return created;
    });
    const status = await sync();
    expect(status).to.include({ ahead: 0, behind: 0 });
    expect((await server.request('GET', '/api/v1/workspaces/default/content/notes/remote-while-away')).status).to.equal(200);
    expect((await server.request('GET', `/api/v1/workspaces/default/content/notes/${local.slug}`)).status).to.equal(200);
    const head = await headOid(repo());
    expect(await refOf(upstream, 'refs/heads/main')).to.equal(head);
    const replayed = await commitInfo(repo(), head);
    expect(replayed.subject).to.match(/notes\/local-while-away/);
    expect(replayed.authorEmail).to.match(/@tokens\.cms\.local$/);
    expect((await commitInfo(repo(), `${head}~1`)).authorName).to.equal(DEVELOPER.name);
    expect(await statusPorcelain(repo())).to.equal('');
  });

  it('parks local commits that conflict on cms/conflict-…, adopts the upstream and reports it', async () => {
    const note = await createNote('Contested', 'original');
    await sync();
    const path = `default/entries/notes/${note.slug}.md`;
    const localHead = await whileAway(async (away) => {
      const updated = await server.request('PATCH', `/api/v1/workspaces/default/content/notes/${note.id}`, { token, body: { body: 'the server says so' } });
      expect(updated.status).to.equal(200);
      const work = await cloneFrom(away);
      await commitIn(work, { [path]: '---\nid: ' + note.id + '\ntitle: Contested\nstatus: published\n---\nthe upstream says otherwise\n' }, 'Edit upstream');
      await mustGit(work, ['push', '--quiet']);
      return headOid(repo());
    });
    const status = await sync();
    expect(status.last_conflict.branch).to.match(/^cms\/conflict-\d{8}T\d{6}Z/);
    expect(status.last_conflict.local).to.equal(localHead);
    expect(await refOf(repo(), `refs/heads/${status.last_conflict.branch}`)).to.equal(localHead);
    expect(status.head).to.equal(await refOf(upstream, 'refs/heads/main'));
    const read = await server.request('GET', `/api/v1/workspaces/default/content/notes/${note.id}`);
    expect(read.body.data.data.body).to.contain('the upstream says otherwise');
    expect(await statusPorcelain(repo())).to.equal('');

    const activity = await adminRequest(server, admin, 'GET', '/activity?type=git.conflict');
    expect(activity.body.data[0]).to.include({ type: 'git.conflict', level: 'warning' });
    const delivered = await pollUntil(async () => receiver.requests.map((request) => JSON.parse(request.body.toString('utf8'))), (bodies) => bodies.length > 0);
    expect(delivered[0]).to.include({ event: 'git.conflict', workspace: '*' });
    expect(delivered[0].data).to.include({ branch: status.last_conflict.branch, local: localHead });
  });

  it('needs git.pull to read the status and git.push to sync', async () => {
    const editor = await userWithGrants(server, admin, 'gitless', [{ effect: 'allow', actions: ['content.*'], resources: ['*'] }]);
    expect((await adminRequest(server, editor.session, 'GET', '/git')).status).to.equal(403);
    const reader = await userWithGrants(server, admin, 'gitreader', [{ effect: 'allow', actions: ['git.pull'], resources: ['*'] }]);
    expect((await adminRequest(server, reader.session, 'GET', '/git')).status).to.equal(200);
    const refused = await adminRequest(server, reader.session, 'POST', '/git/sync');
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('forbidden');
  });
});

describe('upstream status without secrets, and without an upstream', function () {
  this.timeout(30_000);
  let server: TestServer;
  let admin: AdminSession;

  afterEach(() => server.close());

  it('shows the upstream URL and its fetch error without the token or a password', async () => {
    const secret = 'upstream-token-do-not-show';
    ({ server, admin } = await buildAdminServer({
      env: { CMS_GIT_UPSTREAM: 'http://someone:hunter2@127.0.0.1:9/content.git', CMS_GIT_UPSTREAM_TOKEN: secret, CMS_GIT_SYNC_INTERVAL_MS: '600000' },
    }));
    const response = await adminRequest(server, admin, 'POST', '/git/sync');
    expect(response.status).to.equal(200);
    expect(response.body.data.upstream).to.equal('http://127.0.0.1:9/content.git');
    expect(response.body.data.last_fetch.error).to.be.a('string');
    expect(response.text).to.not.contain(secret);
    expect(response.text).to.not.contain('hunter2');
  });

  it('answers 409 conflict to a sync when no upstream is configured', async () => {
    ({ server, admin } = await buildAdminServer());
    const response = await adminRequest(server, admin, 'POST', '/git/sync');
    expect(response.status).to.equal(409);
    expect(response.body.error.code).to.equal('conflict');
    const status = await adminRequest(server, admin, 'GET', '/git');
    expect(status.body.data).to.include({ upstream: null, ahead: null, behind: null });
  });
});
