// A replica checks its copy of a media file against the record's sha256
// before it serves it (docs/media.md "Validators"). It does so on the file it
// then serves: one open of the copy per request, whether its hash is already
// known (a later request) or is computed first (the first request after a
// restart), so the bytes served are the bytes checked, and reads it once: a
// copy hashed first is served from the bytes it read. A primary serving a
// record without sha256 hashes the file it serves the same way. Opens and
// bytes read are counted at node:fs/promises itself, under a real primary
// and replica.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import { writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { contentRepoOf, externalCommit } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makePng, uploadMedia } from './media-fixtures.ts';

const URL = '/media/default/photo.png';

/**
 * Records every file opened while installed (each module's `open` from
 * node:fs/promises goes through it) and the bytes read through the handles
 * it opened (read streams of a FileHandle read with its `read`).
 */
function countOpens(): { of(file: string): number; bytesOf(file: string): number; uninstall(): void } {
  const original = fsp.open;
  const opened: string[] = [];
  const handles = new Map<object, string>();
  const bytes = new Map<string, number>();
  type Reader = (...args: unknown[]) => Promise<{ bytesRead: number }>;
  // FileHandle's prototype and its own read, once the first handle shows it.
  const patched: { handleType?: { read: Reader }; read?: Reader } = {};
  fsp.open = (async (file: Parameters<typeof original>[0], ...rest: unknown[]) => {
    opened.push(String(file));
    const handle = await (original as (...args: unknown[]) => ReturnType<typeof original>)(file, ...rest);
    handles.set(handle, String(file));
    if (!patched.handleType) {
      const handleType = Object.getPrototypeOf(handle) as { read: Reader };
      const read = handleType.read;
      Object.assign(patched, { handleType, read });
      handleType.read = async function (this: object, ...args: unknown[]) {
        const result = await read.apply(this, args);
        const name = handles.get(this);
        if (name !== undefined) bytes.set(name, (bytes.get(name) ?? 0) + result.bytesRead);
        return result;
      };
    }
    return handle;
  }) as typeof original;
  syncBuiltinESMExports();
  return {
    of: (file) => opened.filter((name) => name === file).length,
    bytesOf: (file) => bytes.get(file) ?? 0,
    uninstall: () => {
      fsp.open = original;
      if (patched.handleType && patched.read) patched.handleType.read = patched.read;
      syncBuiltinESMExports();
    },
  };
}

describe('media originals opened once per request', function () {
  this.timeout(60_000);
  let primary: TestServer;
  let replica: TestServer;
  let png: Buffer;
  const replicaEnv: Record<string, string> = { CMS_ROLE: 'replica', CMS_WATCH_INTERVAL_MS: '100' };

  before(async () => {
    let admin: AdminSession;
    let token: string;
    ({ server: primary, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    const replicaToken = await issueToken(primary, admin, [{ effect: 'allow', actions: ['git.pull', 'replication.read'], resources: ['*'] }], 'replicas');
    Object.assign(replicaEnv, { CMS_PRIMARY_URL: primary.baseUrl, CMS_GIT_UPSTREAM_TOKEN: replicaToken });
    png = await makePng(300, 200);
    expect((await uploadMedia(primary, [{ filename: 'photo.png', bytes: png }], { token })).status).to.equal(201);
    replica = await startTestServer({ env: replicaEnv });
    // The first request fetches the copy from the primary.
    await pollUntil(() => fetch(`${replica.baseUrl}${URL}`), (response) => response.status === 200);
  });

  after(async () => {
    await replica?.close();
    await primary?.close();
  });

  /** Requests a file `requests` times; for each request, how often the copy was opened and how many times its bytes were read (bytes read / its size). */
  async function opensPerRequest(requests: number, server = replica, url = URL, bytes = png): Promise<{ opens: number[]; reads: number[] }> {
    const copy = path.join(server.dataDir, 'media', 'default', path.basename(url));
    const counts = { opens: [] as number[], reads: [] as number[] };
    for (let i = 0; i < requests; i += 1) {
      const opens = countOpens();
      try {
        const response = await fetch(`${server.baseUrl}${url}`);
        expect(response.status).to.equal(200);
        expect(response.headers.get('etag')).to.equal(`"${createHash('sha256').update(bytes).digest('hex')}"`);
        expect(Buffer.from(await response.arrayBuffer())).to.deep.equal(bytes);
        counts.opens.push(opens.of(copy));
        counts.reads.push(opens.bytesOf(copy) / bytes.length);
      } finally {
        opens.uninstall();
      }
    }
    return counts;
  }

  it('opens its copy once per request once the copy\'s hash is known', async () => {
    expect(await opensPerRequest(3)).to.deep.equal({ opens: [1, 1, 1], reads: [1, 1, 1] });
  });

  it('opens and reads its copy once per request when it must hash it first (after a restart), and serves what it hashed', async () => {
    const dataDir = replica.dataDir;
    await replica.close({ keepData: true });
    replica = await startTestServer({ dataDir, env: replicaEnv });
    expect(await opensPerRequest(2)).to.deep.equal({ opens: [1, 1], reads: [1, 1] });
  });

  it('opens and reads a file once per request on a primary whose record has no sha256, hashing the file it serves', async () => {
    const bytes = await makePng(40, 20);
    await writeFile(path.join(primary.dataDir, 'media', 'default', 'by-hand.png'), bytes);
    await externalCommit(contentRepoOf(primary.dataDir), { write: { 'default/media/by-hand.png.yaml': `mime: image/png\nsize: ${bytes.length}\nwidth: 40\nheight: 20\n` } }, 'Add media by hand');
    // Waits on the list, so the first request for the file is the first to hash it.
    await pollUntil(() => primary.request('GET', '/api/v1/workspaces/default/media?q=by-hand'), (response) => response.body.data.length === 1);
    expect(await opensPerRequest(2, primary, '/media/default/by-hand.png', bytes)).to.deep.equal({ opens: [1, 1], reads: [1, 1] });
  });
});
