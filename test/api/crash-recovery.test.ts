// Crash safety (issue 10, items 1–3), the proof: a real server in a child
// process, written to by four clients at once, is killed with SIGKILL at a
// random moment, again and again. After every restart a write succeeds, every
// acknowledged write is served, the API and `git ls-files` agree and `git
// status` is empty; `git fsck --strict` is clean every time the server (and
// any background `git repack` it started, which fsck must not race) is down.
// The figures go to the test output.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildAdminServer, FULL_ACCESS } from '../helpers/auth.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { git } from '../helpers/git.ts';

const KILLS = 50;
const WRITERS = 4;
const POSTS = '/api/v1/workspaces/default/content/posts';
const ENTRIES = 'default/entries/posts';
const RECOVERY_MESSAGES: Record<string, string> = {
  'finished a commit that the previous run was stopped in': 'completed',
  'undid a commit that the previous run was stopped in before it reached the branch': 'rolled back',
  'removed the lock of a commit that the previous run was stopped in before it changed anything': 'lock released',
};

// What an entry may be after a restart: its title, or absent (null).
type State = string | null;

class Model {
  /** Acknowledged state by slug. */
  readonly acknowledged = new Map<string, string>();
  /** Slugs whose last write was cut off by the kill: either state may be served. */
  readonly uncertain = new Map<string, [State, State]>();
  acks = 0;

  stateOf(slug: string): State {
    return this.acknowledged.get(slug) ?? null;
  }

  /** Checks what the restarted server serves and adopts it. */
  reconcile(served: Map<string, string>): void {
    for (const [slug, title] of this.acknowledged) {
      if (this.uncertain.has(slug)) continue;
      expect(served.get(slug), `acknowledged write of ${slug}`).to.equal(title);
    }
    for (const [slug, title] of served) {
      if (!this.uncertain.has(slug)) expect(this.acknowledged.get(slug), `served ${slug}`).to.equal(title);
    }
    for (const [slug, states] of this.uncertain) {
      const state = served.get(slug) ?? null;
      expect(states, `interrupted write of ${slug}`).to.include(state);
      if (state === null) this.acknowledged.delete(slug);
      else this.acknowledged.set(slug, state);
    }
    this.uncertain.clear();
  }
}

describe('crash recovery: a writing server killed at random moments', function () {
  this.timeout(600_000);
  let dataDir: string;
  let token: string;
  let server: ChildServer | undefined;
  const model = new Model();

  const request = async (method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> => {
    if (server === undefined) throw new Error('no server');
    const response = await fetch(server.url + url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };

  // One write whose outcome is uncertain until it is acknowledged. Returns
  // false when the connection broke (the kill); any answer but the expected
  // one fails the test, kill or not.
  const tracked = async (slug: string, next: State, send: () => Promise<{ status: number; body: any }>, expected: number): Promise<boolean> => {
    model.uncertain.set(slug, [model.stateOf(slug), next]);
    let answer;
    try {
      answer = await send();
    } catch (error) {
      if (error instanceof TypeError) return false;
      throw error;
    }
    expect(answer.status, `write of ${slug}: ${JSON.stringify(answer.body)}`).to.equal(expected);
    model.uncertain.delete(slug);
    if (next === null) model.acknowledged.delete(slug);
    else model.acknowledged.set(slug, next);
    model.acks += 1;
    return true;
  };

  // Creates, updates and deletes its own entries until the connection breaks.
  const writer = async (id: number, round: number): Promise<void> => {
    const own: string[] = [];
    for (let n = 0; ; n += 1) {
      const pick = Math.random();
      const target = own[Math.floor(Math.random() * own.length)];
      let answered: boolean;
      if (target === undefined || pick < 0.5) {
        const slug = `w${id}-${round}-${n}`;
        answered = await tracked(slug, `Created ${slug}`, () => request('POST', POSTS, { title: `Created ${slug}`, slug, status: 'published', body: `Body of ${slug}.` }), 201);
        own.push(slug);
      } else if (pick < 0.85) {
        const title = `Updated ${target} ${n}`;
        answered = await tracked(target, title, () => request('PATCH', `${POSTS}/${target}`, { title }), 200);
      } else {
        answered = await tracked(target, null, () => request('DELETE', `${POSTS}/${target}`), 200);
        own.splice(own.indexOf(target), 1);
      }
      if (!answered) return;
    }
  };

  async function servedEntries(): Promise<Map<string, string>> {
    const { status, body } = await request('GET', POSTS);
    expect(status).to.equal(200);
    return new Map((body.data as { slug: string; title: string }[]).map((entry) => [entry.slug, entry.title]));
  }

  async function checkRestarted(round: number): Promise<void> {
    const repo = path.join(dataDir, 'content');
    const served = await servedEntries();
    model.reconcile(served);
    const inGit = (await git(repo, ['ls-files', ENTRIES])).split('\n').filter((line) => line !== '');
    expect(inGit.map((file) => path.basename(file, '.md')).sort()).to.deep.equal([...served.keys()].sort());
    expect(await git(repo, ['status', '--porcelain', '--untracked-files=all'])).to.equal('');
    const slug = `probe-${round}`;
    expect(await tracked(slug, `Probe ${round}`, () => request('POST', POSTS, { title: `Probe ${round}`, slug, status: 'published' }), 201)).to.equal(true);
  }

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'crash-'));
    const setup = await buildAdminServer({ dataDir, token: FULL_ACCESS });
    token = setup.token;
    const created = await setup.server.request('POST', '/api/v1/workspaces/default/content-types', {
      body: { name: 'posts', fields: { body: { type: 'markdown' } } },
      token,
    });
    expect(created.status, created.text).to.equal(201);
    await setup.server.close({ keepData: true });
  });

  after(async () => {
    await server?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`loses no acknowledged write and leaves git clean over ${KILLS} kills`, async () => {
    const recoveries: Record<string, number> = {};
    for (let round = 0; round <= KILLS; round += 1) {
      server = await startChildServer(dataDir);
      for (const { message } of server.logs) {
        const kind = RECOVERY_MESSAGES[message];
        if (kind !== undefined) recoveries[kind] = (recoveries[kind] ?? 0) + 1;
      }
      await checkRestarted(round);
      if (round === KILLS) break;
      const writers = Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id, round)));
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 600));
      await server.kill();
      await writers;
      await git(path.join(dataDir, 'content'), ['fsck', '--no-progress', '--strict']);
    }
    await server?.kill();
    server = undefined;
    const recovered = Object.values(recoveries).reduce((sum, count) => sum + count, 0);
    console.log(`      crash test: ${KILLS} kills, ${model.acks} writes acknowledged, ${recovered} interrupted commits recovered ${JSON.stringify(recoveries)}, ${model.acknowledged.size} entries at the end`);
    expect(recovered).to.be.greaterThan(0);
  });
});
