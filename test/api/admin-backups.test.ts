// Backups over HTTP (issue 7: "Backups"): create, list, inspect, download,
// upload, delete; backup → delete everything → restore gives back the same
// entries, media, webhooks and revision history, in the same server and in a
// fresh one; hostile archives made in the test are refused with nothing written.
import { expect } from 'chai';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { login, userWithGrants } from '../helpers/admin-users.ts';
import { bytesAt, changedFiles, contentRepoOf, externalCommit, git, headOid } from '../helpers/git.ts';
import { diffSnapshots, snapshotDataRoot } from '../helpers/snapshot.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';
import { pollUntil } from '../helpers/poll.ts';
import { buildZip, entriesOf, manifestOf } from '../helpers/zip.ts';
import { makePng, multipartBody, uploadMedia } from './media-fixtures.ts';
import type { DomainEvent } from '../../src/domain/model/events.ts';

const NAME = /^backup-\d{8}-\d{6}\.zip$/;
const COUNT_KEYS = ['content_types', 'entries', 'revisions', 'media', 'users', 'roles', 'tokens', 'webhooks'];
const MEDIA_KEYS = ['filename', 'size', 'mime', 'alt', 'title', 'category', 'visibility', 'width', 'height', 'uploaded_by', 'uploaded_at'];
const SECRET = 'hook-secret';

interface Site {
  entries: unknown[];
  revisions: Record<string, unknown[]>;
  media: Record<string, unknown>[];
  bytes: Record<string, string>;
  webhooks: unknown[];
  types: string[];
}

async function uploadBackup(server: TestServer, session: AdminSession, bytes: Buffer, filename = 'upload.zip'): Promise<TestResponse> {
  const { body, contentType } = multipartBody([{ field: 'backup', filename, bytes, type: 'application/zip' }]);
  return server.request('POST', '/admin/api/backups/upload', { rawBody: new Uint8Array(body), headers: { 'content-type': contentType, cookie: session.cookie, 'x-csrf-token': session.csrf } });
}

function pick(item: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, item[key]]));
}

// Compares what a full restore brings back; the type list is left to each test.
function expectSameSite(after: Site, before: Site): void {
  expect(after.entries).to.deep.equal(before.entries);
  expect(after.revisions).to.deep.equal(before.revisions);
  expect(after.media).to.deep.equal(before.media);
  expect(after.bytes).to.deep.equal(before.bytes);
  expect(after.webhooks).to.deep.equal(before.webhooks);
}

describe('admin API: backups', () => {
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let adminId: string;
  const others: TestServer[] = [];

  async function populate(): Promise<void> {
    const created = await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts', fields: { body: { type: 'markdown' }, cover: { type: 'media' } } }, token });
    expect(created.status).to.equal(201);
    const upload = await uploadMedia(server, [{ filename: 'photo.png', bytes: await makePng(30, 20) }], { session: admin });
    expect(upload.status).to.equal(201);
    const filename = upload.body.data[0].filename as string;
    const first = await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'First', body: 'One' }, token });
    const id = first.body.data.id as string;
    await server.request('PATCH', `/api/v1/workspaces/default/content/posts/${id}`, { body: { body: 'Two', cover: [filename] }, token });
    await adminRequest(server, admin, 'PUT', `/content/posts/${id}`, { title: 'First, edited', status: 'published' });
    await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Second', status: 'published' }, token });
    const third = await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Binned' }, token });
    await server.request('DELETE', `/api/v1/workspaces/default/content/posts/${third.body.data.id}`, { token });
    await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: [{ id: 'site', url: 'http://127.0.0.1:9/hook', secret: SECRET, events: ['*'] }] });
  }

  async function capture(target: TestServer, session: AdminSession): Promise<Site> {
    const entries = (await adminRequest(target, session, 'GET', '/content/posts?sort=id')).body.data as { id: string }[];
    const revisions: Record<string, unknown[]> = {};
    for (const entry of entries) revisions[entry.id] = (await adminRequest(target, session, 'GET', `/content/posts/${entry.id}/revisions`)).body.data;
    const media = ((await adminRequest(target, session, 'GET', '/media')).body.data as Record<string, unknown>[]).map((item) => pick(item, MEDIA_KEYS));
    const bytes: Record<string, string> = {};
    for (const item of media) {
      const file = await fetch(`${target.baseUrl}/media/default/${String(item.filename)}`);
      bytes[String(item.filename)] = Buffer.from(await file.arrayBuffer()).toString('base64');
    }
    const webhooks = (await adminRequest(target, session, 'GET', '/webhooks')).body.data.map((hook: Record<string, unknown>) => pick(hook, ['id', 'url', 'events', 'enabled']));
    const types = (await adminRequest(target, session, 'GET', '/content-types')).body.data.map((type: { name: string }) => type.name);
    return { entries, revisions, media, bytes, webhooks, types };
  }

  async function createBackup(body: unknown = {}): Promise<TestResponse> {
    const response = await adminRequest(server, admin, 'POST', '/backups', body);
    expect(response.status, response.text).to.equal(201);
    return response;
  }

  beforeEach(async () => {
    ({ server, admin, token, adminId } = await buildAdminServer({ token: FULL_ACCESS }));
  });
  afterEach(async () => {
    await server.close();
    for (const other of others.splice(0)) await other.close();
  });

  it('creates, lists, inspects, downloads and deletes a backup', async () => {
    await populate();
    const created = await createBackup();
    const detail = created.body.data;
    expect(detail.name).to.match(NAME);
    expect(detail).to.have.all.keys('name', 'created_at', 'version', 'size', 'parts', 'includes', 'includes_secrets');
    expect(detail.parts).to.have.all.keys(...COUNT_KEYS);
    const commits = Number((await git(contentRepoOf(server.dataDir), ['rev-list', '--count', 'HEAD'])).trim());
    expect(detail.parts).to.deep.equal({ content_types: 1, entries: 2, revisions: commits, media: 1, users: 0, roles: 0, tokens: 0, webhooks: 1 });
    expect(detail.includes).to.deep.equal(['content_types', 'entries', 'media', 'webhooks']);
    expect(detail.includes_secrets).to.equal(false);

    const list = await adminRequest(server, admin, 'GET', '/backups');
    expect(list.status).to.equal(200);
    expect(list.body.data).to.deep.equal([{ name: detail.name, size: detail.size, created_at: detail.created_at, parts: detail.includes }]);
    expect(list.body.meta).to.deep.equal({ total: 1, parts: ['content_types', 'entries', 'media', 'webhooks', 'users'], default_parts: ['content_types', 'entries', 'media', 'webhooks'] });

    const inspected = await adminRequest(server, admin, 'GET', `/backups/${detail.name}/inspect`);
    expect(inspected.status).to.equal(200);
    expect(inspected.body.data).to.deep.equal(detail);

    const download = await fetch(`${server.baseUrl}/admin/api/backups/${detail.name}/download`, { headers: { cookie: admin.cookie } });
    expect(download.status).to.equal(200);
    expect(download.headers.get('content-type')).to.equal('application/zip');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.equals(await readFile(path.join(server.dataDir, 'state', 'backups', detail.name)))).to.equal(true);
    expect(bytes.toString('latin1')).to.not.include(SECRET);

    const removed = await adminRequest(server, admin, 'DELETE', `/backups/${detail.name}`);
    expect(removed.status).to.equal(200);
    expect(removed.body.data).to.deep.equal({ ok: true });
    for (const [method, suffix] of [['GET', '/inspect'], ['GET', '/download'], ['DELETE', '']]) {
      const gone = await adminRequest(server, admin, method, `/backups/${detail.name}${suffix}`);
      expect(gone.status, `${method} ${suffix}`).to.equal(404);
      expect(gone.body.error.code).to.equal('not_found');
    }
  });

  it('counts the entries the server serves, not files in subfolders of a type\'s folder', async () => {
    expect((await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts', fields: {} }, token })).status).to.equal(201);
    expect((await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Through the API' }, token })).status).to.equal(201);
    const post = (id: string) => ['---', `id: ${id}`, `title: ${id}`, 'status: draft', 'created_at: 2024-01-01T00:00:00.000Z', 'updated_at: 2024-01-01T00:00:00.000Z', '---', ''].join('\n');
    // The loader lists the last three as problems (docs/content-model.md); a folder named like an entry file must not count once per file in it.
    await externalCommit(contentRepoOf(server.dataDir), {
      write: {
        'default/entries/posts/from-git.md': post('fromgit001'),
        'default/entries/posts/drafts/hello.md': post('drafthello'),
        'default/entries/posts/old.md/one.md': post('oldone0001'),
        'default/entries/posts/old.md/two.md': post('oldtwo0001'),
      },
    }, 'Add an entry and files in subfolders');
    const served = await pollUntil(() => adminRequest(server, admin, 'GET', '/content/posts'), (response) => response.body.meta?.total === 2);
    expect(served.body.data.map((entry: { id: string }) => entry.id)).to.include('fromgit001');

    const detail = (await createBackup({ parts: ['content_types', 'entries'] })).body.data;
    expect(detail.parts.entries, 'counted on inspect').to.equal(2);
    expect((await manifestOf(path.join(server.dataDir, 'state', 'backups', detail.name))).counts, 'counted when written').to.include({ entries: 2 });
  });

  it('backs up only the parts asked for, and answers 422 for an unknown part', async () => {
    await populate();
    const created = await createBackup({ parts: ['webhooks'] });
    expect(created.body.data.includes).to.deep.equal(['webhooks']);
    expect(created.body.data.parts).to.include({ content_types: 0, entries: 0, revisions: 0, media: 0, webhooks: 1 });
    const unknown = await adminRequest(server, admin, 'POST', '/backups', { parts: ['entries', 'everything'] });
    expect(unknown.status).to.equal(422);
    expect(unknown.body.error.code).to.equal('validation_failed');
    expect(unknown.body.error.fields).to.have.all.keys('parts');
  });

  it('restores entries, media, webhooks and revision history after everything was deleted', async () => {
    await populate();
    const before = await capture(server, admin);
    expect(before.entries).to.have.length(2);
    expect(Object.values(before.revisions).map((list) => list.length).sort()).to.deep.equal([1, 3]);
    const { name } = (await createBackup()).body.data;

    expect((await server.request('DELETE', '/api/v1/workspaces/default/content-types/posts', { token })).status).to.equal(200);
    expect((await adminRequest(server, admin, 'DELETE', `/media/${before.media[0].filename}`)).status).to.equal(200);
    expect((await adminRequest(server, admin, 'PUT', '/webhooks', { webhooks: [] })).status).to.equal(200);
    expect((await adminRequest(server, admin, 'GET', '/content-types')).body.data).to.deep.equal([]);

    const restored = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['content_types', 'entries', 'media', 'webhooks'] });
    expect(restored.status, restored.text).to.equal(200);
    expect(restored.body.data).to.include({ name, overwrite: false, history: true });
    expect(restored.body.data.commit).to.match(/^[0-9a-f]{40}$/);
    expect(restored.body.data.restored).to.include({ content_types: 1, entries: 2, trash: 1, media: 1, webhooks: 1 });

    const after = await capture(server, admin);
    expectSameSite(after, before);
    const trash = await adminRequest(server, admin, 'GET', '/trash/posts');
    expect(trash.body.data.map((item: { title: string }) => item.title)).to.deep.equal(['Binned']);
    const repo = contentRepoOf(server.dataDir);
    expect(await git(repo, ['status', '--porcelain'])).to.equal('');
    await git(repo, ['fsck', '--no-progress']);
  });

  it('restores into a fresh server from an uploaded archive, with the same revisions', async () => {
    await populate();
    const before = await capture(server, admin);
    const { name } = (await createBackup()).body.data;
    const bytes = await readFile(path.join(server.dataDir, 'state', 'backups', name));

    const { server: fresh, admin: freshAdmin } = await buildAdminServer();
    others.push(fresh);
    const uploaded = await uploadBackup(fresh, freshAdmin, bytes, name);
    expect(uploaded.status, uploaded.text).to.equal(201);
    expect(uploaded.body.data.name).to.equal(name);
    const restored = await adminRequest(fresh, freshAdmin, 'POST', `/backups/${name}/restore`, { parts: ['content_types', 'entries', 'media', 'webhooks'] });
    expect(restored.status, restored.text).to.equal(200);
    expect(restored.body.data.history).to.equal(true);

    const after = await capture(fresh, freshAdmin);
    expectSameSite(after, before);
    const hooks = await adminRequest(fresh, freshAdmin, 'GET', '/webhooks');
    expect(hooks.body.data[0].has_secret).to.equal(false);
    const repo = contentRepoOf(fresh.dataDir);
    expect(await git(repo, ['status', '--porcelain'])).to.equal('');
    await git(repo, ['fsck', '--no-progress']);
  });

  it('restores a media file only when its bytes are the ones its record names, and names those that are not', async () => {
    await populate();
    const intact = await makePng(25, 25);
    expect((await uploadMedia(server, [{ filename: 'intact.png', bytes: intact }], { session: admin })).status).to.equal(201);
    const { name } = (await createBackup()).body.data;
    const entries = await entriesOf(path.join(server.dataDir, 'state', 'backups', name));
    const photo = entries.find((entry) => entry.name === 'media/default/photo.png');
    expect(photo, 'the backup holds the photo').not.to.equal(undefined);
    photo!.data = await makePng(31, 20);

    const { server: fresh, admin: freshAdmin } = await buildAdminServer();
    others.push(fresh);
    expect((await uploadBackup(fresh, freshAdmin, buildZip(entries), name)).status).to.equal(201);
    const restored = await adminRequest(fresh, freshAdmin, 'POST', `/backups/${name}/restore`, { parts: ['content_types', 'entries', 'media'] });
    expect(restored.status, restored.text).to.equal(200);
    expect(restored.body.data.restored).to.include({ media: 2 });
    expect(restored.body.data.notes.join(' ')).to.include('1 media files in the backup are not the bytes their metadata names').and.include('default/photo.png');
    const listed = (await adminRequest(fresh, freshAdmin, 'GET', '/media')).body.data.map((item: { filename: string }) => item.filename);
    expect(listed, 'the metadata is restored').to.include.members(['photo.png', 'intact.png']);
    expect((await fetch(`${fresh.baseUrl}/media/default/photo.png`)).status, 'the altered bytes are not placed').to.equal(404);
    const served = await fetch(`${fresh.baseUrl}/media/default/intact.png`);
    expect(Buffer.from(await served.arrayBuffer())).to.deep.equal(intact);
    expect(await readdir(path.join(fresh.dataDir, 'media', '.staging')), 'nothing left in staging').to.deep.equal([]);
  });

  it('restores a workspace the target server does not have', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    await server.request('POST', '/api/v1/workspaces/shop/content-types', { body: { name: 'products' }, token });
    const product = await server.request('POST', '/api/v1/workspaces/shop/content/products', { body: { title: 'Lamp', status: 'published' }, token });
    const { name } = (await createBackup({ parts: ['content_types', 'entries'] })).body.data;
    const bytes = await readFile(path.join(server.dataDir, 'state', 'backups', name));

    const { server: fresh, admin: freshAdmin } = await buildAdminServer();
    others.push(fresh);
    await uploadBackup(fresh, freshAdmin, bytes, name);
    const restored = await adminRequest(fresh, freshAdmin, 'POST', `/backups/${name}/restore`, { parts: ['content_types', 'entries'] });
    expect(restored.status, restored.text).to.equal(200);
    expect(restored.body.data.restored).to.include({ content_types: 1, entries: 1 });
    const read = await fresh.request('GET', `/api/v1/workspaces/shop/content/products/${product.body.data.id}`);
    expect(read.status).to.equal(200);
    expect(read.body.data).to.deep.equal(product.body.data);
    const workspaces = await adminRequest(fresh, freshAdmin, 'GET', '/workspaces');
    expect(workspaces.body.data.map((workspace: { slug: string }) => workspace.slug)).to.include('shop');
  });

  it('records a restore as one activity line with its counts, and none for the entries and files it brought back', async () => {
    await populate();
    const { name } = (await createBackup()).body.data;
    expect((await server.request('DELETE', '/api/v1/workspaces/default/content-types/posts', { token })).status).to.equal(200);
    const activity = async (query: string) => (await adminRequest(server, admin, 'GET', `/activity${query}`)).body;
    await pollUntil(() => activity('?type=schema.deleted'), (body) => body.data.length > 0);
    const earlier = new Set((await activity('?limit=100')).data.map((record: { id: string }) => record.id));

    const restored = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['content_types', 'entries', 'media'] });
    expect(restored.status, restored.text).to.equal(200);
    const [line] = (await pollUntil(() => activity('?type=backup.restored'), (body) => body.data.length > 0)).data;
    expect(line).to.include({ level: 'info', type: 'backup.restored', user_id: adminId, workspace: null });
    expect(line.message).to.include(`Restored the backup "${name}": `).and.include('1 content type, ').and.include('2 entries').and.include('1 entry in the trash');
    expect(line.details).to.include({ backup: name, overwrite: false, commit: restored.body.data.commit });
    expect(line.details.restored).to.deep.equal(restored.body.data.restored);
    const told = (await activity('?limit=100')).data.filter((record: { id: string; type: string }) => !earlier.has(record.id) && record.type !== 'webhook.failed');
    expect(told.map((record: { type: string }) => record.type), 'no line per entry or file').to.deep.equal(['backup.restored']);
  });

  it('tells the media files a restore places in one group, as one enqueue of webhook deliveries', async () => {
    await populate();
    expect((await uploadMedia(server, [{ filename: 'second.png', bytes: await makePng(12, 12) }], { session: admin })).status).to.equal(201);
    const { name } = (await createBackup({ parts: ['media'] })).body.data;
    for (const filename of ['photo.png', 'second.png']) expect((await adminRequest(server, admin, 'DELETE', `/media/${filename}`)).status).to.equal(200);
    const groups: DomainEvent[][] = [];
    server.services.events.onGroup((group) => {
      if (group.some((event) => event.type.startsWith('media.'))) groups.push([...group]);
    });

    const restored = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['media'] });
    expect(restored.status, restored.text).to.equal(200);
    await pollUntil(async () => groups.length, (count) => count > 0);
    expect(groups.map((group) => group.map((event) => `${event.type} ${event.data.filename}`).sort())).to.deep.equal([['media.uploaded photo.png', 'media.uploaded second.png']]);
    expect(groups[0].every((event) => event.fromBackup === name)).to.equal(true);
  });

  it('names the workspaces a restore archived in its activity line', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'blog', label: 'Blog' })).status).to.equal(201);
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: true })).status).to.equal(200);
    const { name } = (await createBackup({ parts: ['content_types'] })).body.data;
    expect((await adminRequest(server, admin, 'PUT', '/workspaces/blog', { archived: false })).status).to.equal(200);
    const activity = async (query: string) => (await adminRequest(server, admin, 'GET', `/activity${query}`)).body;
    await pollUntil(() => activity('?type=content.published'), (body) => body.data.length > 0);
    const earlier = new Set((await activity('?limit=100')).data.map((record: { id: string }) => record.id));

    const restored = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['content_types'], overwrite: true });
    expect(restored.status, restored.text).to.equal(200);
    expect(server.services.workspaces.find('blog')?.archived).to.equal(true);
    const [line] = (await pollUntil(() => activity('?type=backup.restored'), (body) => body.data.length > 0)).data;
    expect(line.details.workspaces).to.deep.equal([{ workspace: 'blog', change: 'archived' }]);
    expect(line.message).to.include('archived the workspace "blog"');
    const told = (await activity('?limit=100')).data.filter((record: { id: string; type: string }) => !earlier.has(record.id) && record.type !== 'webhook.failed');
    expect(told.map((record: { type: string }) => record.type), 'no line of its own').to.deep.equal(['backup.restored']);
  });

  it('records a restore that fails as one activity line: the step, the reason without server paths, and the commit it had made', async () => {
    await populate();
    const { name } = (await createBackup({ parts: ['media'] })).body.data;
    const activity = async (query: string) => (await adminRequest(server, admin, 'GET', `/activity${query}`)).body;

    const lacking = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['entries'] });
    expect(lacking.status).to.equal(422);
    const [refused] = (await pollUntil(() => activity('?type=backup.restore_failed'), (body) => body.data.length > 0)).data;
    expect(refused).to.include({ level: 'error', type: 'backup.restore_failed', user_id: adminId });
    expect(refused.details).to.include({ backup: name, step: 'checking', code: 'validation_failed', commit: null });
    expect(refused.details.fields).to.have.property('parts');

    // A folder under the name of the photo, which the restore may replace: it commits the records, then cannot place the binary.
    expect((await adminRequest(server, admin, 'DELETE', '/media/photo.png')).status).to.equal(200);
    await mkdir(path.join(server.dataDir, 'media', 'default', 'photo.png', 'by-hand'), { recursive: true });
    const failed = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['media'], overwrite: true });
    expect(failed.status).to.equal(500);
    expect(failed.body.error.code).to.equal('internal_error');
    const [line] = (await pollUntil(() => activity('?type=backup.restore_failed'), (body) => body.data.length > 1)).data;
    expect(line.details).to.include({ backup: name, step: 'placing_media', code: 'internal_error' });
    expect(line.details.commit).to.match(/^[0-9a-f]{40}$/);
    expect(line.details.restored).to.include({ media: 1 });
    expect(line.message).to.include(`Restoring the backup "${name}" failed while placing its media files, after its content was committed`);
    expect(JSON.stringify(line)).not.to.include(server.dataDir).and.not.to.include('/media/');
  });

  describe('a restore that fails, and one that was killed', () => {
    const stagingOf = (dataDir: string) => path.join(dataDir, 'media', '.staging');

    // Three media files (a.png, b.png, c.png, placed in that order) and the posts type, backed up, then the files deleted.
    async function backupOfThreeFiles(): Promise<string> {
      await populate();
      for (const filename of ['a.png', 'b.png', 'c.png']) {
        expect((await uploadMedia(server, [{ filename, bytes: await makePng(10 + filename.charCodeAt(0) % 10, 10) }], { session: admin })).status).to.equal(201);
      }
      const { name } = (await createBackup({ parts: ['content_types', 'entries', 'media'] })).body.data;
      for (const filename of ['a.png', 'b.png', 'c.png', 'photo.png']) expect((await adminRequest(server, admin, 'DELETE', `/media/${filename}`)).status).to.equal(200);
      return name;
    }

    // Restores the content parts, which must fail as `expected` with the data root as it was and nothing staged. The
    // history's objects are stored before the commit: when that fails they stay, unreachable, for git gc to drop.
    async function expectFailedRestore(target: TestServer, session: AdminSession, name: string, expected: { status: number; code: string; objectsStored?: boolean }): Promise<void> {
      const before = await snapshotDataRoot(target.dataDir);
      const failed = await adminRequest(target, session, 'POST', `/backups/${name}/restore`, { parts: ['content_types', 'entries', 'media'] });
      expect(failed.status, failed.text).to.equal(expected.status);
      expect(failed.body.error.code).to.equal(expected.code);
      const changed = diffSnapshots(before, await snapshotDataRoot(target.dataDir)).filter((line) => !(expected.objectsStored && line.startsWith('added content/.git/objects/')));
      expect(changed, 'nothing stored changed').to.deep.equal([]);
      expect(await readdir(stagingOf(target.dataDir)), 'nothing left in staging').to.deep.equal([]);
    }

    it('drops every staged file when placing fails after the commit: the files not placed leave nothing in staging', async () => {
      const name = await backupOfThreeFiles();
      // b.png cannot be replaced (a folder has its name); c.png is staged and would be placed after it.
      await mkdir(path.join(server.dataDir, 'media', 'default', 'b.png', 'by-hand'), { recursive: true });
      const failed = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['media'], overwrite: true });
      expect(failed.status).to.equal(500);
      expect(failed.body.error.code).to.equal('internal_error');
      expect(await readdir(stagingOf(server.dataDir)), 'nothing left in staging').to.deep.equal([]);
      expect((await fetch(`${server.baseUrl}/media/default/a.png`)).status, 'placed before the failure').to.equal(200);
      expect((await fetch(`${server.baseUrl}/media/default/c.png`)).status, 'not placed').to.equal(404);
    });

    it('fails before its commit when a media folder cannot take the files: stored data as before, nothing staged', async () => {
      const name = await backupOfThreeFiles();
      expect((await server.request('DELETE', '/api/v1/workspaces/default/content-types/posts', { token })).status).to.equal(200);
      // The workspace's media folder made a file: no binary could be placed in it.
      const folder = path.join(server.dataDir, 'media', 'default');
      await rm(folder, { recursive: true, force: true });
      await writeFile(folder, 'not a folder');
      await expectFailedRestore(server, admin, name, { status: 500, code: 'internal_error' });
      const activity = await pollUntil(() => adminRequest(server, admin, 'GET', '/activity?type=backup.restore_failed'), (response) => response.body.data.length > 0);
      expect(activity.body.data[0].details).to.include({ step: 'preparing_media', commit: null });
      expect((await adminRequest(server, admin, 'GET', '/content-types')).body.data).to.deep.equal([]);
    });

    it('removes the media folder it made for the files when its commit then fails', async () => {
      const name = await backupOfThreeFiles();
      const { server: fresh, admin: freshAdmin } = await buildAdminServer();
      others.push(fresh);
      expect((await uploadBackup(fresh, freshAdmin, await readFile(path.join(server.dataDir, 'state', 'backups', name)), name)).status).to.equal(201);
      await rm(path.join(fresh.dataDir, 'media', 'default'), { recursive: true, force: true });
      // A file where the restore commits a record: the commit fails after the media folder was made.
      const repo = contentRepoOf(fresh.dataDir);
      await mkdir(path.join(repo, 'default', 'media', 'a.png.yaml', 'by-hand'), { recursive: true });
      await expectFailedRestore(fresh, freshAdmin, name, { status: 409, code: 'conflict', objectsStored: true });
      expect(await readdir(path.join(fresh.dataDir, 'media')), 'no media folder left').to.deep.equal(['.staging']);
    });

    it('fails with nothing stored when a media file of the archive is damaged after others were staged', async () => {
      const name = await backupOfThreeFiles();
      const archive = path.join(server.dataDir, 'state', 'backups', name);
      const entries = await entriesOf(archive);
      const damaged = entries.find((entry) => entry.name === 'media/default/c.png');
      expect(damaged, 'the backup holds c.png').not.to.equal(undefined);
      // Its headers promise more bytes than it holds: reading it fails once a.png and b.png are staged.
      damaged!.declaredSize = damaged!.data.length + 10;
      await writeFile(archive, buildZip(entries));
      await expectFailedRestore(server, admin, name, { status: 422, code: 'validation_failed' });
    });

    it('clears what a killed restore left in the staging folder at the next start, and touches nothing else', async () => {
      await populate();
      await server.close({ keepData: true });
      // What a restore killed while staging leaves: staged binaries, one half written.
      const staging = stagingOf(server.dataDir);
      await writeFile(path.join(staging, 'a'.repeat(32)), await makePng(12, 12));
      await writeFile(path.join(staging, 'b'.repeat(32)), Buffer.from('half a file'));
      const before = await snapshotDataRoot(server.dataDir);

      server = await startTestServer({ dataDir: server.dataDir });
      expect(await readdir(staging), 'the staging folder is empty').to.deep.equal([]);
      const after = await snapshotDataRoot(server.dataDir);
      expect(diffSnapshots(before, after)).to.deep.equal([`removed media/.staging/${'a'.repeat(32)}`, `removed media/.staging/${'b'.repeat(32)}`]);
      expect((await fetch(`${server.baseUrl}/media/default/photo.png`)).status, 'the stored files are served').to.equal(200);
    });
  });

  // The repo copies of public files (docs/static-sites.md): a site built from the repo has the restored images at once.
  describe('copies of public media files in the content repo', () => {
    const COPIES = 'default/public/media';
    const served = async (filename: string): Promise<Buffer> => Buffer.from(await (await fetch(`${server.baseUrl}/media/default/${filename}`)).arrayBuffer());
    const copiesIn = async (repo: string): Promise<string[]> => (await git(repo, ['ls-files', COPIES])).split('\n').filter(Boolean);
    const setVisibility = async (filename: string, visibility: string) => expect((await adminRequest(server, admin, 'PUT', '/media/bulk-visibility', { files: [filename], visibility })).status).to.equal(200);

    // A backup of the public photo.png (its bytes returned) and the private secret.png.
    async function backupWithPrivateFile(): Promise<{ name: string; photo: Buffer }> {
      await populate();
      expect((await uploadMedia(server, [{ filename: 'secret.png', bytes: await makePng(9, 9) }], { session: admin })).status).to.equal(201);
      await setVisibility('secret.png', 'private');
      const photo = await served('photo.png');
      const { name } = (await createBackup({ parts: ['content_types', 'entries', 'media'] })).body.data;
      return { name, photo };
    }

    // The repo is settled, and the next start finds no copy missing: it commits nothing.
    async function expectNoCommitAtStart(repo: string): Promise<void> {
      expect(await git(repo, ['status', '--porcelain'])).to.equal('');
      const head = await headOid(repo);
      await server.close({ keepData: true });
      server = await startTestServer({ dataDir: server.dataDir });
      expect(await headOid(repo), 'no commit at the next start').to.equal(head);
    }

    it('are written in the restore commit for the public files it places, and none for private ones', async () => {
      const { name, photo } = await backupWithPrivateFile();
      for (const filename of ['photo.png', 'secret.png']) expect((await adminRequest(server, admin, 'DELETE', `/media/${filename}`)).status).to.equal(200);
      const repo = contentRepoOf(server.dataDir);
      expect(await copiesIn(repo), 'the delete removed the copy').to.deep.equal([]);

      const restored = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['media'] });
      expect(restored.status, restored.text).to.equal(200);
      expect(restored.body.data.restored).to.include({ media: 2 });
      expect(await headOid(repo), 'one commit').to.equal(restored.body.data.commit);
      expect((await changedFiles(repo)).map((file) => `${file.status} ${file.path}`)).to.include(`A ${COPIES}/photo.png`);
      expect(await copiesIn(repo)).to.deep.equal([`${COPIES}/photo.png`]);
      expect(await bytesAt(repo, `${COPIES}/photo.png`)).to.deep.equal(photo);
      expect(await served('photo.png')).to.deep.equal(photo);
      await expectNoCommitAtStart(repo);
    });

    it('are replaced by a restore with overwrite, and removed for a file it makes private', async () => {
      const { name, photo } = await backupWithPrivateFile();
      // Since the backup: photo.png holds other bytes, secret.png is public.
      expect((await adminRequest(server, admin, 'DELETE', '/media/photo.png')).status).to.equal(200);
      const upload = await uploadMedia(server, [{ filename: 'photo.png', bytes: await makePng(40, 12) }], { session: admin });
      expect(upload.body.data[0].filename).to.equal('photo.png');
      await setVisibility('secret.png', 'public');
      const repo = contentRepoOf(server.dataDir);
      expect(await copiesIn(repo)).to.deep.equal([`${COPIES}/photo.png`, `${COPIES}/secret.png`]);
      expect(await bytesAt(repo, `${COPIES}/photo.png`)).not.to.deep.equal(photo);

      const restored = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['media'], overwrite: true });
      expect(restored.status, restored.text).to.equal(200);
      expect(await headOid(repo), 'one commit').to.equal(restored.body.data.commit);
      expect(await copiesIn(repo)).to.deep.equal([`${COPIES}/photo.png`]);
      expect(await bytesAt(repo, `${COPIES}/photo.png`)).to.deep.equal(photo);
      expect(await served('photo.png')).to.deep.equal(photo);
      await expectNoCommitAtStart(repo);
    });

    it('are written into a fresh server from an uploaded archive', async () => {
      await populate();
      const photo = await served('photo.png');
      const { name } = (await createBackup()).body.data;
      const bytes = await readFile(path.join(server.dataDir, 'state', 'backups', name));
      await server.close();
      ({ server, admin } = await buildAdminServer());
      expect((await uploadBackup(server, admin, bytes, name)).status).to.equal(201);

      const restored = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['content_types', 'entries', 'media'] });
      expect(restored.status, restored.text).to.equal(200);
      const repo = contentRepoOf(server.dataDir);
      expect(await headOid(repo), 'one commit').to.equal(restored.body.data.commit);
      expect(await copiesIn(repo)).to.deep.equal([`${COPIES}/photo.png`]);
      expect(await bytesAt(repo, `${COPIES}/photo.png`)).to.deep.equal(photo);
      await expectNoCommitAtStart(repo);
    });
  });

  it('keeps existing records without overwrite and replaces them with it', async () => {
    await populate();
    const before = await capture(server, admin);
    const { name } = (await createBackup()).body.data;
    const [first] = before.entries as { id: string; title: string }[];
    await adminRequest(server, admin, 'PUT', `/content/posts/${first.id}`, { title: 'Changed since' });

    const kept = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['entries'] });
    expect(kept.status).to.equal(200);
    expect(kept.body.data.kept).to.include({ entries: 2 });
    expect(kept.body.data.restored).to.include({ entries: 0 });
    expect((await adminRequest(server, admin, 'GET', `/content/posts/${first.id}`)).body.data.title).to.equal('Changed since');

    const replaced = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['entries'], overwrite: true });
    expect(replaced.status).to.equal(200);
    expect(replaced.body.data.restored).to.include({ entries: 2 });
    expect((await adminRequest(server, admin, 'GET', `/content/posts/${first.id}`)).body.data.title).to.equal(first.title);
  });

  it('answers 422 for a restore naming an unknown part or a part the backup lacks, and writes nothing', async () => {
    await populate();
    const { name } = (await createBackup({ parts: ['webhooks'] })).body.data;
    const snapshot = await snapshotDataRoot(server.dataDir);
    for (const parts of [['entries', 'mystery'], ['entries'], []]) {
      const response = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts });
      expect(response.status, JSON.stringify(parts)).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(response.body.error.fields).to.have.all.keys('parts');
    }
    const missing = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, {});
    expect(missing.status).to.equal(422);
    expect(diffSnapshots(snapshot, await snapshotDataRoot(server.dataDir))).to.deep.equal([]);
  });

  it('answers 404 for unknown backups and names that are not backup names', async () => {
    for (const file of ['backup-20200101-000000.zip', 'nope.zip', '..', 'state.json']) {
      const response = await adminRequest(server, admin, 'GET', `/backups/${encodeURIComponent(file)}/inspect`);
      expect(response.status, file).to.equal(404);
      expect(response.body.error.code).to.equal('not_found');
    }
  });

  it('answers 403 forbidden without the backups grants', async () => {
    const { name } = (await createBackup({ parts: ['webhooks'] })).body.data;
    const { session } = await userWithGrants(server, admin, 'reader1', [{ effect: 'allow', actions: ['backups.read'], resources: ['*'] }]);
    expect((await adminRequest(server, session, 'GET', '/backups')).status).to.equal(200);
    expect((await adminRequest(server, session, 'GET', `/backups/${name}/inspect`)).status).to.equal(200);
    for (const [method, url, body] of [
      ['POST', '/backups', {}],
      ['POST', `/backups/${name}/restore`, { parts: ['webhooks'] }],
      ['DELETE', `/backups/${name}`, undefined],
    ] as const) {
      const response = await adminRequest(server, session, method, url, body);
      expect(response.status, `${method} ${url}`).to.equal(403);
      expect(response.body.error.code).to.equal('forbidden');
    }
    const upload = await uploadBackup(server, session, Buffer.from('PK'));
    expect(upload.status).to.equal(403);
  });

  it('restores roles but not users or tokens from a backup without hashes, with a note', async () => {
    await adminRequest(server, admin, 'POST', '/roles', { id: 'writer', label: 'Writer', permissions: [{ effect: 'allow', actions: ['content.*'], resources: ['*'] }] });
    const { name } = (await createBackup({ parts: ['users'] })).body.data;
    const bytes = await readFile(path.join(server.dataDir, 'state', 'backups', name));
    expect(bytes.toString('latin1')).to.not.match(/\$2[aby]\$/);

    const { server: fresh, admin: freshAdmin } = await buildAdminServer();
    others.push(fresh);
    await uploadBackup(fresh, freshAdmin, bytes, name);
    const restored = await adminRequest(fresh, freshAdmin, 'POST', `/backups/${name}/restore`, { parts: ['users'] });
    expect(restored.status).to.equal(200);
    expect(restored.body.data.notes.join(' ')).to.include('CMS_BACKUP_INCLUDE_SECRETS');
    expect(restored.body.data.skipped).to.include({ users: 1, tokens: 1 });
    const roles = await adminRequest(fresh, freshAdmin, 'GET', '/roles');
    expect(roles.body.data.map((role: { id: string }) => role.id)).to.include('writer');
    expect((await adminRequest(fresh, freshAdmin, 'GET', '/users')).body.data).to.have.length(1);
  });

  it('restores users and tokens from a backup made with CMS_BACKUP_INCLUDE_SECRETS=1', async () => {
    const { server: secretServer, admin: secretAdmin, token: oldToken } = await buildAdminServer({ env: { CMS_BACKUP_INCLUDE_SECRETS: '1' }, token: FULL_ACCESS });
    others.push(secretServer);
    const created = await adminRequest(secretServer, secretAdmin, 'POST', '/backups', { parts: ['users'] });
    expect(created.body.data.includes_secrets).to.equal(true);
    const bytes = await readFile(path.join(secretServer.dataDir, 'state', 'backups', created.body.data.name));

    await uploadBackup(server, admin, bytes, created.body.data.name);
    const restored = await adminRequest(server, admin, 'POST', `/backups/${created.body.data.name}/restore`, { parts: ['users'] });
    expect(restored.status).to.equal(200);
    expect(restored.body.data.restored).to.include({ tokens: 1 });
    // Both servers made an "admin" user with different ids: the username is taken, so that user is skipped.
    expect(restored.body.data.skipped).to.not.have.property('users');
    expect(restored.body.data.notes.join(' ')).to.include('username');
    const health = await server.request('GET', '/api/v1/workspaces/default/content-types', { token: oldToken });
    expect(health.status).to.equal(200);
    expect((await login(server, ADMIN_USERNAME, ADMIN_PASSWORD)).csrf).to.be.a('string');
  });

  describe('hostile archives', () => {
    const manifest = (parts: string[] = ['webhooks']) =>
      Buffer.from(JSON.stringify({ format: 'git-cms-backup', format_version: 1, name: 'x', created_at: '2024-01-01T00:00:00.000Z', version: '1', parts, head: null, include_secrets: false, counts: {} }));
    const hooks = Buffer.from('[]');
    const cases: Record<string, () => Buffer> = {
      'a ../ path': () => buildZip([{ name: 'manifest.json', data: manifest() }, { name: '../evil.txt', data: Buffer.from('x') }]),
      'a nested ../ path': () => buildZip([{ name: 'manifest.json', data: manifest(['media']) }, { name: 'media/default/../../../evil.png', data: Buffer.from('x') }]),
      'an absolute path': () => buildZip([{ name: 'manifest.json', data: manifest() }, { name: '/tmp/evil.txt', data: Buffer.from('x') }]),
      'a symlink': () => buildZip([{ name: 'manifest.json', data: manifest(['media']) }, { name: 'media/default/link.png', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]),
      '10,000 tiny files': () =>
        buildZip([{ name: 'manifest.json', data: manifest(['media']) }, ...Array.from({ length: 10_000 }, (_, i) => ({ name: `media/default/f${i}.txt`, data: Buffer.from('x') }))]),
      // Deflated zeros that would expand to 6 GB, past CMS_BACKUP_MAX_BYTES (4 GiB by default).
      'more bytes than CMS_BACKUP_MAX_BYTES': () =>
        buildZip([
          { name: 'manifest.json', data: manifest(['media']) },
          { name: 'media/default/zeros-1.bin', data: Buffer.alloc(1024 * 1024), deflate: true, declaredSize: 3_000_000_000 },
          { name: 'media/default/zeros-2.bin', data: Buffer.alloc(1024 * 1024), deflate: true, declaredSize: 3_000_000_000 },
        ]),
      'a size that lies': () => buildZip([{ name: 'manifest.json', data: manifest() }, { name: 'state/webhooks.json', data: Buffer.alloc(4096, 0x20), deflate: true, declaredSize: 10 }]),
      'an unknown part': () => buildZip([{ name: 'manifest.json', data: manifest(['webhooks', 'secrets']) }, { name: 'state/webhooks.json', data: hooks }]),
      'an unknown file': () => buildZip([{ name: 'manifest.json', data: manifest() }, { name: 'payload.sh', data: Buffer.from('rm -rf /') }]),
      'no manifest': () => buildZip([{ name: 'state/webhooks.json', data: hooks }]),
      'a file of a part the manifest lacks': () => buildZip([{ name: 'manifest.json', data: manifest() }, { name: 'state/users.json', data: hooks }]),
      'not a zip at all': () => Buffer.from('this is not an archive'),
    };

    for (const [label, make] of Object.entries(cases)) {
      it(`refuses an upload with ${label}: 422, nothing kept`, async () => {
        const snapshot = await snapshotDataRoot(server.dataDir);
        const response = await uploadBackup(server, admin, make());
        expect(response.status, response.text).to.equal(422);
        expect(response.body.error.code).to.equal('validation_failed');
        expect(response.body.error.fields).to.have.property('backup');
        expect(await readdir(path.join(server.dataDir, 'state', 'backups'))).to.deep.equal([]);
        expect(diffSnapshots(snapshot, await snapshotDataRoot(server.dataDir))).to.deep.equal([]);
      });
    }

    it('refuses to restore a hostile archive placed in the backups folder, writing nothing', async () => {
      const folder = path.join(server.dataDir, 'state', 'backups');
      await populate();
      const name = 'backup-20200101-000000.zip';
      for (const make of [cases['a ../ path'], cases['a symlink'], cases['more bytes than CMS_BACKUP_MAX_BYTES']]) {
        await writeFile(path.join(folder, name), make());
        const snapshot = await snapshotDataRoot(server.dataDir);
        const response = await adminRequest(server, admin, 'POST', `/backups/${name}/restore`, { parts: ['media'] });
        expect(response.status).to.equal(422);
        expect(response.body.error.fields).to.have.property('backup');
        expect(diffSnapshots(snapshot, await snapshotDataRoot(server.dataDir))).to.deep.equal([]);
      }
    });

    it('refuses a restore whose history file is damaged, before any content is written', async () => {
      await populate();
      const { name } = (await createBackup()).body.data;
      const folder = path.join(server.dataDir, 'state', 'backups');
      await copyFile(path.join(folder, name), path.join(folder, 'copy.zip'));
      await server.request('DELETE', '/api/v1/workspaces/default/content-types/posts', { token });
      const damaged = buildZip([
        { name: 'manifest.json', data: manifest(['entries']) },
        { name: 'content.jsonl', data: Buffer.from('') },
        { name: 'history/objects.bin', data: Buffer.from('GITCMS-OBJECTS 1\n\u0003\u0000\u0000\u0000\u0009garbage!!') },
      ]);
      await writeFile(path.join(folder, 'backup-20200101-000001.zip'), damaged);
      const snapshot = await snapshotDataRoot(server.dataDir);
      const response = await adminRequest(server, admin, 'POST', '/backups/backup-20200101-000001.zip/restore', { parts: ['entries'] });
      expect(response.status).to.equal(422);
      expect(diffSnapshots(snapshot, await snapshotDataRoot(server.dataDir))).to.deep.equal([]);
    });
  });
});
