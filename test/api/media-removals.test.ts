// A media record that goes away in a commit a node did not write itself
// leaves none of its local files behind (docs/media.md "Records removed by a
// commit"): a real read replica (as in replicas.test.ts) that served a file,
// its thumbnail and a resized image deletes all three once it takes in the
// primary's delete or rename; a primary whose record a developer removes with git and
// a push drops the thumbnail and resized images but keeps the original,
// which is in no repo, so a revert brings the file back on both nodes; one
// moved with git mv takes its original along; one whose whole workspace is
// removed with git rm -r is treated as any removed record.
import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { cloneFrom, commitIn, DEVELOPER, mustGit, removeFolders, repoUrl } from '../helpers/git-client.ts';
import { contentRepoOf, headOid } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makePng, uploadMedia } from './media-fixtures.ts';

const API = '/api/v1/workspaces/default';

/** The URLs of a file's original, thumbnail and one resized image. */
function urlsOf(filename: string, workspace = 'default'): string[] {
  return [`/media/${workspace}/${filename}`, `/media-thumbs/${workspace}/${filename}`, `/media/${workspace}/${filename}?w=64&format=webp`];
}

/** Every file a node holds for a media file: its original, its thumbnail and its resized images, relative to the data root. */
async function localFilesOf(dataDir: string, filename: string, workspace = 'default'): Promise<string[]> {
  const found: string[] = [];
  for (const folder of [`media/${workspace}`, `cache/thumbs/${workspace}`, `cache/variants/${workspace}`]) {
    const entries = await readdir(path.join(dataDir, folder), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const relative = path.relative(dataDir, path.join(entry.parentPath, entry.name));
      if (entry.isFile() && relative.split(path.sep).includes(filename)) found.push(relative);
    }
  }
  return found.sort();
}

/** Which of a node's media folders (originals, thumbnails, resized images) hold a folder of the workspace. */
async function workspaceFolders(dataDir: string, workspace: string): Promise<string[]> {
  const found: string[] = [];
  for (const folder of ['media', 'cache/thumbs', 'cache/variants']) {
    if ((await readdir(path.join(dataDir, folder)).catch((): string[] => [])).includes(workspace)) found.push(folder);
  }
  return found;
}

describe('local media files of records removed by commits', function () {
  this.timeout(60_000);
  let primary: TestServer;
  let replica: TestServer;
  let token: string;
  let admin: AdminSession;
  const get = (server: TestServer, url: string) => fetch(`${server.baseUrl}${url}`);

  /** Waits until the replica's index holds the primary's head (health reports it only once the write path is done with it). */
  async function replicaCaughtUp(): Promise<void> {
    const head = await headOid(contentRepoOf(primary.dataDir));
    await pollUntil(() => replica.request('GET', '/api/v1/health'), (response) => response.body?.data?.git?.head === head);
  }

  /** Requests every URL of a file on a node and expects 200, so the node holds its copy, thumbnail and a resized image. */
  async function serveAll(server: TestServer, filename: string, workspace = 'default'): Promise<void> {
    for (const url of urlsOf(filename, workspace)) expect((await get(server, url)).status, url).to.equal(200);
  }

  /** Expects both nodes to serve the file with these bytes and ETag, and its thumbnail. */
  async function expectServedByBoth(filename: string, expected: { etag: string | null; bytes: Buffer }): Promise<void> {
    for (const server of [primary, replica]) {
      const response = await get(server, `/media/default/${filename}`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('etag')).to.equal(expected.etag);
      expect(Buffer.from(await response.arrayBuffer())).to.deep.equal(expected.bytes);
      expect((await get(server, `/media-thumbs/default/${filename}`)).status).to.equal(200);
    }
  }

  /** Runs a git command that records a commit (commit, revert) in `work` as DEVELOPER. */
  const asDeveloper = (work: string, args: string[]) => mustGit(work, ['-c', `user.name=${DEVELOPER.name}`, '-c', `user.email=${DEVELOPER.email}`, ...args]);

  before(async () => {
    ({ server: primary, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    const replicaToken = await issueToken(primary, admin, [{ effect: 'allow', actions: ['git.pull', 'replication.read'], resources: ['*'] }], 'replicas');
    replica = await startTestServer({ env: { CMS_ROLE: 'replica', CMS_WATCH_INTERVAL_MS: '100', CMS_PRIMARY_URL: primary.baseUrl, CMS_GIT_UPSTREAM_TOKEN: replicaToken } });
  });

  after(async () => {
    await replica?.close();
    await primary?.close();
    await removeFolders();
  });

  it('deletes a replica\'s copy, thumbnail and resized images of a file deleted on the primary', async () => {
    expect((await uploadMedia(primary, [{ filename: 'gone.png', bytes: await makePng(300, 200) }], { token })).status).to.equal(201);
    await pollUntil(() => get(replica, '/media/default/gone.png'), (response) => response.status === 200);
    await serveAll(replica, 'gone.png');
    const held = await localFilesOf(replica.dataDir, 'gone.png');
    expect(held).to.include.members([path.join('media', 'default', 'gone.png'), path.join('cache', 'thumbs', 'default', 'gone.png')]);
    expect(held.filter((file) => file.startsWith(path.join('cache', 'variants'))), 'a resized image').to.have.lengthOf(1);

    expect((await primary.request('DELETE', `${API}/media/gone.png`, { token })).status).to.equal(200);
    await replicaCaughtUp();

    expect(await localFilesOf(replica.dataDir, 'gone.png')).to.deep.equal([]);
    for (const url of urlsOf('gone.png')) expect((await get(replica, url)).status, url).to.equal(404);
  });

  it('deletes a replica\'s files under the old name of a file renamed on the primary, and fetches it under the new one', async () => {
    const bytes = await makePng(200, 100);
    expect((await uploadMedia(primary, [{ filename: 'before.png', bytes }], { token })).status).to.equal(201);
    await pollUntil(() => get(replica, '/media/default/before.png'), (response) => response.status === 200);
    await serveAll(replica, 'before.png');
    expect((await adminRequest(primary, admin, 'PUT', '/media/before.png/rename', { filename: 'after.png' })).status).to.equal(200);
    await replicaCaughtUp();

    expect(await localFilesOf(replica.dataDir, 'before.png')).to.deep.equal([]);
    const renamed = await get(replica, '/media/default/after.png');
    expect(renamed.status).to.equal(200);
    expect(Buffer.from(await renamed.arrayBuffer())).to.deep.equal(bytes);
  });

  it('keeps a primary\'s original of a record a developer removed with git, drops its thumbnail and resized images, and serves it again on both nodes after a revert', async () => {
    const bytes = await makePng(320, 160);
    expect((await uploadMedia(primary, [{ filename: 'by-git.png', bytes }], { token })).status).to.equal(201);
    await serveAll(primary, 'by-git.png');
    const etag = (await get(primary, '/media/default/by-git.png')).headers.get('etag');
    await pollUntil(() => get(replica, '/media/default/by-git.png'), (response) => response.status === 200);
    await serveAll(replica, 'by-git.png');

    const work = await cloneFrom(repoUrl(primary.baseUrl, token));
    await commitIn(work, { 'default/media/by-git.png.yaml': null }, 'Remove a media record by hand');
    // The push answers once the commit is in the primary's index (git-http-service.ts).
    await mustGit(work, ['push', '--quiet']);

    for (const url of urlsOf('by-git.png')) expect((await get(primary, url)).status, url).to.equal(404);
    expect(await localFilesOf(primary.dataDir, 'by-git.png'), 'only the original, its only copy').to.deep.equal([path.join('media', 'default', 'by-git.png')]);
    await replicaCaughtUp();
    expect(await localFilesOf(replica.dataDir, 'by-git.png'), 'the replica fetches it again if needed').to.deep.equal([]);

    await asDeveloper(work, ['revert', '--no-edit', 'HEAD']);
    await mustGit(work, ['push', '--quiet']);
    await replicaCaughtUp();
    await expectServedByBoth('by-git.png', { etag, bytes });
  });

  it('drops the thumbnails and resized images of the files of a workspace a developer removes with git rm -r, as for one removed record: a primary keeps the originals, a replica deletes its copies', async () => {
    expect((await adminRequest(primary, admin, 'POST', '/workspaces', { slug: 'brochure', label: 'Brochure' })).status).to.equal(201);
    expect((await uploadMedia(primary, [{ filename: 'cover.png', bytes: await makePng(240, 120) }], { token, workspace: 'brochure' })).status).to.equal(201);
    await serveAll(primary, 'cover.png', 'brochure');
    await pollUntil(() => get(replica, '/media/brochure/cover.png'), (response) => response.status === 200);
    await serveAll(replica, 'cover.png', 'brochure');

    const work = await cloneFrom(repoUrl(primary.baseUrl, token));
    await mustGit(work, ['rm', '-r', '-q', '--', 'brochure']);
    await asDeveloper(work, ['commit', '-q', '-m', 'Remove the brochure workspace']);
    await mustGit(work, ['push', '--quiet']);

    for (const url of urlsOf('cover.png', 'brochure')) expect((await get(primary, url)).status, url).to.equal(404);
    expect(await localFilesOf(primary.dataDir, 'cover.png', 'brochure'), 'only the original, its only copy').to.deep.equal([path.join('media', 'brochure', 'cover.png')]);
    expect(await workspaceFolders(primary.dataDir, 'brochure'), 'the emptied folders go').to.deep.equal(['media']);
    await replicaCaughtUp();
    expect(await localFilesOf(replica.dataDir, 'cover.png', 'brochure')).to.deep.equal([]);
    expect(await workspaceFolders(replica.dataDir, 'brochure')).to.deep.equal([]);
  });

  it('moves a primary\'s original to the new name of a record a developer renamed with git mv, leaving nothing under the old one, so both nodes serve it', async () => {
    const bytes = await makePng(260, 130);
    expect((await uploadMedia(primary, [{ filename: 'old-name.png', bytes }], { token })).status).to.equal(201);
    await serveAll(primary, 'old-name.png');
    const etag = (await get(primary, '/media/default/old-name.png')).headers.get('etag');

    const work = await cloneFrom(repoUrl(primary.baseUrl, token));
    await mustGit(work, ['mv', 'default/media/old-name.png.yaml', 'default/media/new-name.png.yaml']);
    await asDeveloper(work, ['commit', '-q', '-m', 'Rename a media record by hand']);
    await mustGit(work, ['push', '--quiet']);

    for (const url of urlsOf('old-name.png')) expect((await get(primary, url)).status, url).to.equal(404);
    expect(await localFilesOf(primary.dataDir, 'old-name.png'), 'nothing left under the old name').to.deep.equal([]);
    await replicaCaughtUp();
    await expectServedByBoth('new-name.png', { etag, bytes });

    // A revert is a rename back: the original follows again.
    await asDeveloper(work, ['revert', '--no-edit', 'HEAD']);
    await mustGit(work, ['push', '--quiet']);
    expect((await get(primary, '/media/default/old-name.png')).status).to.equal(200);
    expect(await localFilesOf(primary.dataDir, 'new-name.png'), 'nothing left under the new name').to.deep.equal([]);
  });
});
