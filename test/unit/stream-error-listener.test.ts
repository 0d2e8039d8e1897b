// createStreamErrorListener on a real Koa app (port 0): a streamed body that
// fails on its own is logged once as an error and its answer is cut off; a
// client that leaves mid-body is not logged. The bodies are made here so each
// failure is exact (a read error, a dropped upstream connection).
import { expect } from 'chai';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { createStreamErrorListener } from '../../src/http/error-handler.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { listenLocally, type ListeningServer } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';
import { abortAfterFirstChunk, readAnswer } from '../helpers/raw-http.ts';

const CHUNK = Buffer.alloc(64 * 1024, 1);

// Sends chunks until `failWith` (after the third chunk) or for as long as it is read.
function bodyStream(failWith?: NodeJS.ErrnoException): Readable {
  let sent = 0;
  return new Readable({
    read() {
      sent += 1;
      if (failWith && sent === 3) this.destroy(failWith);
      else setImmediate(() => this.push(CHUNK));
    },
  });
}

function errnoError(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe('createStreamErrorListener', () => {
  let server: ListeningServer;
  let baseUrl: string;
  let lines: { level: string; message: string; path?: string; error?: { message: string } }[];
  let lastBody: Readable | undefined;

  before(async () => {
    const app = new Koa();
    app.on('error', createStreamErrorListener(createLogger('info', (line) => lines.push(JSON.parse(line)))));
    app.use((ctx) => {
      ctx.state.requestId = 'req-1';
      if (ctx.path === '/read-error') lastBody = bodyStream(errnoError('The disk could not be read.', 'EIO'));
      else if (ctx.path === '/upstream-dropped') lastBody = bodyStream(errnoError('aborted', 'ECONNRESET'));
      else lastBody = bodyStream();
      ctx.body = lastBody;
    });
    server = await listenLocally(app.callback());
    baseUrl = server.url;
  });
  after(async () => {
    await server.close();
  });
  beforeEach(() => {
    lines = [];
    lastBody = undefined;
  });

  it('logs a body that fails to read once, as an error, and cuts the answer off', async () => {
    expect((await readAnswer(`${baseUrl}/read-error`)).ending).to.equal('cut off');
    const logged = await pollUntil(async () => lines, (found) => found.length > 0);
    expect(logged.map((line) => [line.level, line.message, line.path, line.error?.message])).to.deep.equal([['error', 'a response failed while it was sent', '/read-error', 'The disk could not be read.']]);
  });

  it('logs a body whose own connection was reset (an upstream that dropped), though the code is the one of a client leaving', async () => {
    expect((await readAnswer(`${baseUrl}/upstream-dropped`)).ending).to.equal('cut off');
    const logged = await pollUntil(async () => lines, (found) => found.length > 0);
    expect(logged.map((line) => [line.level, line.path])).to.deep.equal([['error', '/upstream-dropped']]);
  });

  it('logs nothing when the client leaves mid-body', async () => {
    expect(await abortAfterFirstChunk(`${baseUrl}/endless`)).to.equal(200);
    expect(await pollUntil(async () => lastBody?.destroyed, (destroyed) => destroyed === true)).to.equal(true);
    // The stream was destroyed by Koa's pipeline, which reports its error in the same turn; one more request lets any late report land.
    expect(await abortAfterFirstChunk(`${baseUrl}/endless`)).to.equal(200);
    expect(await pollUntil(async () => lastBody?.destroyed, (destroyed) => destroyed === true)).to.equal(true);
    expect(lines).to.deep.equal([]);
  });
});
