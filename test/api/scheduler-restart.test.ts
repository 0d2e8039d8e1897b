// A save that announces a scheduled entry (its date had passed) marks it for
// the publish scheduler, and the mark outlives the process: a server killed
// between that save and the scheduler's next look does not announce the
// entry again when it starts; nor does one killed between the scheduler's own
// publish commit and its save of the last tick (docs/operations.md
// "Publication events"). The run that is killed is a child process killed
// with SIGKILL; the one after it runs in this process, so the test can tick
// its scheduler and drain its webhooks. No step may race the clock on a
// loaded machine: a date a test waits for has passed before a server that
// could look at it starts.
import { expect } from 'chai';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { adminRequest, buildAdminServer, FULL_ACCESS } from '../helpers/auth.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { commitInfo, contentRepoOf, externalCommit, git } from '../helpers/git.ts';
import { startLocalHttp, type LocalHttpServer } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { TICK_BY_HAND_ENV } from '../helpers/webhook-deliveries.ts';

const ENV = TICK_BY_HAND_ENV;
const BASE = '/api/v1/workspaces/default/content/posts';
// A date no test waits for: entries saved for it are scheduled, not public.
const FAR_AHEAD = '2099-01-01T00:00:00.000Z';

// Moves the publication date of entries to `at` in a commit from outside,
// made while no server runs: the date keys of their files (the type's tool
// keys for it, date and publishDate) all say `at`.
async function redateByHand(repo: string, ids: string[], at: number): Promise<void> {
  const write: Record<string, string> = {};
  for (const id of ids) {
    for (const file of (await git(repo, ['grep', '-l', '-e', `^id: ${id}$`])).trim().split('\n')) {
      const text = await readFile(path.join(repo, file), 'utf8');
      write[file] = text.replace(/^(date|publishDate): .*$/gm, `$1: ${new Date(at).toISOString()}`);
    }
  }
  await externalCommit(repo, { write }, 'Move the dates');
}

describe('publish scheduler across a restart', function () {
  this.timeout(120_000);
  let dataDir: string;
  let token: string;
  let receiver: LocalHttpServer;
  let child: ChildServer | undefined;
  let server: TestServer | undefined;

  beforeEach(async () => {
    receiver = await startLocalHttp();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'scheduler-restart-'));
    const setup = await buildAdminServer({ dataDir, env: ENV, token: FULL_ACCESS });
    token = setup.token;
    expect((await setup.server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts' }, token })).status).to.equal(201);
    const hooks = await adminRequest(setup.server, setup.admin, 'PUT', '/webhooks', { webhooks: [{ url: `${receiver.url}/hook`, events: ['content.published'] }] });
    expect(hooks.status).to.equal(200);
    await setup.server.close({ keepData: true });
  });
  afterEach(async () => {
    await child?.kill();
    child = undefined;
    await server?.close();
    server = undefined;
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  // The distinct content.published deliveries of `id` (a delivery retried after the kill keeps its id).
  const announcements = (id: string) =>
    new Set(
      receiver.requests
        .filter((request) => {
          const body = JSON.parse(request.body.toString('utf8')) as { event: string; data: { id: string } };
          return body.event === 'content.published' && body.data.id === id;
        })
        .map((request) => request.headers['x-service-delivery']),
    ).size;

  // A write to the child server, as the test's token.
  const send = async (method: string, url: string, body: unknown) => {
    const response = await fetch(child!.url + url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).to.be.oneOf([200, 201]);
    return (await response.json()) as { data: { id: string } };
  };

  it('does not announce an entry a save announced before a kill again after the restart, by a tick or by a save', async () => {
    child = await startChildServer(dataDir, { env: ENV });
    const { data } = await send('POST', BASE, { title: 'Late' });
    // A date after the scheduler's last look and before the save: the save announces it.
    await send('PATCH', `${BASE}/${data.id}`, { status: 'scheduled', published_at: new Date(Date.now() - 1).toISOString() });
    await pollUntil(async () => announcements(data.id), (count) => count === 1);
    // The mark is on disk once the state document names the entry; only then is the kill after the save.
    await pollUntil(async () => readFile(path.join(dataDir, 'state', 'scheduler.json'), 'utf8').catch(() => ''), (text) => text.includes(data.id));
    await child.kill();
    child = undefined;

    server = await startTestServer({ dataDir, env: ENV });
    const head = (await commitInfo(contentRepoOf(dataDir))).oid;
    expect(await server.services.scheduler.tick()).to.equal(0);
    // Nothing to rewrite either: the save wrote the files with `draft: false`.
    expect((await commitInfo(contentRepoOf(dataDir))).oid).to.equal(head);
    // Nor does a save that keeps it public: it was announced before the kill.
    expect((await server.request('PATCH', `${BASE}/${data.id}`, { body: { status: 'published' }, token })).status).to.equal(200);
    await pollUntil(async () => server!.services.webhookDispatcher.pending().length, (pending) => pending === 0);
    expect(announcements(data.id)).to.equal(1);
  });

  it('does not announce the entries of its own publish commit again after a kill before it saved the tick, but a later date still comes due', async () => {
    // Saved for a date far ahead, then moved by hand (no server running) to
    // one after the saved last tick that has passed: no save can race the
    // clock and announce them itself, and the child's first look publishes
    // both in one commit.
    server = await startTestServer({ dataDir, env: ENV });
    const create = async (title: string) => {
      const response = await server!.request('POST', BASE, { body: { title, status: 'scheduled', published_at: FAR_AHEAD }, token });
      expect(response.status, response.text).to.equal(201);
      return response.body.data.id as string;
    };
    const kept = await create('Kept');
    const moved = await create('Moved');
    await server.close({ keepData: true });
    server = undefined;
    const stateFile = path.join(dataDir, 'state', 'scheduler.json');
    const lookedAt = (JSON.parse(await readFile(stateFile, 'utf8')) as { last_tick: string }).last_tick;
    const repo = contentRepoOf(dataDir);
    await redateByHand(repo, [kept, moved], Date.parse(lookedAt) + 1);
    // The scheduler looks every 100 ms here: it publishes the entries itself.
    child = await startChildServer(dataDir, { env: { ...ENV, CMS_SCHEDULER_INTERVAL_MS: '100' } });
    await pollUntil(async () => announcements(kept) + announcements(moved), (count) => count === 2);
    const publish = await commitInfo(repo);
    expect([publish.trailers.Actor, publish.subject.startsWith('Publish '), publish.trailers.Entries?.split(' ').sort()]).to.deep.equal(['system', true, [kept, moved].sort()]);
    await child.kill();
    child = undefined;
    // Taken off the site after its publish commit, and due again after that tick: that date is news.
    await redateByHand(repo, [moved], Date.parse(publish.trailers['Scheduler-Tick']) + 1);
    // What a kill between the publish commit and the save of its tick leaves: the last tick from before the entries' date.
    await writeFile(stateFile, `${JSON.stringify({ last_tick: lookedAt })}\n`);
    await chmod(stateFile, 0o600);

    server = await startTestServer({ dataDir, env: ENV });
    expect(await server.services.scheduler.tick()).to.equal(1);
    await pollUntil(async () => server!.services.webhookDispatcher.pending().length, (pending) => pending === 0);
    expect([announcements(kept), announcements(moved)]).to.deep.equal([1, 2]);
  });
});
