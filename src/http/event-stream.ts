// Server-sent events (text/event-stream) over a Koa request: named events
// with JSON data, comment heartbeats, and one end() however the stream stops
// (the client leaves, the session ends, the server shuts down). The stream
// writes to the Node response itself (ctx.respond = false): a client going
// away is the normal end of a stream, not an error for Koa to report.
import type { Context } from 'koa';

/** An open event stream. */
export interface EventStream {
  /** Sends one event: `event: {name}` and its JSON `data`. */
  send(name: string, data: unknown): void;
  /** Sends a comment line, which clients ignore; keeps proxies from closing an idle connection. */
  heartbeat(): void;
  /** Ends the response; resolves once it is closed. Safe to call more than once. */
  end(): Promise<void>;
}

/**
 * Starts the event-stream response and returns it. `onEnd` runs once when
 * the stream ends for any reason. `retryMs` tells browsers how long to wait
 * before reconnecting after a dropped connection.
 */
export function openEventStream(ctx: Context, options: { retryMs: number; onEnd: () => void }): EventStream {
  const res = ctx.res;
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      options.onEnd();
      res.end();
    }
    return closed;
  };
  const write = (text: string) => {
    if (!ended) res.write(text);
  };
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  res.once('close', () => void end());
  ctx.respond = false;
  ctx.status = 200;
  ctx.type = 'text/event-stream; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache, no-transform');
  // Tells nginx-style proxies not to buffer the stream.
  ctx.set('X-Accel-Buffering', 'no');
  res.writeHead(200);
  write(`retry: ${options.retryMs}\n\n`);
  return {
    send: (name, data) => write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`),
    heartbeat: () => write(': heartbeat\n\n'),
    end,
  };
}
