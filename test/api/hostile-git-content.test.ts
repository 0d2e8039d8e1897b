// Hostile or careless content committed with git (hardening issue, items 5
// and 12): an entry whose front matter is a billion-laughs structure is
// skipped and reported at once, on the commit and on every start, and the
// server stays responsive; every file the index skips is reported with a
// reason, never dropped without a word.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { commitByHand, contentRepoOf, externalCommit, git } from '../helpers/git.ts';
import { billionLaughs } from '../helpers/hostile-yaml.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('hostile content committed with git', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;

  beforeEach(async () => {
    ({ server, admin } = await buildAdminServer({ env: { CMS_WATCH_INTERVAL_MS: '100' } }));
    expect((await adminRequest(server, admin, 'POST', '/content-types', { name: 'posts', fields: { extra: { type: 'json' } } })).status).to.equal(201);
  });
  afterEach(() => server.close());

  const skipped = async (target: TestServer, session: AdminSession) =>
    (await adminRequest(target, session, 'GET', '/activity?type=content.file_skipped')).body.data.map((record: { details: { path: string } }) => record.details.path);

  it('skips and reports a YAML alias bomb quickly, and starts again with it in the repository', async () => {
    const bomb = `---\ntitle: Laughs\n${billionLaughs(8)}extra: *l8\n---\n`;
    await externalCommit(contentRepoOf(server.dataDir), { write: { 'default/entries/posts/laughs.md': bomb, 'default/entries/posts/fine.md': '---\ntitle: Fine\nstatus: published\n---\n' } }, 'Add a bomb');
    await pollUntil(() => skipped(server, admin), (paths) => paths.includes('default/entries/posts/laughs.md'));
    const health = await server.request('GET', '/api/v1/health');
    expect(health.status).to.equal(200);
    const list = await server.request('GET', '/api/v1/workspaces/default/content/posts');
    expect(list.body.data.map((entry: { title: string }) => entry.title)).to.deep.equal(['Fine']);

    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir });
    expect((await server.request('GET', '/api/v1/health')).status).to.equal(200);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts')).body.data).to.have.length(1);
    expect(process.memoryUsage().rss, 'the bomb was never expanded').to.be.below(1.5 * 1024 ** 3);
  });

  it('reports every file it skips with a reason: a bad name, an unknown type, a translation alone, no title', async () => {
    const files = {
      'default/entries/posts/My_Post.md': '---\ntitle: Bad name\n---\n',
      'default/entries/ghosts/boo.md': '---\ntitle: Boo\n---\n',
      'default/entries/posts/lonely.de.md': '---\ntitle: Allein\n---\n',
      'default/entries/posts/untitled.md': 'Just some text, no front matter.\n',
      'default/entries/posts/.gitkeep': '',
    };
    await externalCommit(contentRepoOf(server.dataDir), { write: files }, 'Add files the index cannot use');
    const expected = ['default/entries/posts/My_Post.md', 'default/entries/ghosts/boo.md', 'default/entries/posts/lonely.de.md', 'default/entries/posts/untitled.md'];
    const reported = await pollUntil(
      async () => (await adminRequest(server, admin, 'GET', '/activity?type=content.file_skipped')).body.data as { details: { path: string; reason: string } }[],
      (records) => expected.every((path) => records.some((record) => record.details.path === path)),
    );
    const reasonOf = (path: string) => reported.find((record) => record.details.path === path)?.details.reason ?? '';
    expect(reasonOf('default/entries/posts/My_Post.md')).to.include('not an entry file name');
    expect(reasonOf('default/entries/ghosts/boo.md')).to.include('no content type "ghosts"');
    expect(reasonOf('default/entries/posts/lonely.de.md')).to.include('lonely.md');
    expect(reasonOf('default/entries/posts/untitled.md')).to.include('title');
    expect(reported.some((record) => record.details.path.endsWith('.gitkeep')), 'dot files are not content').to.equal(false);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts', { headers: {} })).body.data).to.deep.equal([]);

    // At the next start, the same files are reported again.
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir });
    const again = (await server.services.activity.list({ kind: 'user', id: 'x', username: 'x', displayName: 'x', role: 'admin', grants: [{ effect: 'allow', actions: ['*'], resources: ['*'] }] }, { type: 'content.file_skipped', limit: 100 })).records;
    expect(again.filter((record) => expected.includes(String(record.details.path))).length).to.be.at.least(expected.length * 2);
  });

  it('records the rename of a file without an id as a rename, and the entry keeps its history (item 13)', async () => {
    const repo = contentRepoOf(server.dataDir);
    await externalCommit(repo, { write: { 'default/entries/posts/hello.md': '---\ntitle: Hello\nstatus: published\n---\nText.\n' } }, 'Add hello');
    await pollUntil(() => server.request('GET', '/api/v1/workspaces/default/content/posts/hello'), (response) => response.status === 200);
    await git(repo, ['mv', 'default/entries/posts/hello.md', 'default/entries/posts/hi.md']);
    await commitByHand(repo, ['-q', '-m', 'Rename hello to hi']);
    await pollUntil(() => server.request('GET', '/api/v1/workspaces/default/content/posts/hi'), (response) => response.status === 200);
    // The activity record follows the commit being taken in, a moment after the entry is readable.
    const activity = await pollUntil(() => adminRequest(server, admin, 'GET', '/activity?type=content'), (response) => response.body.data[0]?.type === 'content.updated');
    const records = activity.body.data as { type: string; message: string }[];
    expect(records[0]).to.include({ type: 'content.updated', message: 'Renamed posts/hello to hi.' });
    expect(records.some((record) => record.type === 'content.deleted'), 'nothing went to the trash').to.equal(false);
    const history = await adminRequest(server, admin, 'GET', '/content/posts/hi/revisions');
    expect(history.body.data.map((revision: { message: string }) => revision.message.trim())).to.deep.equal(['Rename hello to hi', 'Add hello']);
  });
});
