// A push into a content repo whose index the server keeps in git's split
// format (CMS_GIT_SPLIT_INDEX=1, storage/git/split-index.ts): git rewrites
// a copy of that index for the push (read-tree on GIT_INDEX_FILE, with the
// shared part beside it in .git), the server puts it in place, and its own
// next commits go on from there. After each step `git status` in the
// content folder is clean and the server's index agrees with HEAD.
import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { buildAdminServer, FULL_ACCESS } from '../helpers/auth.ts';
import { cloneFrom, commitIn, mustGit, pushPostsType, removeFolders, repoUrl } from '../helpers/git-client.ts';
import { contentRepoOf, git, headOid, statusPorcelain } from '../helpers/git.ts';
import type { TestServer } from '../helpers/server.ts';


function postFile(title: string, views: number): string {
  return ['---', `title: ${JSON.stringify(title)}`, `views: ${views}`, '---', ''].join('\n');
}

describe('a push into a content repo with a split index', function () {
  this.timeout(60_000);
  let server: TestServer;
  let token: string;
  let url: string;
  let repo: string;

  before(async () => {
    ({ server, token } = await buildAdminServer({ token: FULL_ACCESS, env: { CMS_GIT_SPLIT_INDEX: '1' } }));
    url = repoUrl(server.baseUrl, token);
    repo = contentRepoOf(server.dataDir);
    await pushPostsType(url);
  });

  after(async () => {
    await server.close();
    await removeFolders();
  });

  const createPost = async (title: string, views: number) => {
    const response = await server.request('POST', '/api/v1/workspaces/default/content/posts', { token, body: { title, data: { views } } });
    expect(response.status).to.equal(201);
    return response.body.data;
  };

  // What a developer sees in the content folder: nothing to commit, an index that is HEAD's tree, and the files HEAD has.
  const expectConsistent = async () => {
    expect(await statusPorcelain(repo)).to.equal('');
    expect(await git(repo, ['diff', '--cached', '--name-only', 'HEAD'])).to.equal('');
    expect(await git(repo, ['ls-files'])).to.equal(await git(repo, ['ls-tree', '-r', '--name-only', 'HEAD']));
    expect((await git(repo, ['write-tree'])).trim()).to.equal((await git(repo, ['rev-parse', 'HEAD^{tree}'])).trim());
  };

  it('keeps git status clean and the index in step through server writes, a push and server writes again', async () => {
    for (let i = 0; i < 3; i++) await createPost(`Before ${i}`, i);
    expect((await readdir(path.join(repo, '.git'))).some((name) => name.startsWith('sharedindex.')), 'the index is split').to.equal(true);
    await expectConsistent();

    const work = await cloneFrom(url);
    const pushed = await commitIn(
      work,
      { 'default/entries/posts/pushed.md': postFile('Pushed', 7), 'default/entries/posts/before-1.md': postFile('Before 1, edited', 10), 'default/entries/posts/before-2.md': null },
      'Push posts',
    );
    await mustGit(work, ['push', '--quiet']);
    expect(await headOid(repo)).to.equal(pushed);
    await expectConsistent();
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/pushed')).status).to.equal(200);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/before-1')).body.data.data.views).to.equal(10);
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/before-2')).status).to.equal(404);

    for (let i = 0; i < 3; i++) await createPost(`After ${i}`, i);
    const updated = await server.request('PATCH', '/api/v1/workspaces/default/content/posts/pushed', { token, body: { data: { views: 8 } } });
    expect(updated.status).to.equal(200);
    await expectConsistent();
    await git(repo, ['fsck', '--no-progress']);

    // A second push right after a server write, whose index write may still be pending when the push lands.
    await commitIn(work, { 'default/entries/posts/again.md': postFile('Again', 3) }, 'Push again');
    await createPost('Just before', 1);
    await mustGit(work, ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'pull', '--quiet', '--rebase']);
    await mustGit(work, ['push', '--quiet']);
    expect(await headOid(repo)).to.equal((await mustGit(work, ['rev-parse', 'HEAD'])).trim());
    await expectConsistent();
  });
});
