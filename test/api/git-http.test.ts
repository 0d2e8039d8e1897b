// Git over HTTP with the real git CLI against the server on port 0: clone
// with a token, pushes that land (and are read back from the API, with
// their author, revisions, activity and webhooks), pushes that are refused
// with the file and field named and nothing changed, credentials and
// grants, the non-fast-forward race, and the answers without git.
import { expect } from 'chai';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { cloneFrom, commitIn, DEVELOPER, mustGit, removeFolders, repoUrl, runGit, tempFolder } from '../helpers/git-client.ts';
import { contentRepoOf, headOid, statusPorcelain } from '../helpers/git.ts';
import { startLocalHttp } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';

const POSTS_TYPE = ['label: Posts', 'fields:', '  views:', '    type: number', '  code:', '    type: text', '    unique: true', ''].join('\n');

function postFile(title: string, extra: Record<string, string | number> = {}): string {
  const lines = Object.entries(extra).map(([key, value]) => `${key}: ${typeof value === 'string' ? JSON.stringify(value) : value}`);
  return ['---', `title: ${JSON.stringify(title)}`, 'status: published', ...lines, '---', ''].join('\n');
}

describe('git over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let url: string;

  before(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    url = repoUrl(server.baseUrl, token);
    const work = await cloneFrom(url);
    await commitIn(work, { 'default/types/posts.yaml': POSTS_TYPE, 'default/entries/posts/first.md': postFile('First', { views: 1, code: 'A1' }) }, 'Add posts');
    await mustGit(work, ['push', '--quiet']);
  });

  after(async () => {
    await server.close();
    await removeFolders();
  });

  it('clones with a token over protocol v2, the files and history of the content repo', async () => {
    const work = await cloneFrom(url);
    expect(await readFile(path.join(work, 'default', 'entries', 'posts', 'first.md'), 'utf8')).to.contain('title: "First"');
    expect((await mustGit(work, ['rev-parse', 'HEAD'])).trim()).to.equal(await headOid(contentRepoOf(server.dataDir)));
    const traced = await runGit(work, ['-c', 'protocol.version=2', 'ls-remote', 'origin'], { GIT_TRACE_PACKET: '1' });
    expect(traced.code).to.equal(0);
    expect(traced.stderr).to.match(/version 2/);
  });

  it('pushes a new entry that the API then serves, with its author, a revision, activity and a webhook', async () => {
    const receiver = await startLocalHttp();
    try {
      expect((await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: [{ url: receiver.url, events: ['content.created'] }] })).status).to.equal(200);
      const work = await cloneFrom(url);
      const commit = await commitIn(work, { 'default/entries/posts/from-git.md': postFile('From git', { views: 7, code: 'G1' }) }, 'Write a post in my editor');
      await mustGit(work, ['push', '--quiet']);

      const read = await server.request('GET', '/api/v1/workspaces/default/content/posts/from-git');
      expect(read.status).to.equal(200);
      expect(read.body.data).to.include({ title: 'From git', slug: 'from-git' });
      expect(read.body.data.data.views).to.equal(7);
      const repo = contentRepoOf(server.dataDir);
      expect(await headOid(repo)).to.equal(commit);
      expect(await statusPorcelain(repo)).to.equal('');

      const revisions = await adminRequest(server, admin, 'GET', `/content/posts/${read.body.data.id}/revisions`);
      expect(revisions.body.data[0]).to.include({ author_name: DEVELOPER.name });
      const activity = await adminRequest(server, admin, 'GET', '/activity?type=git');
      expect(activity.body.data.map((record: { type: string }) => record.type)).to.include('git.push');
      const delivered = await pollUntil(async () => receiver.requests.map((request) => JSON.parse(request.body.toString('utf8'))), (bodies) => bodies.length > 0);
      expect(delivered[0]).to.deep.include({ event: 'content.created', workspace: 'default' });
      expect(delivered[0].data).to.include({ slug: 'from-git', type: 'posts' });
    } finally {
      await receiver.close();
    }
  });

  it('refuses a push with a broken entry, naming the file and field, and changes nothing', async () => {
    const repo = contentRepoOf(server.dataDir);
    const headBefore = await headOid(repo);
    const work = await cloneFrom(url);
    await commitIn(work, { 'default/entries/posts/broken.md': postFile('Broken', { views: 'lots' }) }, 'Break a post');
    const pushed = await runGit(work, ['push']);
    expect(pushed.code).to.not.equal(0);
    expect(pushed.stderr).to.match(/remote: default\/entries\/posts\/broken\.md: views: .*number/);
    expect(pushed.stderr).to.contain('pre-receive hook declined');
    expect(await headOid(repo)).to.equal(headBefore);
    expect(await statusPorcelain(repo)).to.equal('');
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/broken')).status).to.equal(404);
  });

  it('refuses a push whose translation file disagrees with the entry file on a shared key, naming the translation', async () => {
    const repo = contentRepoOf(server.dataDir);
    const headBefore = await headOid(repo);
    const work = await cloneFrom(url);
    await commitIn(work, {
      'default/entries/posts/twin.md': postFile('Twin', { views: 2 }),
      'default/entries/posts/twin.de.md': postFile('Zwilling', { views: 2 }).replace('status: published', 'status: draft'),
    }, 'Add a post whose German file says draft');
    const pushed = await runGit(work, ['push']);
    expect(pushed.code).to.not.equal(0);
    expect(pushed.stderr).to.match(/remote: default\/entries\/posts\/twin\.de\.md: status: /);
    expect(await headOid(repo)).to.equal(headBefore);
  });

  it('applies the API\'s cross-file rules and the layout, and lets files outside the layout through', async () => {
    const work = await cloneFrom(url);
    await commitIn(
      work,
      {
        'default/entries/posts/copy.md': postFile('Copy', { code: 'a1' }),
        'default/entries/posts/Bad Name.md': postFile('Bad'),
        'default/entries/pages/x.md': postFile('No type'),
        'default/types/tags.yaml': 'fields: [1, 2]\n',
        'default/types/Pages.yaml': 'fields: {}\n',
        'default/types/notes.txt': 'not a type\n',
      },
      'Several mistakes',
    );
    const refused = await runGit(work, ['push']);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.match(/remote: default\/entries\/posts\/copy\.md: code: .*already used/);
    expect(refused.stderr).to.contain('remote: default/entries/posts/Bad Name.md:');
    expect(refused.stderr).to.match(/remote: default\/entries\/pages\/x\.md: No valid content type "pages"/);
    expect(refused.stderr).to.match(/remote: default\/types\/tags\.yaml: fields: /);
    expect(refused.stderr).to.contain('remote: default/types/Pages.yaml: A type file is named');
    expect(refused.stderr).to.contain('remote: default/types/notes.txt: A type file is named');

    // Dot files are no content, as the index reads them: they pass in types/ and entries/ alike.
    await mustGit(work, ['reset', '-q', '--hard', 'origin/main']);
    await commitIn(work, { 'NOTES.md': '# Notes for the team\n', 'drafts/idea.txt': 'not content', 'default/types/.gitkeep': '', 'default/entries/posts/.gitkeep': '' }, 'Notes outside the content');
    expect((await runGit(work, ['push'])).code).to.equal(0);
  });

  it('answers without credentials with 401 and the Basic challenge, so git asks', async () => {
    const response = await server.request('GET', '/git/content.git/info/refs?service=git-upload-pack');
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('unauthorized');
    expect(response.headers.get('www-authenticate')).to.equal('Basic realm="cms"');
    const wrong = await server.request('GET', '/git/content.git/info/refs?service=git-upload-pack', { headers: { authorization: `Basic ${Buffer.from('dev:cms_nope').toString('base64')}` } });
    expect(wrong.status).to.equal(401);
    expect(wrong.headers.get('www-authenticate')).to.equal('Basic realm="cms"');
    const cloned = await runGit(await tempFolder(), ['clone', repoUrl(server.baseUrl), 'work']);
    expect(cloned.code).to.not.equal(0);
  });

  it('lets a read-only token clone but refuses its push with 403, and a token without git.pull cannot clone', async () => {
    const readOnly = await issueToken(server, admin, [{ effect: 'allow', actions: ['git.pull'], resources: ['*'] }], 'read only');
    const work = await cloneFrom(repoUrl(server.baseUrl, readOnly));
    await commitIn(work, { 'default/entries/posts/sneaky.md': postFile('Sneaky') }, 'Try to push');
    const pushed = await runGit(work, ['push']);
    expect(pushed.code).to.not.equal(0);
    expect(pushed.stderr).to.contain('403');
    const advertised = await server.request('GET', '/git/content.git/info/refs?service=git-receive-pack', { headers: basic(readOnly) });
    expect(advertised.status).to.equal(403);
    expect(advertised.body.error.code).to.equal('forbidden');

    const contentOnly = await issueToken(server, admin, [{ effect: 'allow', actions: ['content.*'], resources: ['*'] }], 'content only');
    const refused = await server.request('GET', '/git/content.git/info/refs?service=git-upload-pack', { headers: basic(contentOnly) });
    expect(refused.status).to.equal(403);
  });

  it('takes a pushed tag only from a token that may make releases, and its deletion only with releases.delete', async () => {
    const pushOnly = await issueToken(server, admin, [{ effect: 'allow', actions: ['git.pull', 'git.push'], resources: ['*'] }], 'push only');
    const work = await cloneFrom(repoUrl(server.baseUrl, pushOnly));
    await mustGit(work, ['-c', `user.name=${DEVELOPER.name}`, '-c', `user.email=${DEVELOPER.email}`, 'tag', '-a', 'v-from-git', '-m', 'Tagged with git']);
    const refused = await runGit(work, ['push', 'origin', 'v-from-git']);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.contain('remote: The tag v-from-git is a release: pushing it needs releases.create.');
    expect(await runGit(contentRepoOf(server.dataDir), ['rev-parse', '--verify', '-q', 'refs/tags/v-from-git']).then((result) => result.code)).to.not.equal(0);

    const releaser = await issueToken(server, admin, [{ effect: 'allow', actions: ['git.pull', 'git.push', 'releases.create'], resources: ['*'] }], 'releaser');
    await mustGit(work, ['remote', 'set-url', 'origin', repoUrl(server.baseUrl, releaser)]);
    expect((await runGit(work, ['push', 'origin', 'v-from-git'])).code).to.equal(0);
    const releases = await adminRequest(server, admin, 'GET', '/releases');
    expect(releases.body.data.map((release: { name: string }) => release.name)).to.include('v-from-git');
    const deleted = await runGit(work, ['push', 'origin', ':refs/tags/v-from-git']);
    expect(deleted.code).to.not.equal(0);
    expect(deleted.stderr).to.contain('pushing it needs releases.delete');
  });

  it('refuses a push that raced an API write as non-fast-forward; pull --rebase, then push works', async () => {
    const work = await cloneFrom(url);
    await commitIn(work, { 'default/entries/posts/raced.md': postFile('Raced', { code: 'R1' }) }, 'A post that races');
    // git calls pre-push after it has read the server's refs and before it sends the pack: the API write lands in between.
    const hook = path.join(work, '.git', 'hooks', 'pre-push');
    const write = `fetch(process.env.CMS_URL + '/api/v1/workspaces/default/content/posts', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.CMS_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Written meanwhile', status: 'published' }) }).then((r) => process.exit(r.status === 201 ? 0 : 1))`;
    await writeFile(hook, `#!/bin/sh\nexec '${process.execPath}' -e "${write.replace(/"/g, '\\"')}"\n`);
    await chmod(hook, 0o755);
    const raced = await runGit(work, ['push'], { CMS_URL: server.baseUrl, CMS_TOKEN: token });
    expect(raced.code).to.not.equal(0);
    expect(raced.stderr).to.contain('non-fast-forward');
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/written-meanwhile')).status).to.equal(200);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/raced')).status).to.equal(404);

    await writeFile(hook, '#!/bin/sh\nexit 0\n');
    await mustGit(work, ['-c', `user.name=${DEVELOPER.name}`, '-c', `user.email=${DEVELOPER.email}`, 'pull', '--quiet', '--rebase']);
    await mustGit(work, ['push', '--quiet']);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/raced')).status).to.equal(200);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/written-meanwhile')).status).to.equal(200);
    expect(await statusPorcelain(contentRepoOf(server.dataDir))).to.equal('');
  });

  it('refuses a forced push that would drop the server\'s commits', async () => {
    const work = await cloneFrom(url);
    await mustGit(work, ['reset', '-q', '--hard', 'HEAD~1']);
    await commitIn(work, { 'default/entries/posts/rewritten.md': postFile('Rewritten', { code: 'W1' }) }, 'Rewrite history');
    const forced = await runGit(work, ['push', '--force']);
    expect(forced.code).to.not.equal(0);
    expect(forced.stderr).to.match(/non-fast-forward|rejected/);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/rewritten')).status).to.equal(404);
  });

  it('takes the next API write after a push as usual, on top of the pushed commit', async () => {
    const created = await server.request('POST', '/api/v1/workspaces/default/content/posts', { token, body: { title: 'After pushes', code: 'P9' } });
    expect(created.status).to.equal(201);
    const work = await cloneFrom(url);
    expect(await readFile(path.join(work, 'default', 'entries', 'posts', 'after-pushes.md'), 'utf8')).to.contain('After pushes');
    expect(await statusPorcelain(contentRepoOf(server.dataDir))).to.equal('');
  });

  it('answers 400 for the dumb protocol and 415 for a request body of another type', async () => {
    const dumb = await server.request('GET', '/git/content.git/info/refs', { headers: basic(token) });
    expect(dumb.status).to.equal(400);
    expect(dumb.body.error.code).to.equal('invalid_request');
    const wrongType = await server.request('POST', '/git/content.git/git-upload-pack', { headers: { ...basic(token), 'content-type': 'text/plain' }, rawBody: '0000' });
    expect(wrongType.status).to.equal(415);
    expect(wrongType.body.error.code).to.equal('unsupported_media_type');
  });
});

describe('git over HTTP without the git CLI', () => {
  let server: TestServer;
  let token: string;
  let admin: AdminSession;

  before(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS, env: { CMS_GIT_PATH: '/nonexistent/git' } }));
  });
  after(() => server.close());

  it('answers 503 git_unavailable on the git routes, and the rest of the API works', async () => {
    const refs = await server.request('GET', '/git/content.git/info/refs?service=git-upload-pack', { headers: basic(token) });
    expect(refs.status).to.equal(503);
    expect(refs.body.error.code).to.equal('git_unavailable');
    const status = await adminRequest(server, admin, 'GET', '/git');
    expect(status.status).to.equal(503);
    expect(status.body.error.code).to.equal('git_unavailable');
    expect((await server.request('GET', '/api/v1/health')).status).to.equal(200);
  });
});

function basic(token: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`dev:${token}`).toString('base64')}` };
}
