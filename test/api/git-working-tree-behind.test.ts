// A branch move whose working tree cannot follow: a push (or an upstream
// sync) moves the branch, then read-tree refuses to bring the files along
// because something is in the way in the content folder (here a folder where
// the pushed file goes; the tests run as root, so permissions would not
// stop git). The branch has moved all the same: reads must show the pushed
// commits at once, and the index must follow the branch so that a
// developer's `git commit` cannot undo them. The watch for outside commits
// is slowed down so that it cannot take the commits in instead.
import { expect } from 'chai';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { bareRepository, cloneFrom, commitIn, mustGit, POSTS_TYPE, pushPostsType, removeFolders, repoUrl } from '../helpers/git-client.ts';
import { contentRepoOf, git, headOid, statusPorcelain } from '../helpers/git.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const SLOW_WATCH = { CMS_WATCH_INTERVAL_MS: '60000' };

// A folder with a file in it where `file` is to be written: read-tree -u refuses to replace it.
async function blockPath(repo: string, file: string): Promise<void> {
  await mkdir(path.join(repo, file), { recursive: true });
  await writeFile(path.join(repo, file, 'in-the-way.txt'), 'A developer’s note.\n');
}

async function expectIndexAtHead(repo: string): Promise<void> {
  expect(await git(repo, ['diff', '--cached', '--name-status', 'HEAD'])).to.equal('');
}

describe('a branch move whose working tree cannot follow', function () {
  this.timeout(60_000);

  after(removeFolders);

  describe('a push', () => {
    let server: TestServer;
    let token: string;
    let url: string;

    before(async () => {
      ({ server, token } = await buildAdminServer({ token: FULL_ACCESS, env: SLOW_WATCH }));
      url = repoUrl(server.baseUrl, token);
      await pushPostsType(url);
    });

    after(() => server.close());

    it('serves the pushed commits at once and brings the index along, leaving the working tree to the developer', async () => {
      const repo = contentRepoOf(server.dataDir);
      const work = await cloneFrom(url);
      const pushed = await commitIn(work, { 'default/entries/posts/blocked.md': '---\ntitle: "Blocked"\nviews: 1\n---\n' }, 'Push a post');
      await blockPath(repo, 'default/entries/posts/blocked.md');
      await mustGit(work, ['push', '--quiet']);

      expect(await headOid(repo)).to.equal(pushed);
      expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/blocked')).status).to.equal(200);
      await expectIndexAtHead(repo);

      // A restart leaves the developer's files alone: the move is done but for the way being blocked.
      const { dataDir } = server;
      await server.close({ keepData: true });
      server = await startTestServer({ dataDir, env: SLOW_WATCH });
      expect(await readFile(path.join(repo, 'default/entries/posts/blocked.md', 'in-the-way.txt'), 'utf8')).to.equal('A developer’s note.\n');
      await expectIndexAtHead(repo);

      // Once the way is clear, the file comes along and the API writes again.
      await rm(path.join(repo, 'default/entries/posts/blocked.md'), { recursive: true });
      await git(repo, ['checkout', '--', 'default/entries/posts/blocked.md']);
      expect(await statusPorcelain(repo)).to.equal('');
      const created = await server.request('POST', '/api/v1/workspaces/default/content/posts', { token, body: { title: 'After', data: { views: 2 } } });
      expect(created.status).to.equal(201);
      expect(await statusPorcelain(repo)).to.equal('');
    });
  });

  describe('an upstream sync', () => {
    let server: TestServer;
    let admin: AdminSession;
    let upstream: string;

    before(async () => {
      upstream = await bareRepository();
      ({ server, admin } = await buildAdminServer({ env: { ...SLOW_WATCH, CMS_GIT_UPSTREAM: upstream, CMS_GIT_SYNC_INTERVAL_MS: '600000' } }));
    });

    after(() => server.close());

    it('serves the upstream’s commits at once and brings the index along', async () => {
      const repo = contentRepoOf(server.dataDir);
      expect((await adminRequest(server, admin, 'POST', '/git/sync')).status).to.equal(200);
      const work = await cloneFrom(upstream);
      const fetched = await commitIn(work, { 'default/types/posts.yaml': POSTS_TYPE, 'default/entries/posts/blocked.md': '---\ntitle: "Blocked"\nviews: 1\n---\n' }, 'Posts from upstream');
      await mustGit(work, ['push', '--quiet']);
      await blockPath(repo, 'default/entries/posts/blocked.md');

      expect((await adminRequest(server, admin, 'POST', '/git/sync')).status).to.equal(200);
      expect(await headOid(repo)).to.equal(fetched);
      expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/blocked')).status).to.equal(200);
      await expectIndexAtHead(repo);
    });
  });
});
