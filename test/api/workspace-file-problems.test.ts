// A bad `{ws}/workspace.yaml` committed by hand (docs/cli.md, "The same list
// from a running server"): GET /problems and `cms check` name the file, the
// key and a sentence; the workspace keeps serving its content with its last
// good settings; a fix clears the problem; a push over git refuses the file.
import { expect } from 'chai';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { login } from '../helpers/admin-users.ts';
import { runCms } from '../helpers/cli.ts';
import { cloneFrom, commitIn, mustGit, removeFolders, repoUrl, runGit } from '../helpers/git-client.ts';
import { contentRepoOf, externalCommit, fileAt, headOid } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { checkedProblems, listedProblems, type Problem } from '../helpers/problems.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const API = '/api/v1/workspaces/default';
const FILE = 'default/workspace.yaml';
const GOOD = 'label: Default\narchived: false\ntypes:\n  - posts\n';

describe('a bad workspace.yaml: GET /problems, cms check, pushes', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let repo: string;

  beforeEach(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    expect((await server.request('POST', `${API}/content-types`, { body: { name: 'posts', fields: {} }, token })).status).to.equal(201);
    expect((await server.request('POST', `${API}/content/posts`, { body: { title: 'Hello', slug: 'hello', status: 'published' }, token })).status).to.equal(201);
    await externalCommit(repo, { write: { [FILE]: GOOD } }, 'Order the types');
    await pollUntil(label, (value) => value === 'Default');
  });
  afterEach(async () => {
    await server?.close();
    await removeFolders();
  });

  const problems = () => listedProblems(server, 'default', token);

  async function label(): Promise<string | undefined> {
    const listed = await adminRequest(server, admin, 'GET', '/workspaces');
    return (listed.body.data as { slug: string; label: string }[]).find((workspace) => workspace.slug === 'default')?.label;
  }

  const checked = () => checkedProblems(repo);

  // The problems of one bad file, listed by the server once its commit is read, the same as cms check; then fixed.
  async function breakAndFix(text: string, expected: { field?: string; message: RegExp }[]): Promise<Problem[]> {
    await externalCommit(repo, { write: { [FILE]: text } }, 'Edit workspace.yaml by hand');
    const listed = await pollUntil(problems, (list) => list.length > 0);
    expect(listed.map((problem) => problem.path)).to.deep.equal(expected.map(() => FILE));
    expected.forEach((want, position) => {
      expect(listed[position].field).to.equal(want.field);
      expect(listed[position].message).to.match(want.message).and.match(/\.$/);
    });
    expect(await checked()).to.deep.equal(listed);
    // The rest of the workspace keeps working, with its last good label.
    expect((await server.request('GET', `${API}/content/posts/hello`, { token })).status).to.equal(200);
    expect((await server.request('GET', `${API}/content-types`)).status).to.equal(200);
    expect(await label()).to.equal('Default');

    await externalCommit(repo, { write: { [FILE]: GOOD } }, 'Fix workspace.yaml');
    expect(await pollUntil(problems, (list) => list.length === 0)).to.deep.equal([]);
    expect(await checked()).to.deep.equal([]);
    return listed;
  }

  it('lists a file that is not YAML, keeps serving the workspace, and clears it once fixed', async () => {
    await breakAndFix('label: [Default\ntypes: posts]\n', [{ message: /not valid YAML/ }]);
  });

  it('lists a file that is not a mapping', async () => {
    await breakAndFix('- posts\n- pages\n', [{ message: /must be a YAML mapping/ }]);
  });

  it('lists each setting of the wrong shape, and unknown keys, by key', async () => {
    await breakAndFix('label: 12\narchived: maybe\ntypes: 12\ncolour: blue\n', [
      { field: 'archived', message: /true or false/ },
      { field: 'colour', message: /Unknown property "colour"/ },
      { field: 'label', message: /non-empty text/ },
      { field: 'types', message: /list of content type names/ },
    ]);
  });

  it('keeps the last good archived flag when the file breaks it', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/shop', { archived: true })).status).to.equal(200);
    // The new label tells when the server has read the commit.
    await externalCommit(repo, { write: { 'shop/workspace.yaml': 'label: Shop 2\narchived: maybe\n' } }, 'Break the archived flag');
    const listed = await pollUntil(
      () => adminRequest(server, admin, 'GET', '/workspaces?include_archived=true'),
      (response) => (response.body.data as { slug: string; label: string }[]).some((workspace) => workspace.label === 'Shop 2'),
    );
    expect((listed.body.data as { slug: string; label: string; archived: boolean }[]).find((workspace) => workspace.slug === 'shop')).to.include({ label: 'Shop 2', archived: true });
    expect((await server.request('GET', '/api/v1/workspaces/shop/content-types')).status).to.equal(404);
    expect((await checked()).find((problem) => problem.path === 'shop/workspace.yaml')).to.include({ field: 'archived' });
  });

  it('takes a misspelt archived for a bad archived: names the key meant, keeps the last good flag, and hides the workspace when it starts on the file', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    await externalCommit(repo, { write: { 'shop/workspace.yaml': 'label: Shop\narchive: true\n' } }, 'Archive the shop, misspelt');
    const expected = [{ path: 'shop/workspace.yaml', field: 'archive', message: 'Unknown property "archive": did you mean "archived"?' }];
    expect(await pollUntil(() => listedProblems(server, 'shop', token), (list) => list.length > 0)).to.deep.equal(expected);
    expect(await checked()).to.deep.equal(expected);
    // The running server knew it active, so it stays active (as for `archived: maybe`).
    expect((await server.request('GET', '/api/v1/workspaces/shop/content-types')).status).to.equal(200);

    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir });
    expect((await server.request('GET', '/api/v1/workspaces/shop/content-types')).status).to.equal(404);
    expect(await listedProblems(server, 'shop', token)).to.deep.equal(expected);
  });

  it('lists a type name in types that is no content type, and drops it once the type exists', async () => {
    await externalCommit(repo, { write: { [FILE]: 'label: Default\ntypes:\n  - posts\n  - pages\n' } }, 'Name a type to come');
    const listed = await pollUntil(problems, (list) => list.length > 0);
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ path: FILE, field: 'types' });
    expect(listed[0].message).to.contain('"pages"');
    expect(await checked()).to.deep.equal(listed);

    await externalCommit(repo, { write: { 'default/types/pages.yaml': 'fields: {}\n' } }, 'Add the pages type');
    expect(await pollUntil(problems, (list) => list.length === 0)).to.deep.equal([]);
    expect(await checked()).to.deep.equal([]);
  });

  it('drops a deleted type from types, so that deleting a type leaves no problem behind', async () => {
    expect((await server.request('POST', `${API}/content-types`, { body: { name: 'pages', fields: {} }, token })).status).to.equal(201);
    expect((await adminRequest(server, admin, 'PATCH', '/content-types/order', { names: ['pages', 'posts'] })).status).to.equal(200);
    expect((await server.request('DELETE', `${API}/content-types/pages`, { token })).status).to.equal(200);
    expect(await fileAt(repo, FILE)).to.not.contain('pages');
    expect(await checked()).to.deep.equal([]);
  });

  // An archived flag it cannot read at start hides the workspace instead: workspace-archived-in-doubt.test.ts.
  it('lists a file that was bad when the server started, loads and serves the workspace, and does not write over the file', async () => {
    const bad = 'label: 12\narchived: false\n';
    await externalCommit(repo, { write: { [FILE]: bad } }, 'Break the label');
    await pollUntil(problems, (list) => list.length === 1);
    const dataDir = server.dataDir;
    const head = await headOid(repo);
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir });
    admin = await login(server, ADMIN_USERNAME, ADMIN_PASSWORD);
    expect(await problems()).to.deep.equal([{ path: FILE, field: 'label', message: 'Must be a non-empty text.' }]);
    expect((await server.request('GET', `${API}/content/posts/hello`, { token })).status).to.equal(200);
    expect(await label()).to.equal('default');
    expect(await headOid(repo)).to.equal(head);
    expect(await fileAt(repo, FILE)).to.equal(bad);
  });

  it('refuses a push of a bad workspace.yaml with remote: lines naming the file and key', async () => {
    const head = await headOid(repo);
    const work = await cloneFrom(repoUrl(server.baseUrl, token));
    for (const [text, line] of [
      ['label: [Default\n', /remote: default\/workspace\.yaml: The workspace file is not valid YAML/],
      ['label: Default\narchived: maybe\n', /remote: default\/workspace\.yaml: archived: Must be true or false\./],
      ['label: Default\ntypes:\n  - posts\n  - pagez\n', /remote: default\/workspace\.yaml: types: There is no content type "pagez"/],
    ] as const) {
      await commitIn(work, { [FILE]: text }, 'Edit workspace.yaml');
      const pushed = await runGit(work, ['push']);
      expect(pushed.code).to.not.equal(0);
      expect(pushed.stderr).to.match(line);
      expect(await headOid(repo)).to.equal(head);
      await mustGit(work, ['reset', '--hard', 'origin/HEAD', '--quiet']);
    }
  });

  it('refuses a push that deletes a type workspace.yaml names, but not one that finds an old stale name there', async () => {
    const work = await cloneFrom(repoUrl(server.baseUrl, token));
    await commitIn(work, { 'default/types/posts.yaml': null, 'default/entries/posts/hello.md': null }, 'Delete the posts type');
    const refused = await runGit(work, ['push']);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.match(/remote: default\/workspace\.yaml: types: There is no content type "posts"/);

    await externalCommit(repo, { write: { [FILE]: 'label: Default\ntypes:\n  - posts\n  - gone\n' } }, 'A stale name');
    expect(await pollUntil(problems, (list) => list.length === 1)).to.have.length(1);
    await mustGit(work, ['fetch', '--quiet']);
    await mustGit(work, ['reset', '--hard', 'origin/HEAD', '--quiet']);
    await commitIn(work, { 'default/types/pages.yaml': 'fields: {}\n' }, 'Add pages');
    const pushed = await runGit(work, ['push']);
    expect(pushed.code, pushed.stderr).to.equal(0);
  });

  it('cms check prints the problem and exits 1, 0 once fixed; --since HEAD reports a type deleted while workspace.yaml still names it', async () => {
    await externalCommit(repo, { write: { [FILE]: 'label: Default\narchived: maybe\n' } }, 'Break the archived flag');
    const broken = await runCms(['check', '--data', repo]);
    expect(broken.code, broken.stderr).to.equal(1);
    expect(broken.stdout).to.equal('default/workspace.yaml: archived: Must be true or false.\n');
    await externalCommit(repo, { write: { [FILE]: GOOD } }, 'Fix it');
    expect((await runCms(['check', '--data', repo])).code).to.equal(0);

    // A deletion staged in a developer's clone, as a pre-commit hook sees it.
    const work = await cloneFrom(repoUrl(server.baseUrl, token));
    await mustGit(work, ['rm', '-q', '--', 'default/types/posts.yaml', 'default/entries/posts/hello.md']);
    const staged = await runCms(['check', '--data', work, '--since', 'HEAD']);
    expect(staged.code).to.equal(1);
    expect(staged.stdout).to.match(/^default\/workspace\.yaml: types: There is no content type "posts"/);
  });
});
