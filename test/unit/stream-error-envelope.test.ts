// The error handler and the stream error listener together on a real Koa app
// (port 0): a streamed body that fails before its first byte is answered
// with the JSON envelope (500 internal_error, the request id, no path, the
// headers that described the body gone) and logged once; one that fails
// after its first chunk is cut off and logged once; bodies that do not fail
// arrive whole. The bodies are made here so each failure is exact; the
// missing file is a real one, opened lazily as fs.createReadStream does.
import { expect } from 'chai';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { createErrorHandler, createStreamErrorListener } from '../../src/http/error-handler.ts';
import { requestId } from '../../src/http/request-id.ts';
import type { AppState } from '../../src/http/state.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { listenLocally, type ListeningServer } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import { rawRequest, readAnswer } from '../helpers/raw-http.ts';

const CHUNK = Buffer.alloc(64 * 1024, 7);
const SECRET_PATH = '/srv/cms/media/default/secret.png';

// A body that fails at its first read, or pushes `chunks` chunks and then fails (or ends, with `end`).
// The failure waits a turn, as a disk's would, so that chunks already written reach the client.
function bodyStream(chunks: number, end = false): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent === chunks) {
        if (end) this.push(null);
        else setImmediate(() => this.destroy(Object.assign(new Error(`EIO: i/o error, read '${SECRET_PATH}'`), { code: 'EIO' })));
        return;
      }
      sent += 1;
      setImmediate(() => this.push(CHUNK));
    },
  });
}

describe('a streamed body that fails (error handler and stream error listener)', () => {
  let server: ListeningServer;
  let baseUrl: string;
  let folder: string;
  let lines: { level: string; message: string; requestId?: string; error?: { message: string } }[];

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'stream-error-envelope-'));
    const logger = createLogger('info', (line) => lines.push(JSON.parse(line)));
    const app = new Koa<AppState>();
    app.on('error', createStreamErrorListener(logger));
    app.use(requestId);
    app.use(createErrorHandler(logger));
    app.use((ctx) => {
      // What a download route sets before handing its body to Koa.
      ctx.type = 'image/png';
      ctx.set('Content-Disposition', 'attachment; filename="secret.png"');
      ctx.set('Cache-Control', 'public, no-cache');
      ctx.set('Last-Modified', new Date(0).toUTCString());
      if (ctx.path === '/fails-at-once') ctx.body = bodyStream(0);
      else if (ctx.path === '/file-gone') ctx.body = createReadStream(path.join(folder, 'removed-after-lookup.png'));
      else if (ctx.path === '/fails-after-first-chunk') ctx.body = bodyStream(2);
      else if (ctx.path === '/empty') ctx.body = bodyStream(0, true);
      else ctx.body = bodyStream(8, true);
    });
    server = await listenLocally(app.callback());
    baseUrl = server.url;
  });
  after(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });
  beforeEach(() => {
    lines = [];
  });

  for (const [route, what] of [
    ['/fails-at-once', 'a body that fails at its first read'],
    ['/file-gone', 'a file read stream whose file is missing when it opens'],
  ] as const) {
    it(`answers ${what} with the 500 internal_error envelope and logs it once`, async () => {
      const answer = await rawRequest(baseUrl, 'GET', route, { headers: { 'X-Request-Id': 'stream-req-1' } });
      expect(answer.status).to.equal(500);
      expect(answer.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(answer.body).to.deep.equal({ error: { code: 'internal_error', message: 'An unexpected error occurred.' } });
      expect(answer.headers.get('x-request-id')).to.equal('stream-req-1');
      expect(answer.text).not.to.contain(folder).and.not.to.contain(SECRET_PATH).and.not.to.contain('    at ');
      for (const name of ['content-disposition', 'cache-control', 'last-modified']) expect(answer.headers.has(name), name).to.equal(false);
      // A listener report would come in a later turn; a second request lets it land before counting.
      expect((await readAnswer(`${baseUrl}/whole`)).ending).to.equal('complete');
      expect(lines.map((line) => [line.level, line.message, line.requestId])).to.deep.equal([['error', 'request failed', 'stream-req-1']]);
    });
  }

  it('cuts off an answer whose body fails after its first chunk, with the status already sent, and logs it once', async () => {
    const answer = await readAnswer(`${baseUrl}/fails-after-first-chunk`);
    expect(answer.status).to.equal(200);
    expect(answer.ending).to.equal('cut off');
    const logged = await pollUntil(async () => lines, (found) => found.length > 0);
    expect((await readAnswer(`${baseUrl}/whole`)).ending).to.equal('complete');
    expect(logged.map((line) => [line.level, line.message, line.error?.message])).to.deep.equal([['error', 'a response failed while it was sent', `EIO: i/o error, read '${SECRET_PATH}'`]]);
  });

  it('sends bodies that do not fail whole, an empty one included, and logs nothing', async () => {
    expect(await readAnswer(`${baseUrl}/whole`)).to.deep.equal({ status: 200, ending: 'complete', bytes: 8 * CHUNK.length });
    expect(await readAnswer(`${baseUrl}/empty`)).to.deep.equal({ status: 200, ending: 'complete', bytes: 0 });
    expect(lines).to.deep.equal([]);
  });
});
