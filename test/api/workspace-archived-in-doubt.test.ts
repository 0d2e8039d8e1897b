// An `archived` the server cannot read and has no last good value for (it
// starts on the file, or first sees the workspace in a broken commit) counts
// as archived (docs/cli.md, "The same list from a running server"): the
// public API does not serve the workspace, GET /problems lists the file to
// whoever may read problems, the admin dashboard of the workspace shows it
// to those who may manage the workspace, and a commit that fixes it decides.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, loginAdmin, type AdminSession } from '../helpers/auth.ts';
import { removeFolders } from '../helpers/git-client.ts';
import { sessionWithGrants } from '../helpers/editorial.ts';
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

  it('shows the dashboard, marked archived in doubt with the file\'s problems, to those who may manage the workspace, and 404 to other editors', async () => {
    const dashboard = (session: AdminSession) => adminRequest(server, session, 'GET', '/dashboard', undefined, { 'x-service-workspace': 'shop' });
    const answer = await dashboard(admin);
    expect(answer.status).to.equal(200);
    expect(answer.body.data).to.include({ workspace: 'shop', archived: true, archived_in_doubt: true });
    expect(answer.body.data.workspace_file_problems).to.have.length(1);
    expect(answer.body.data.workspace_file_problems[0]).to.include({ path: FILE, field: 'archived', message: 'Must be true or false.', reason: 'archived: Must be true or false.' });
    expect(answer.body.data.types.map((type: { name: string; total: number }) => [type.name, type.total])).to.deep.equal([['posts', 1]]);

    const editor = await sessionWithGrants(server, admin, 'editor', [{ effect: 'allow', actions: ['content.*', 'schema.read', 'problems.read'], resources: ['*'] }]);
    const hidden = await dashboard(editor);
    expect(hidden.status).to.equal(404);
    expect(hidden.body.error.code).to.equal('not_found');
    const manager = await sessionWithGrants(server, admin, 'manager', [{ effect: 'allow', actions: ['workspaces.manage'], resources: ['workspace:shop:workspaces:*'] }]);
    const managed = await dashboard(manager);
    expect(managed.status).to.equal(200);
    expect(managed.body.data).to.include({ archived: true, archived_in_doubt: true });
    expect(managed.body.data.workspace_file_problems.map((problem: { field: string }) => problem.field)).to.deep.equal(['archived']);
    expect(managed.body.data.skipped_files).to.deep.equal([]);

    // Brought back, it is an active workspace's dashboard; archived on purpose, it is not in doubt.
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/shop', { archived: false })).status).to.equal(200);
    expect((await dashboard(admin)).body.data).to.deep.include({ archived: false, archived_in_doubt: false, workspace_file_problems: [] });
    expect((await dashboard(editor)).status).to.equal(200);
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/shop', { archived: true })).status).to.equal(200);
    expect((await dashboard(admin)).body.data).to.deep.include({ archived: true, archived_in_doubt: false, workspace_file_problems: [] });
    expect((await dashboard(editor)).status).to.equal(404);
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
