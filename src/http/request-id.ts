// Request ids: set before the error handler runs, so every log line and
// error response of a request can name the same id.
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { AppState } from './state.ts';

const CLIENT_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Gives every request an id (the client's X-Request-Id when well-formed) and echoes it. */
export function requestId(ctx: Context & { state: AppState }, next: Next): Promise<void> {
  ctx.state.requestId = requestIdOf(ctx.get('X-Request-Id'));
  ctx.set('X-Request-Id', ctx.state.requestId);
  return next();
}

/** The id of a request whose X-Request-Id header is `sent` ('' when none): that one when well-formed, else a new one. */
export function requestIdOf(sent: string): string {
  return CLIENT_ID.test(sent) ? sent : randomUUID();
}
