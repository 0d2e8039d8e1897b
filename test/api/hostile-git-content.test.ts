// Hostile content committed with git (hardening issue, item 5): an entry whose
// front matter is a billion-laughs structure assigned to a json field is
// skipped and reported at once, on the commit and on every start, and the
// server stays responsive.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { contentRepoOf, externalCommit } from '../helpers/git.ts';
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
    await pollUntil(() => skipped(server, admin), (paths) => paths.includes('default/entries/posts/laughs.md'), { timeoutMs: 10_000 });
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
});
