// A router loaded with its first request (http/lazy-mount.ts) on a real Koa
// app (port 0) whose load fails the first time, as a transient error would:
// the requests waiting on that load are answered 500 internal_error through
// the error handler, without the error's text or stack, and the next request
// loads it again instead of getting the same failure until a restart.
import { expect } from 'chai';
import Router from '@koa/router';
import Koa from 'koa';
import { createErrorHandler } from '../../src/http/error-handler.ts';
import { mountOnFirstRequest } from '../../src/http/lazy-mount.ts';
import { requestId } from '../../src/http/request-id.ts';
import type { AppState } from '../../src/http/state.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { once } from '../../src/lib/once.ts';
import { listenLocally, type ListeningServer } from '../helpers/local-http.ts';
import { rawRequest } from '../helpers/raw-http.ts';

const FAILURE = "Cannot find module '/srv/cms/dist/api/admin.js'";

// A promise and the function that settles it, for holding a load until the test lets it go on.
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('a router loaded on first request whose load fails once', () => {
  let server: ListeningServer;
  let loads: number;
  let failing: ReturnType<typeof gate>;
  let waiting: ReturnType<typeof gate>;
  let arrived: number;
  let lines: { level: string; message: string }[];

  before(async () => {
    loads = 0;
    arrived = 0;
    lines = [];
    failing = gate();
    waiting = gate();
    const app = new Koa<AppState>();
    app.use(requestId);
    app.use(createErrorHandler(createLogger('info', (line) => lines.push(JSON.parse(line)))));
    // Counts the requests that reached the lazy mount, so the failure comes only once two wait on it.
    app.use((ctx, next) => {
      if (ctx.path.startsWith('/admin/api') && ++arrived === 2) waiting.open();
      return next();
    });
    app.use(
      mountOnFirstRequest('/admin/api', async () => {
        loads += 1;
        if (loads === 1) {
          await failing.opened;
          throw new Error(FAILURE);
        }
        const router = new Router<AppState>({ prefix: '/admin/api' });
        router.get('/me', (ctx) => {
          ctx.body = { loads };
        });
        return router;
      }),
    );
    app.use((ctx) => {
      ctx.body = { public: true };
    });
    server = await listenLocally(app.callback());
  });
  after(async () => {
    await server.close();
  });

  it('answers the requests waiting on the failed load 500 internal_error, then loads again with the next request', async () => {
    const first = rawRequest(server.url, 'GET', '/admin/api/me');
    const second = rawRequest(server.url, 'GET', '/admin/api/me');
    await waiting.opened;
    failing.open();
    for (const answer of await Promise.all([first, second])) {
      expect(answer.status).to.equal(500);
      expect(answer.body).to.deep.equal({ error: { code: 'internal_error', message: 'An unexpected error occurred.' } });
      expect(answer.text).not.to.contain('/srv/cms').and.not.to.contain('    at ');
    }
    expect(lines.map((line) => [line.level, line.message])).to.deep.equal([
      ['error', 'request failed'],
      ['error', 'request failed'],
    ]);

    const third = await rawRequest(server.url, 'GET', '/admin/api/me');
    expect(third.status).to.equal(200);
    expect(third.body).to.deep.equal({ loads: 2 });
    expect((await rawRequest(server.url, 'GET', '/admin/api/me')).body).to.deep.equal({ loads: 2 });
    expect(loads).to.equal(2);
  });

  it('passes other paths straight on, whatever the load does', async () => {
    expect((await rawRequest(server.url, 'GET', '/api/v1/anything')).body).to.deep.equal({ public: true });
  });
});

describe('once()', () => {
  it('shares one load among its callers, and after a failure, which each waiting caller gets, runs the load again', async () => {
    let runs = 0;
    const load = once(async () => {
      runs += 1;
      if (runs === 1) throw new Error('transient');
      return runs;
    });
    const waiting = [load(), load()];
    for (const result of await Promise.allSettled(waiting)) expect(result).to.deep.include({ status: 'rejected' });
    expect(await load()).to.equal(2);
    expect(await load()).to.equal(2);
    expect(runs).to.equal(2);
  });
});
