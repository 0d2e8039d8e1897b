// A client that goes away in the middle of a streamed answer (docs/operations.md
// "Logs"): nothing is logged as an error, and nothing is left running or open.
// Every streamed kind: a media original, an image variant, a backup download
// (from this server and forwarded by a replica), an original copied to a
// replica, a git clone (the real git upload-pack) and the live-events stream.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { contentRepoOf, externalCommit, headOid } from '../helpers/git.ts';
import { openFilesUnder, processesUsing } from '../helpers/leftovers.ts';
import { pollUntil } from '../helpers/poll.ts';
import { abortAfterFirstChunk } from '../helpers/raw-http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { captureStderr, type StderrCapture } from '../helpers/stderr-capture.ts';
import { uploadMedia } from './media-fixtures.ts';

// Bodies of several megabytes, so that a client leaving after the first chunk leaves most of it unsent.
const BIG_BYTES = 8 * 1024 * 1024;

describe('a client that aborts a streamed answer', () => {
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let replicaToken: string;
  let backupName: string;
  let log: StderrCapture;

  before(async function () {
    this.timeout(120_000);
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS, env: { CMS_LOG_LEVEL: 'info' } }));
    const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(4), Buffer.from('mp42isom'), randomBytes(BIG_BYTES)]);
    const noise = await sharp(randomBytes(2000 * 2000 * 3), { raw: { width: 2000, height: 2000, channels: 3 } }).png().toBuffer();
    const uploaded = await uploadMedia(server, [{ filename: 'clip.mp4', bytes: video }, { filename: 'noise.png', bytes: noise }], { token });
    expect(uploaded.status, uploaded.text).to.equal(201);
    // Random text packs to about its own size, so a clone has megabytes to send.
    await externalCommit(contentRepoOf(server.dataDir), { write: { 'assets/noise.txt': randomBytes(BIG_BYTES).toString('base64') } }, 'A big file to clone');
    const backup = await adminRequest(server, admin, 'POST', '/backups', {});
    expect(backup.status, backup.text).to.equal(201);
    backupName = backup.body.data.name;
    replicaToken = await issueToken(server, admin, [{ effect: 'allow', actions: ['git.pull', 'replication.read'], resources: ['*'] }], 'replicas');
  });
  after(() => server.close());
  beforeEach(() => {
    log = captureStderr();
  });
  afterEach(() => log.stop());

  // Another request through the server: whatever it did about the abort has been done and logged by then.
  async function afterServerTurn(): Promise<void> {
    await fetch(`${server.baseUrl}/api/v1/health`);
  }

  async function expectFilesClosed(dir: string): Promise<void> {
    expect(await pollUntil(() => openFilesUnder(path.join(server.dataDir, dir)), (open) => open.length === 0)).to.deep.equal([]);
  }

  it('serving a media file: no error logged, the file closed', async () => {
    expect(await abortAfterFirstChunk(`${server.baseUrl}/media/default/clip.mp4`)).to.equal(200);
    await expectFilesClosed('media');
    await afterServerTurn();
    expect(log.errorLines()).to.deep.equal([]);
  });

  it('serving a byte range of a media file: no error logged, the file closed', async () => {
    expect(await abortAfterFirstChunk(`${server.baseUrl}/media/default/clip.mp4`, { headers: { range: 'bytes=1000-' } })).to.equal(206);
    await expectFilesClosed('media');
    await afterServerTurn();
    expect(log.errorLines()).to.deep.equal([]);
  });

  it('serving an image variant: no error logged, the variant closed', async () => {
    const url = `${server.baseUrl}/media/default/noise.png?w=1920&format=png`;
    // The first request makes the variant and keeps it in the cache; the aborted one streams it from there.
    expect((await fetch(url).then((response) => response.arrayBuffer())).byteLength).to.be.above(1024 * 1024);
    expect(await abortAfterFirstChunk(url)).to.equal(200);
    await expectFilesClosed('cache');
    await afterServerTurn();
    expect(log.errorLines()).to.deep.equal([]);
  });

  it('downloading a backup: no error logged, the archive closed', async () => {
    expect(await abortAfterFirstChunk(`${server.baseUrl}/admin/api/backups/${backupName}/download`, { headers: { cookie: admin.cookie } })).to.equal(200);
    await expectFilesClosed('state');
    await afterServerTurn();
    expect(log.errorLines()).to.deep.equal([]);
  });

  it('copying an original to a replica (replication media): no error logged, the file closed', async () => {
    expect(await abortAfterFirstChunk(`${server.baseUrl}/replication/v1/media/default/clip.mp4`, { headers: { authorization: `Bearer ${replicaToken}` } })).to.equal(200);
    await expectFilesClosed('media');
    await afterServerTurn();
    expect(log.errorLines()).to.deep.equal([]);
  });

  it('a backup download a replica forwards to this primary: no error logged on either, the archive closed', async function () {
    this.timeout(120_000);
    const replica = await startTestServer({ env: { CMS_ROLE: 'replica', CMS_PRIMARY_URL: server.baseUrl, CMS_GIT_UPSTREAM_TOKEN: replicaToken, CMS_LOG_LEVEL: 'info' } });
    try {
      log.clear();
      expect(await abortAfterFirstChunk(`${replica.baseUrl}/admin/api/backups/${backupName}/download`, { headers: { cookie: admin.cookie } })).to.equal(200);
      await expectFilesClosed('state');
      await afterServerTurn();
      expect(log.errorLines()).to.deep.equal([]);
    } finally {
      await replica.close();
    }
  });

  it('cloning over git HTTP: no error logged, no git process left', async () => {
    const head = await headOid(contentRepoOf(server.dataDir));
    expect(await abortAfterFirstChunk(`${server.baseUrl}/git/content.git/git-upload-pack`, uploadPackRequest(head, token))).to.equal(200);
    const left = await pollUntil(() => gitServicesOn(contentRepoOf(server.dataDir)), (processes) => processes.length === 0);
    expect(left).to.deep.equal([]);
    await afterServerTurn();
    expect(log.errorLines()).to.deep.equal([]);
  });

  it('reading live events: no error logged', async () => {
    expect(await abortAfterFirstChunk(`${server.baseUrl}/admin/api/events`, { headers: { cookie: admin.cookie } })).to.equal(200);
    await afterServerTurn();
    expect(log.errorLines()).to.deep.equal([]);
  });

  it('still logs a git process that fails, and ends its answer', async () => {
    // upload-pack refuses to send an object no ref leads to and exits with an error.
    const response = await fetch(`${server.baseUrl}/git/content.git/git-upload-pack`, uploadPackRequest('1'.repeat(40), token));
    expect(response.status).to.equal(200);
    await response.arrayBuffer();
    const lines = await pollUntil(async () => log.errorLines(), (found) => found.length > 0);
    expect(lines.map((line) => JSON.parse(line).message)).to.deep.equal(['a git request failed']);
  });
});

// A protocol v0 fetch of everything `want` leads to: one want line, then done.
function uploadPackRequest(want: string, token: string): { method: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> } {
  const line = `want ${want}\n`;
  return {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`dev:${token}`).toString('base64')}`, 'content-type': 'application/x-git-upload-pack-request' },
    body: new Uint8Array(Buffer.from(`${(line.length + 4).toString(16).padStart(4, '0')}${line}00000009done\n`)),
  };
}

// upload-pack names the repository; the pack-objects it starts works inside it.
async function gitServicesOn(repo: string): Promise<string[]> {
  return (await processesUsing(repo)).filter((process) => /upload-pack|pack-objects/.test(process));
}
