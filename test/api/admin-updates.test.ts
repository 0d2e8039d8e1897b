// Updates over HTTP (issue 7: "Updates"): without a feed the check says so;
// with a feed served by the test, check → download (SHA-256 verified) →
// install (unpacked beside, restart required); a bad checksum, a broken feed
// and a hostile release archive are refused with nothing kept.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { userWithGrants } from '../helpers/admin-users.ts';
import { startLocalHttp, type LocalHttpServer } from '../helpers/local-http.ts';
import type { TestServer } from '../helpers/server.ts';
import { buildZip } from '../helpers/zip.ts';

const STATUS_KEYS = ['configured', 'state', 'current_version', 'latest_version', 'latest', 'staged', 'installed', 'restart_required', 'message'];
const RELEASE = buildZip([
  { name: 'package.json', data: Buffer.from('{ "name": "git-cms", "version": "99.0.0" }\n') },
  { name: 'src/main.ts', data: Buffer.from('export {};\n'), deflate: true },
  { name: 'bin/', data: Buffer.alloc(0), mode: 0o040755 },
]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('admin API: updates', () => {
  let server: TestServer;
  let admin: AdminSession;
  let feed: LocalHttpServer;
  let releasesDir: string;
  let archive: Buffer;
  let feedBody: Record<string, unknown>;

  async function start(env: Record<string, string> = {}) {
    ({ server, admin } = await buildAdminServer({ env: { CMS_RELEASES_DIR: releasesDir, ...env } }));
  }

  beforeEach(async () => {
    releasesDir = await mkdtemp(path.join(os.tmpdir(), 'cms-releases-'));
    archive = RELEASE;
    feedBody = { version: '99.0.0', url: '/release.zip', sha256: sha256(RELEASE), notes: 'Big release.' };
    feed = await startLocalHttp((request) => {
      if (request.url === '/feed.json') return { status: 200, body: JSON.stringify(feedBody) };
      if (request.url === '/release.zip') return { status: 200, body: archive, headers: { 'content-type': 'application/zip' } };
      return { status: 404, body: '{}' };
    });
  });
  afterEach(async () => {
    await server.close();
    await feed.close();
    await rm(releasesDir, { recursive: true, force: true });
  });

  it('says clearly that updates are not configured without a feed', async () => {
    await start();
    const status = await adminRequest(server, admin, 'GET', '/update');
    expect(status.status).to.equal(200);
    expect(status.body.data).to.have.all.keys(...STATUS_KEYS);
    expect(status.body.data).to.include({ configured: false, state: 'not_configured', latest_version: null, restart_required: false });
    expect(status.body.data.current_version).to.match(/^\d+\.\d+\.\d+/);
    const check = await adminRequest(server, admin, 'POST', '/update/check');
    expect(check.status).to.equal(200);
    expect(check.body.data).to.include({ configured: false, state: 'not_configured' });
    expect(check.body.data.message).to.include('CMS_UPDATE_FEED');
    const download = await adminRequest(server, admin, 'POST', '/update/download');
    expect(download.status).to.equal(409);
    expect(download.body.error.code).to.equal('conflict');
    expect(feed.requests).to.deep.equal([]);
  });

  it('checks, downloads with a verified checksum, and installs beside the running release', async () => {
    await start({ CMS_UPDATE_FEED: `${feed.url}/feed.json` });
    expect((await adminRequest(server, admin, 'GET', '/update')).body.data.state).to.equal('unknown');
    const install = await adminRequest(server, admin, 'POST', '/update/install');
    expect(install.status).to.equal(409);

    const check = await adminRequest(server, admin, 'POST', '/update/check');
    expect(check.status).to.equal(200);
    expect(check.body.data).to.include({ configured: true, state: 'available', latest_version: '99.0.0', restart_required: false });
    expect(check.body.data.latest).to.include({ version: '99.0.0', notes: 'Big release.', url: `${feed.url}/release.zip`, sha256: sha256(RELEASE) });

    const download = await adminRequest(server, admin, 'POST', '/update/download');
    expect(download.status, download.text).to.equal(200);
    expect(download.body.data.state).to.equal('downloaded');
    expect(download.body.data.staged).to.include({ version: '99.0.0', size: RELEASE.length, sha256: sha256(RELEASE) });
    const staged = await readFile(path.join(server.dataDir, 'state', 'updates', 'release-99.0.0.zip'));
    expect(staged.equals(RELEASE)).to.equal(true);

    const installed = await adminRequest(server, admin, 'POST', '/update/install');
    expect(installed.status, installed.text).to.equal(200);
    expect(installed.body.data).to.include({ state: 'installed', restart_required: true });
    expect(installed.body.data.installed).to.include({ version: '99.0.0', path: path.join(releasesDir, '99.0.0') });
    expect(await readFile(path.join(releasesDir, '99.0.0', 'package.json'), 'utf8')).to.include('99.0.0');
    expect(await readFile(path.join(releasesDir, '99.0.0', 'src', 'main.ts'), 'utf8')).to.equal('export {};\n');
    expect((await server.request('GET', '/api/v1/health')).status).to.equal(200);

    const again = await adminRequest(server, admin, 'POST', '/update/install');
    expect(again.status).to.equal(409);
    expect((await adminRequest(server, admin, 'GET', '/update')).body.data).to.include({ state: 'installed', restart_required: true });
  });

  it('refuses a download whose checksum does not match, keeping nothing', async () => {
    feedBody.sha256 = sha256(Buffer.from('something else'));
    await start({ CMS_UPDATE_FEED: `${feed.url}/feed.json` });
    await adminRequest(server, admin, 'POST', '/update/check');
    const download = await adminRequest(server, admin, 'POST', '/update/download');
    expect(download.status).to.equal(422);
    expect(download.body.error.code).to.equal('validation_failed');
    expect(download.body.error.fields).to.have.all.keys('sha256');
    expect(await readdir(path.join(server.dataDir, 'state', 'updates'))).to.deep.equal([]);
    expect((await adminRequest(server, admin, 'GET', '/update')).body.data.state).to.equal('available');
    expect((await adminRequest(server, admin, 'POST', '/update/install')).status).to.equal(409);
  });

  it('reports an up-to-date version and refuses to download it', async () => {
    feedBody.version = '0.0.1';
    await start({ CMS_UPDATE_FEED: `${feed.url}/feed.json` });
    const check = await adminRequest(server, admin, 'POST', '/update/check');
    expect(check.body.data).to.include({ state: 'up_to_date', latest_version: '0.0.1' });
    const download = await adminRequest(server, admin, 'POST', '/update/download');
    expect(download.status).to.equal(409);
    expect(download.body.error.code).to.equal('conflict');
  });

  it('answers 422 with field feed for a broken or unreachable feed', async () => {
    for (const [label, body] of [
      ['no version', { url: '/release.zip', sha256: sha256(RELEASE) }],
      ['bad checksum format', { version: '9.0.0', url: '/release.zip', sha256: 'abc' }],
      ['file url', { version: '9.0.0', url: 'file:///etc/passwd', sha256: sha256(RELEASE) }],
    ] as const) {
      feedBody = body;
      await start({ CMS_UPDATE_FEED: `${feed.url}/feed.json` });
      const check = await adminRequest(server, admin, 'POST', '/update/check');
      expect(check.status, label).to.equal(422);
      expect(check.body.error.fields).to.have.all.keys('feed');
      await server.close();
    }
    await start({ CMS_UPDATE_FEED: `${feed.url}/missing.json` });
    const missing = await adminRequest(server, admin, 'POST', '/update/check');
    expect(missing.status).to.equal(422);
    expect(missing.body.error.fields).to.have.all.keys('feed');
  });

  it('refuses to install a release archive with unsafe paths, unpacking nothing', async () => {
    archive = buildZip([{ name: 'package.json', data: Buffer.from('{}') }, { name: '../../escape.txt', data: Buffer.from('x') }]);
    feedBody.sha256 = sha256(archive);
    await start({ CMS_UPDATE_FEED: `${feed.url}/feed.json` });
    await adminRequest(server, admin, 'POST', '/update/check');
    expect((await adminRequest(server, admin, 'POST', '/update/download')).status).to.equal(200);
    const install = await adminRequest(server, admin, 'POST', '/update/install');
    expect(install.status).to.equal(422);
    expect(install.body.error.fields).to.have.all.keys('release');
    expect(await readdir(releasesDir)).to.deep.equal([]);
  });

  it('answers 403 forbidden without the updates grants', async () => {
    await start({ CMS_UPDATE_FEED: `${feed.url}/feed.json` });
    const { session } = await userWithGrants(server, admin, 'checker', [{ effect: 'allow', actions: ['updates.check'], resources: ['*'] }]);
    expect((await adminRequest(server, session, 'GET', '/update')).status).to.equal(200);
    expect((await adminRequest(server, session, 'POST', '/update/check')).status).to.equal(200);
    for (const action of ['download', 'install']) {
      const response = await adminRequest(server, session, 'POST', `/update/${action}`);
      expect(response.status, action).to.equal(403);
      expect(response.body.error.code).to.equal('forbidden');
    }
  });
});
