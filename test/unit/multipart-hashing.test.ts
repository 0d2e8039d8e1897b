// The multipart reader on a real Koa app (port 0): a reader made with
// `hash: true` (media uploads) gives each file the SHA-256 of the bytes its
// sink received; one without (backup archives, which nothing compares with a
// hash) gives none, so no CPU goes into hashing a large archive for nothing.
import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { createMultipartReader, type MultipartOptions } from '../../src/http/multipart.ts';
import { multipartBody } from '../api/media-fixtures.ts';
import { listenLocally } from '../helpers/local-http.ts';

describe('multipart reader hashing', () => {
  let dir: string;
  const bytes = randomBytes(300_000);

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cms-multipart-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  // Posts one file to a reader with `hash` as given; returns what the reader handed over and what the sink wrote.
  async function receive(hash: boolean): Promise<{ files: Record<string, unknown>[]; written: Buffer }> {
    let sinks = 0;
    const options: MultipartOptions = {
      fileFields: ['file'],
      textFields: [],
      maxFileBytes: 1_000_000,
      maxFiles: 1,
      openSink: () => {
        sinks += 1;
        const id = `${hash ? 'hashed' : 'plain'}-${sinks}`;
        return { id, stream: createWriteStream(path.join(dir, id)) };
      },
      discard: async () => undefined,
      hash,
    };
    const read = createMultipartReader(options);
    const app = new Koa();
    app.use(async (ctx) => {
      ctx.body = (await read(ctx)).files;
    });
    const server = await listenLocally(app.callback());
    try {
      const { body, contentType } = multipartBody([{ field: 'file', filename: 'archive.zip', bytes }]);
      const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(body) });
      expect(response.status).to.equal(200);
      const files = (await response.json()) as Record<string, unknown>[];
      return { files, written: await readFile(path.join(dir, String(files[0].id))) };
    } finally {
      await server.close();
    }
  }

  it('hashes each file as it arrives when asked to', async () => {
    const { files, written } = await receive(true);
    expect(written).to.deep.equal(bytes);
    expect(files).to.deep.equal([{ field: 'file', originalName: 'archive.zip', id: 'hashed-1', sha256: createHash('sha256').update(bytes).digest('hex') }]);
  });

  it('hashes nothing otherwise', async () => {
    const { files, written } = await receive(false);
    expect(written).to.deep.equal(bytes);
    expect(files).to.deep.equal([{ field: 'file', originalName: 'archive.zip', id: 'plain-1' }]);
  });
});
