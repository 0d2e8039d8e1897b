// Server-sent events (text/event-stream) over a Koa response: named events
// with JSON data, comment heartbeats, and one end() however the stream stops
// (the client leaves, the session ends, the server shuts down).
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

/** An open event stream. */
export interface EventStream {
  /** Sends one event: `event: {name}` and its JSON `data`. */
  send(name: string, data: unknown): void;
  /** Sends a comment line, which clients ignore; keeps proxies from closing an idle connection. */
  heartbeat(): void;
  /** Ends the response; resolves once it is sent. Safe to call more than once. */
  end(): Promise<void>;
}

/**
 * Turns the response into an event stream and returns it. `onEnd` runs once
 * when the stream ends for any reason. `retryMs` tells browsers how long to
 * wait before reconnecting after a dropped connection.
 */
export function openEventStream(ctx: Context, options: { retryMs: number; onEnd: () => void }): EventStream {
  const body = new PassThrough();
  const sent = new Promise<void>((resolve) => {
    ctx.res.once('finish', resolve);
    ctx.res.once('close', resolve);
  });
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      options.onEnd();
      body.end();
    }
    return sent;
  };
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.req.once('close', () => void end());
  ctx.status = 200;
  ctx.type = 'text/event-stream; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache, no-transform');
  // Tells nginx-style proxies not to buffer the stream.
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = body;
  body.write(`retry: ${options.retryMs}\n\n`);
  return {
    send: (name, data) => {
      if (!ended) body.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    heartbeat: () => {
      if (!ended) body.write(': heartbeat\n\n');
    },
    end,
  };
}
