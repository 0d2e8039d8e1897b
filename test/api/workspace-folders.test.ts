// Workspace folders that commits made with plain git in the content folder
// add, bring back or move (docs/operations.md "Workspaces changed with
// git"): a folder whose name is no workspace slug is never read and is listed
// with the default workspace's problems; a workspace whose workspace.yaml
// arrives after its other files is read whole, media records included; a
// workspace folder moved with git mv takes its media originals along, those
// of records without sha256 too, and leaves no folder of the old name.
import { expect } from 'chai';
import { findProblems } from '../../src/cli/check.ts';
import { WorkingFolder } from '../../src/storage/working-folder.ts';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { cloneFrom, commitIn, removeFolders, repoUrl, runGit } from '../helpers/git-client.ts';
import { commitByHand, contentRepoOf, externalCommit, git, headOid } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makePng, uploadMedia } from './media-fixtures.ts';

const TYPE = 'label: Posts\nvisibility: public\nfields:\n  body:\n    type: markdown\n';
const POST = '---\nid: hello-id\ntitle: Hello\nstatus: published\n---\nBody\n';
// Where a workspace's local media files live: originals, thumbnails, resized images.
const MEDIA_FOLDERS = ['media', path.join('cache', 'thumbs'), path.join('cache', 'variants')];
const MISNAMED = 'The folder name "My_Blog" is not a workspace slug (1 to 64 lowercase letters, digits and hyphens), so the folder is not read; rename it.';

describe('workspace folders added, brought back or moved by commits made with git', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let token: string;

  beforeEach(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
  });
  afterEach(async () => {
    await server?.close();
    await removeFolders();
  });

  const repoDir = () => contentRepoOf(server.dataDir);
  const get = (url: string) => server.request('GET', url, { token });

  /** Waits until the server took in the content folder's HEAD: its index holds it, and the run's write lock (its local media files) is released. */
  async function indexed(): Promise<void> {
    const head = await headOid(repoDir());
    await pollUntil(async () => server.services.writer.indexedHead, (oid) => oid === head);
    await server.services.writer.transaction(async () => undefined);
  }

  /** Commits by hand in the content folder and waits until the server took the commit in. */
  async function commitInContent(change: Parameters<typeof externalCommit>[1], message: string): Promise<void> {
    await externalCommit(repoDir(), change, message);
    await indexed();
  }

  async function restart(): Promise<void> {
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir: server.dataDir });
  }

  const problemsOfDefault = async () => ((await get('/api/v1/workspaces/default/problems')).body.data as { path: string; message: string }[]).map(({ path, message }) => [path, message]);

  it('never reads a folder whose name is no workspace slug, lists its workspace.yaml with the default workspace\'s problems, and reads it once renamed', async () => {
    await commitInContent({ write: { 'My_Blog/workspace.yaml': 'label: Blog\n', 'My_Blog/types/posts.yaml': TYPE, 'My_Blog/entries/posts/hello.md': POST } }, 'Add a blog folder');

    expect(server.services.content.types('My_Blog'), 'nothing of the folder is in the content index').to.deep.equal([]);
    expect(await problemsOfDefault()).to.deep.equal([['My_Blog/workspace.yaml', MISNAMED]]);
    expect((await get('/api/v1/workspaces/My_Blog/content/posts')).status).to.equal(404);

    await restart();
    expect(server.services.content.types('My_Blog')).to.deep.equal([]);
    expect(await problemsOfDefault(), 'at start too').to.deep.equal([['My_Blog/workspace.yaml', MISNAMED]]);

    await git(repoDir(), ['mv', 'My_Blog', 'my-blog']);
    await commitByHand(repoDir(), ['-q', '-m', 'Name the blog folder as a slug']);
    await indexed();
    expect(await problemsOfDefault()).to.deep.equal([]);
    const posts = await get('/api/v1/workspaces/my-blog/content/posts');
    expect(posts.status).to.equal(200);
    expect(posts.body.data.map((entry: { title: string }) => entry.title)).to.deep.equal(['Hello']);
  });

  it('refuses a push that adds a workspace.yaml to a folder whose name is no workspace slug, and cms check lists the file', async () => {
    const work = await cloneFrom(repoUrl(server.baseUrl, token));
    await commitIn(work, { 'My_Blog/workspace.yaml': 'label: Blog\n' }, 'Add a blog folder');
    const refused = await runGit(work, ['push']);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.contain(`remote: My_Blog/workspace.yaml: ${MISNAMED}`);
    const checked = await findProblems(WorkingFolder.locate(work) as WorkingFolder);
    expect(checked.map(({ workspace, path, message }) => [workspace, path, message])).to.deep.equal([['My_Blog', 'My_Blog/workspace.yaml', MISNAMED]]);
  });

  it('reads the types, entries and media records of a folder when a later commit adds its workspace.yaml', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'later', label: 'Later' })).status).to.equal(201);
    expect((await server.request('POST', '/api/v1/workspaces/later/content-types', { body: { name: 'posts', visibility: 'public' }, token })).status).to.equal(201);
    expect((await server.request('POST', '/api/v1/workspaces/later/content/posts', { body: { title: 'Kept', status: 'published' }, token })).status).to.equal(201);
    const bytes = await makePng(120, 60);
    expect((await uploadMedia(server, [{ filename: 'kept.png', bytes }], { token, workspace: 'later' })).status).to.equal(201);
    const workspaceFile = await git(repoDir(), ['show', 'HEAD:later/workspace.yaml']);
    await commitInContent({ remove: ['later/workspace.yaml'] }, 'Take the later workspace off for now');
    // The folder without workspace.yaml is what the server finds at start.
    await restart();
    expect((await get('/api/v1/workspaces/later/media')).status).to.equal(404);

    await commitInContent({ write: { 'later/workspace.yaml': workspaceFile } }, 'Bring the later workspace back');
    const media = await get('/api/v1/workspaces/later/media');
    expect(media.status).to.equal(200);
    expect(media.body.data.map((item: { filename: string }) => item.filename)).to.deep.equal(['kept.png']);
    const file = await fetch(`${server.baseUrl}/media/later/kept.png`);
    expect(file.status).to.equal(200);
    expect(Buffer.from(await file.arrayBuffer())).to.deep.equal(bytes);
    const posts = await get('/api/v1/workspaces/later/content/posts');
    expect(posts.status).to.equal(200);
    expect(posts.body.data.map((entry: { title: string }) => entry.title)).to.deep.equal(['Kept']);
  });

  it('moves the media originals and thumbnails of a workspace folder moved with git mv to the new workspace, leaving no folder of the old one', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'old-ws', label: 'Old' })).status).to.equal(201);
    const bytes = await makePng(200, 100);
    expect((await uploadMedia(server, [{ filename: 'photo.png', bytes }], { token, workspace: 'old-ws' })).status).to.equal(201);
    expect((await fetch(`${server.baseUrl}/media-thumbs/old-ws/photo.png`)).status).to.equal(200);
    expect((await fetch(`${server.baseUrl}/media/old-ws/photo.png?w=64&format=webp`)).status, 'a resized image').to.equal(200);

    await git(repoDir(), ['mv', 'old-ws', 'new-ws']);
    await commitByHand(repoDir(), ['-q', '-m', 'Rename the old workspace']);
    await indexed();

    const file = await fetch(`${server.baseUrl}/media/new-ws/photo.png`);
    expect(file.status).to.equal(200);
    expect(Buffer.from(await file.arrayBuffer())).to.deep.equal(bytes);
    expect((await fetch(`${server.baseUrl}/media-thumbs/new-ws/photo.png`)).status).to.equal(200);
    expect((await fetch(`${server.baseUrl}/media/old-ws/photo.png`)).status).to.equal(404);
    for (const folder of MEDIA_FOLDERS) expect(await readdir(path.join(server.dataDir, folder)), folder).to.not.include('old-ws');
  });

  it('moves the originals of records without sha256 (older or written by hand) along with a workspace folder moved with git mv, by their names', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'old-ws', label: 'Old' })).status).to.equal(201);
    const uploaded = await makePng(120, 80);
    expect((await uploadMedia(server, [{ filename: 'older.png', bytes: uploaded }], { token, workspace: 'old-ws' })).status).to.equal(201);
    const drawn = await makePng(30, 30);
    await writeFile(path.join(server.dataDir, 'media', 'old-ws', 'drawn.png'), drawn);
    const older = (await git(repoDir(), ['show', 'HEAD:old-ws/media/older.png.yaml'])).replace(/^sha256: .*\n/m, '');
    await commitInContent({ write: { 'old-ws/media/older.png.yaml': older, 'old-ws/media/drawn.png.yaml': 'mime: image/png\nwidth: 30\nheight: 30\n' } }, 'Media records without sha256');

    await git(repoDir(), ['mv', 'old-ws', 'new-ws']);
    await commitByHand(repoDir(), ['-q', '-m', 'Rename the old workspace']);
    await indexed();

    for (const [filename, bytes] of [['older.png', uploaded], ['drawn.png', drawn]] as const) {
      const file = await fetch(`${server.baseUrl}/media/new-ws/${filename}`);
      expect(file.status, filename).to.equal(200);
      expect(Buffer.from(await file.arrayBuffer())).to.deep.equal(bytes);
    }
    for (const folder of MEDIA_FOLDERS) expect(await readdir(path.join(server.dataDir, folder)), folder).to.not.include('old-ws');
  });
});
