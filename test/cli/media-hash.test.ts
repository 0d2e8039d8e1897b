// `cms media hash` on a real data root: media records without sha256 (an
// uploaded file's record with the line taken out, as records were before the
// field; a file added by hand with a record committed with git) get the hash
// of their bytes in one commit by the system, through the server's write
// path; files missing on disk or of another size than their record says are
// reported and left alone. The server then serves the recorded hash.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makePng, PDF_BYTES, uploadMedia } from '../api/media-fixtures.ts';
import { buildAdminServer, FULL_ACCESS } from '../helpers/auth.ts';
import { runCms } from '../helpers/cli.ts';
import { commitCount, commitInfo, contentRepoOf, externalCommit, fileAt, headOid, statusPorcelain } from '../helpers/git.ts';
import { spawnServer, type ServerProcess } from '../helpers/server-process.ts';
import { startTestServer } from '../helpers/server.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('cms media hash', function () {
  this.timeout(120_000);
  let dataDir: string;
  let repo: string;
  let photo: Buffer;
  let drawn: Buffer;

  before(async () => {
    const { server, token } = await buildAdminServer({ token: FULL_ACCESS });
    dataDir = server.dataDir;
    repo = contentRepoOf(dataDir);
    photo = await makePng(60, 40);
    try {
      expect((await uploadMedia(server, [{ filename: 'photo.png', bytes: photo }, { filename: 'doc.pdf', bytes: PDF_BYTES }], { token })).status).to.equal(201);
      expect((await server.request('PATCH', '/api/v1/workspaces/default/media/photo.png/meta', { token, body: { alt: 'A blue field' } })).status).to.equal(200);
    } finally {
      await server.close({ keepData: true });
    }
    // An older record: the uploaded one without its sha256 line.
    const older = (await fileAt(repo, 'default/media/photo.png.yaml')).replace(/^sha256: .*\n/m, '');
    drawn = await makePng(30, 30);
    await writeFile(path.join(dataDir, 'media', 'default', 'drawn.png'), drawn);
    await writeFile(path.join(dataDir, 'media', 'default', 'resized.png'), await makePng(20, 20));
    await externalCommit(
      repo,
      {
        write: {
          'default/media/photo.png.yaml': older,
          'default/media/drawn.png.yaml': 'mime: image/png\nwidth: 30\nheight: 30\n',
          'default/media/gone.png.yaml': 'mime: image/png\n',
          'default/media/resized.png.yaml': 'mime: image/png\nsize: 5\n',
        },
      },
      'Add media by hand',
    );
  });

  after(() => rm(dataDir, { recursive: true, force: true }));

  it('--dry-run prints the hashes it would record, reports the files it cannot hash, and commits nothing', async () => {
    const head = await headOid(repo);
    const run = await runCms(['media', 'hash', '--dry-run', '--data', dataDir]);
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stdout).to.include(`default/photo.png: ${sha256(photo)}\n`).and.include(`default/drawn.png: ${sha256(drawn)}\n`).and.include('nothing committed');
    expect(run.stdout).not.to.include('doc.pdf');
    expect(run.stderr).to.include('default/gone.png: The file is missing on disk.').and.include('default/resized.png: The file on disk has');
    expect(await headOid(repo)).to.equal(head);
  });

  it('records the missing hashes in one commit by the system, keeping the rest of each record', async () => {
    const before = await commitCount(repo);
    const run = await runCms(['media', 'hash', '--data', dataDir]);
    expect(run.code, 'files it could not hash make exit code 1').to.equal(1);
    expect(run.stdout).to.match(/Recorded the SHA-256 of 2 file\(s\) in default: commit [0-9a-f]{12}\./);
    expect(await commitCount(repo)).to.equal(before + 1);
    const commit = await commitInfo(repo);
    expect(commit.subject).to.equal('Record the SHA-256 of 2 media files');
    expect(commit.trailers).to.include({ Workspace: 'default', Actor: 'system' });
    expect(commit.trailers.Media).to.include('photo.png').and.include('drawn.png');
    const record = await fileAt(repo, 'default/media/photo.png.yaml');
    expect(record).to.include(`sha256: ${sha256(photo)}\n`).and.include('alt: A blue field\n');
    expect(await fileAt(repo, 'default/media/drawn.png.yaml')).to.include(`sha256: ${sha256(drawn)}\n`);
    expect(await fileAt(repo, 'default/media/gone.png.yaml')).not.to.include('sha256');
    expect(await fileAt(repo, 'default/media/resized.png.yaml')).not.to.include('sha256');
    expect(await statusPorcelain(repo)).to.equal('');
  });

  it('has nothing to do once every record has its hash, and the server serves the recorded one', async () => {
    await externalCommit(repo, { remove: ['default/media/gone.png.yaml', 'default/media/resized.png.yaml'] }, 'Remove broken media records');
    const head = await headOid(repo);
    const run = await runCms(['media', 'hash', '--data', dataDir]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.equal('Every media record has its SHA-256; nothing to do.\n');
    expect(await headOid(repo)).to.equal(head);
    const server = await startTestServer({ dataDir });
    try {
      const response = await fetch(`${server.baseUrl}/media/default/drawn.png`);
      expect(response.headers.get('etag')).to.equal(`"${sha256(drawn)}"`);
    } finally {
      await server.close({ keepData: true });
    }
  });

  it('refuses to run beside a running server, in one line that says why and what to do, and on a replica, changing nothing', async () => {
    const head = await headOid(repo);
    let server: ServerProcess | undefined;
    try {
      server = await spawnServer(dataDir, {});
      const beside = await runCms(['media', 'hash', '--data', dataDir]);
      expect(beside.code).to.equal(1);
      expect(beside.stderr).to.include('is in use by process').and.include('cms media hash commits to the content repository').and.include('stop the server, run it');
      expect(beside.stderr.trimEnd().split('\n'), 'one line, no stack').to.have.lengthOf(1);
    } finally {
      await server?.kill('SIGTERM');
    }
    const replica = await runCms(['media', 'hash', '--data', dataDir], { env: { CMS_ROLE: 'replica', CMS_PRIMARY_URL: 'http://127.0.0.1:9' } });
    expect(replica.code).to.equal(1);
    expect(replica.stderr).to.include('A replica never commits');
    expect(await headOid(repo)).to.equal(head);
  });
});
