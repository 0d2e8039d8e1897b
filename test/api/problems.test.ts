// Content problems (issue 16 item 4): GET /api/v1/workspaces/{ws}/problems
// lists every file of the content repo the server skips now, with path,
// field and message, kept current as commits made with plain git break and
// fix files, read at start-up, guarded by problems.read, and the same list
// the admin dashboard shows and `cms check` prints.
import { expect } from 'chai';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { login } from '../helpers/admin-users.ts';
import { sessionWithGrants } from '../helpers/editorial.ts';
import { contentRepoOf, externalCommit } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { checkedProblems, listedProblems, type Problem } from '../helpers/problems.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const PROBLEMS = '/api/v1/workspaces/default/problems';

function postFile(title: string, extra: string[] = []): string {
  return ['---', `title: ${title}`, 'status: published', ...extra, '---', 'Body', ''].join('\n');
}

describe('content problems: GET /problems', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let repo: string;

  beforeEach(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    const type = await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts', fields: { rating: { type: 'number' } } }, token });
    expect(type.status).to.equal(201);
  });
  afterEach(() => server?.close());

  const problems = () => listedProblems(server, 'default', token);

  // Outside commits are picked up by polling HEAD, so the answer is awaited rather than timed.
  function problemsUntil(done: (list: Problem[]) => boolean): Promise<Problem[]> {
    return pollUntil(problems, done);
  }

  it('lists a file broken by a git commit with path, field and message, and drops it once a later commit fixes it', async () => {
    expect(await problems()).to.deep.equal([]);
    await externalCommit(repo, { write: { 'default/entries/posts/good.md': postFile('Good'), 'default/entries/posts/rated.md': postFile('Rated', ['rating: lots']) } }, 'Add two posts, one with a bad rating');
    const listed = await problemsUntil((list) => list.length > 0);
    expect(listed).to.have.length(1);
    expect(listed[0]).to.have.all.keys('path', 'field', 'message');
    expect(listed[0]).to.include({ path: 'default/entries/posts/rated.md', field: 'rating' });
    expect(listed[0].message).to.be.a('string').and.not.equal('');
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/rated', { token })).status).to.equal(404);

    await externalCommit(repo, { write: { 'default/entries/posts/rated.md': postFile('Rated', ['rating: 4']) } }, 'Fix the rating');
    expect(await problemsUntil((list) => list.length === 0)).to.deep.equal([]);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/rated', { token })).status).to.equal(200);
  });

  it('names each kind of skipped file, and forgets one removed by a commit', async () => {
    await externalCommit(
      repo,
      {
        write: {
          'default/entries/posts/Bad Name.md': postFile('Bad name'),
          'default/entries/nowhere/orphan.md': postFile('Orphan'),
          'default/entries/posts/alone.de.md': postFile('Allein'),
          'default/entries/posts/untitled.md': ['---', 'status: draft', '---', 'No title', ''].join('\n'),
          'default/entries/posts/broken.md': '---\ntitle: [unclosed\n---\n',
        },
      },
      'Add five files the server cannot use',
    );
    const listed = await problemsUntil((list) => list.length >= 5);
    expect(listed.map((problem) => problem.path)).to.deep.equal([
      'default/entries/nowhere/orphan.md',
      'default/entries/posts/alone.de.md',
      'default/entries/posts/Bad Name.md',
      'default/entries/posts/broken.md',
      'default/entries/posts/untitled.md',
    ].sort((a, b) => a.localeCompare(b)));
    expect(listed.find((problem) => problem.path.endsWith('untitled.md'))).to.include({ field: 'title' });
    for (const problem of listed) expect(problem.message).to.match(/\S/);

    // A translation gets its entry file, the broken file is removed: both drop out.
    await externalCommit(repo, { write: { 'default/entries/posts/alone.md': postFile('Alone') }, remove: ['default/entries/posts/broken.md'] }, 'Fix two');
    const after = await problemsUntil((list) => list.length === 3);
    expect(after.map((problem) => problem.path)).to.not.include.members(['default/entries/posts/alone.de.md', 'default/entries/posts/broken.md']);
  });

  it('re-reads every entry when a type file changes: entries the new type accepts drop out', async () => {
    await externalCommit(repo, { write: { 'default/entries/posts/rated.md': postFile('Rated', ['rating: lots']) } }, 'A text rating');
    await problemsUntil((list) => list.length === 1);
    await externalCommit(repo, { write: { 'default/types/posts.yaml': ['fields:', '  rating:', '    type: text', ''].join('\n') } }, 'Ratings are text now');
    expect(await problemsUntil((list) => list.length === 0)).to.deep.equal([]);
  });

  it('forgets a file that the server itself writes over', async () => {
    await externalCommit(repo, { write: { 'default/entries/posts/hello.md': '---\ntitle: [unclosed\n---\n' } }, 'A broken post');
    await problemsUntil((list) => list.length === 1);
    const created = await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Hello', slug: 'hello' }, token });
    expect(created.status).to.equal(201);
    expect(await problems()).to.deep.equal([]);
  });

  it('lists files that were already broken when the server started', async () => {
    await externalCommit(repo, { write: { 'default/entries/posts/rated.md': postFile('Rated', ['rating: lots']) } }, 'A bad rating');
    await problemsUntil((list) => list.length === 1);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir });
    admin = await login(server, ADMIN_USERNAME, ADMIN_PASSWORD);
    expect((await problems()).map((problem) => problem.path)).to.deep.equal(['default/entries/posts/rated.md']);
  });

  it('lists a file directly in entries/ (no type folder) after the commit that adds it, after a restart and in cms check alike', async () => {
    await externalCommit(repo, { write: { 'default/entries/stray.md': postFile('Stray') } }, 'A post outside any type folder');
    const listed = await problemsUntil((list) => list.length > 0);
    expect(listed.map((problem) => problem.path)).to.deep.equal(['default/entries/stray.md']);
    expect(await checkedProblems(repo)).to.deep.equal(listed);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir });
    expect(await problems()).to.deep.equal(listed);
  });

  it('lists misnamed files in types/ (and one in a subfolder, which defines no type) after the commit, after a restart and in cms check alike; dot files stay silent', async () => {
    const misnamed = ['default/types/Posts.yaml', 'default/types/my posts.yml', 'default/types/notes.txt', 'default/types/old/pages.yaml'];
    const typeFile = ['fields:', '  body:', '    type: markdown', ''].join('\n');
    await externalCommit(repo, { write: { ...Object.fromEntries(misnamed.map((path) => [path, typeFile])), 'default/types/.gitkeep': '' } }, 'Files in types/ that define no type');
    const listed = await problemsUntil((list) => list.length >= misnamed.length);
    expect(listed.map((problem) => problem.path)).to.deep.equal([...misnamed].sort((a, b) => a.localeCompare(b)));
    for (const problem of listed) expect(problem.message).to.match(/\S/);
    expect((await server.request('GET', '/api/v1/workspaces/default/content-types/pages', { token })).status).to.equal(404);
    expect(await checkedProblems(repo)).to.deep.equal(listed);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir });
    expect(await problems()).to.deep.equal(listed);

    await externalCommit(repo, { remove: ['default/types/notes.txt'] }, 'Remove the notes');
    expect((await problemsUntil((list) => list.length === misnamed.length - 1)).map((problem) => problem.path)).to.not.include('default/types/notes.txt');
  });

  it('is the list cms check prints for the same repository', async () => {
    await externalCommit(
      repo,
      { write: { 'default/entries/posts/rated.md': postFile('Rated', ['rating: lots']), 'default/entries/posts/broken.md': '---\ntitle: [unclosed\n---\n', 'default/types/bad.yaml': 'fields: 3\n' } },
      'Three problems',
    );
    const listed = await problemsUntil((list) => list.length >= 3);
    expect(listed).to.deep.equal(await checkedProblems(repo));
  });

  it('answers 401 without a token, 403 without problems.read, 200 with it (also limited to the workspace), 404 for an unknown workspace', async () => {
    const anonymous = await server.request('GET', PROBLEMS);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('unauthorized');

    const reader = await issueToken(server, admin, [{ effect: 'allow', actions: ['content.read', 'schema.read'], resources: ['*'] }]);
    const refused = await server.request('GET', PROBLEMS, { token: reader });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('forbidden');

    const ci = await issueToken(server, admin, [{ effect: 'allow', actions: ['problems.read'], resources: ['*'] }]);
    const allowed = await server.request('GET', PROBLEMS, { token: ci });
    expect(allowed.status).to.equal(200);
    expect(allowed.body).to.deep.equal({ data: [], meta: { total: 0 } });

    const elsewhere = await issueToken(server, admin, [{ effect: 'allow', actions: ['problems.read'], resources: ['workspace:other:problems:*'] }]);
    expect((await server.request('GET', PROBLEMS, { token: elsewhere })).status).to.equal(403);
    const here = await issueToken(server, admin, [{ effect: 'allow', actions: ['problems.read'], resources: ['workspace:default:problems:*'] }]);
    expect((await server.request('GET', PROBLEMS, { token: here })).status).to.equal(200);

    const unknown = await server.request('GET', '/api/v1/workspaces/nope/problems', { token: ci });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
  });

  it('offers problems.read in the grant catalogue', async () => {
    const catalogue = await adminRequest(server, admin, 'GET', '/grant-actions');
    expect(catalogue.body.data).to.deep.include({ area: 'problems', actions: ['problems.read'] });
  });

  it('feeds the dashboard\'s skipped files, live, and only with problems.read', async () => {
    await externalCommit(repo, { write: { 'default/entries/posts/rated.md': postFile('Rated', ['rating: lots']) } }, 'A bad rating');
    const dashboard = await pollUntil(() => adminRequest(server, admin, 'GET', '/dashboard'), (answer) => answer.body.data.skipped_files.length > 0);
    expect(dashboard.body.data.skipped_files).to.have.length(1);
    expect(dashboard.body.data.skipped_files[0]).to.include({ path: 'default/entries/posts/rated.md', field: 'rating' });
    expect(dashboard.body.data.skipped_files[0].reason).to.match(/^rating: /);
    const activityOnly = await sessionWithGrants(server, admin, 'activity-only', [{ effect: 'allow', actions: ['content.read', 'schema.read', 'activity.read'], resources: ['*'] }]);
    expect((await adminRequest(server, activityOnly, 'GET', '/dashboard')).body.data.skipped_files).to.deep.equal([]);

    await externalCommit(repo, { write: { 'default/entries/posts/rated.md': postFile('Rated', ['rating: 5']) } }, 'Fix it');
    const fixed = await pollUntil(() => adminRequest(server, admin, 'GET', '/dashboard'), (answer) => answer.body.data.skipped_files.length === 0);
    expect(fixed.body.data.skipped_files).to.deep.equal([]);
  });

  it('keeps the time of a problem that a write through the API finds again (workspace.yaml judged again after a type is created)', async () => {
    const skipped = async () => (await adminRequest(server, admin, 'GET', '/dashboard')).body.data.skipped_files as { path: string; field?: string; time: string }[];
    await externalCommit(repo, { write: { 'default/workspace.yaml': 'label: Default\ncolour: blue\n' } }, 'Add a key the server does not know');
    const [before] = await pollUntil(skipped, (list) => list.length > 0);
    expect(before).to.include({ path: 'default/workspace.yaml', field: 'colour' });
    // The clock moves on before the write, so a problem dated afresh would show.
    await pollUntil(async () => Date.now(), (now) => now > Date.parse(before.time));
    expect((await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'pages', fields: {} }, token })).status).to.equal(201);
    expect(await skipped()).to.deep.equal([before]);
  });
});
