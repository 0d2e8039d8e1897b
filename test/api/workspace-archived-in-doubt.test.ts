// An `archived` the server cannot read and has no last good value for (it
// starts on the file, or first sees the workspace in a broken commit) counts
// as archived (docs/cli.md, "The same list from a running server"): the
// public API does not serve the workspace, GET /problems lists the file to
// whoever may read problems, and a commit that fixes it decides.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, loginAdmin, type AdminSession } from '../helpers/auth.ts';
import { removeFolders } from '../helpers/git-client.ts';
import { contentRepoOf, externalCommit, fileAt, headOid } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { listedProblems } from '../helpers/problems.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const SHOP = '/api/v1/workspaces/shop';
const FILE = 'shop/workspace.yaml';
const IN_DOUBT = 'label: Shop\narchived: maybe\n';

describe('an archived flag the server cannot read at start', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let repo: string;

  // A shop workspace with a published entry, then a server started on its broken workspace.yaml.
  beforeEach(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    expect((await server.request('POST', `${SHOP}/content-types`, { body: { name: 'posts', fields: {} }, token })).status).to.equal(201);
    expect((await server.request('POST', `${SHOP}/content/posts`, { body: { title: 'Hello', slug: 'hello', status: 'published' }, token })).status).to.equal(201);
    expect((await readHello()).status).to.equal(200);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    await externalCommit(repo, { write: { [FILE]: IN_DOUBT } }, 'Edit workspace.yaml by hand');
    server = await startTestServer({ dataDir });
    admin = await loginAdmin(server);
  });
  afterEach(async () => {
    await server?.close();
    await removeFolders();
  });

  function readHello() {
    return server.request('GET', `${SHOP}/content/posts/hello`, { token });
  }

  const problems = (asToken = token) => listedProblems(server, 'shop', asToken);

  async function isListedArchived(): Promise<boolean | undefined> {
    const listed = await adminRequest(server, admin, 'GET', '/workspaces?include_archived=true');
    return (listed.body.data as { slug: string; archived: boolean }[]).find((workspace) => workspace.slug === 'shop')?.archived;
  }

  it('does not serve the workspace, lists the file by key, and leaves the file as it is', async () => {
    const head = await headOid(repo);
    const read = await readHello();
    expect(read.status).to.equal(404);
    expect(read.body.error.code).to.equal('not_found');
    expect((await server.request('GET', `${SHOP}/content-types`)).status).to.equal(404);
    expect(await problems()).to.deep.equal([{ path: FILE, field: 'archived', message: 'Must be true or false.' }]);
    expect(await isListedArchived()).to.equal(true);
    expect(await headOid(repo)).to.equal(head);
    expect(await fileAt(repo, FILE)).to.equal(IN_DOUBT);
  });

  it('answers GET /problems of the hidden workspace only to those who may read problems (404 for the others, as for any archived workspace)', async () => {
    const anonymous = await server.request('GET', `${SHOP}/problems`);
    expect(anonymous.status).to.equal(404);
    expect(anonymous.body.error.code).to.equal('not_found');
    const reader = await issueToken(server, admin, [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }], 'reader');
    expect((await server.request('GET', `${SHOP}/problems`, { token: reader })).status).to.equal(404);
    const checker = await issueToken(server, admin, [{ effect: 'allow', actions: ['problems.read'], resources: ['*'] }], 'ci');
    expect(await problems(checker)).to.have.length(1);
  });

  it('serves the workspace again once a commit says archived: false', async () => {
    await externalCommit(repo, { write: { [FILE]: 'label: Shop\narchived: false\n' } }, 'Fix workspace.yaml');
    expect((await pollUntil(readHello, (response) => response.status === 200)).body.data.slug).to.equal('hello');
    expect(await problems()).to.deep.equal([]);
    expect(await isListedArchived()).to.equal(false);
  });

  it('keeps it archived once a commit says archived: true', async () => {
    await externalCommit(repo, { write: { [FILE]: 'label: Shop 2\narchived: true\n' } }, 'Archive the shop');
    await pollUntil(problems, (list) => list.length === 0);
    expect((await readHello()).status).to.equal(404);
    expect(await isListedArchived()).to.equal(true);
  });

  it('serves it again when an admin restores it, which writes a good file', async () => {
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/shop', { archived: false })).status).to.equal(200);
    expect((await readHello()).status).to.equal(200);
    expect(await problems()).to.deep.equal([]);
    expect(await fileAt(repo, FILE)).to.match(/^archived: false$/m);
  });

  it('writes archived: true when an admin renames it, so the file says what the server does', async () => {
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/shop', { label: 'Shop 2' })).status).to.equal(200);
    expect(await fileAt(repo, FILE)).to.match(/^archived: true$/m);
    expect(await problems()).to.deep.equal([]);
    expect((await readHello()).status).to.equal(404);
  });

  it('does not serve a workspace first seen in a commit with an archived it cannot read', async () => {
    await externalCommit(repo, { write: { [FILE]: 'label: Shop\narchived: false\n' } }, 'Fix workspace.yaml');
    await pollUntil(readHello, (response) => response.status === 200);
    await externalCommit(repo, { write: { 'news/workspace.yaml': 'label: News\narchived: yes please\n', 'news/types/posts.yaml': 'fields: {}\n' } }, 'Add a news workspace');
    const listed = await pollUntil(
      () => server.request('GET', '/api/v1/workspaces/news/problems', { token }),
      (response) => response.status === 200,
    );
    expect(listed.body.data).to.deep.equal([{ path: 'news/workspace.yaml', field: 'archived', message: 'Must be true or false.' }]);
    expect((await server.request('GET', '/api/v1/workspaces/news/content-types')).status).to.equal(404);
  });
});
