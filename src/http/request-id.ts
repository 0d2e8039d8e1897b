// Request ids: set before the error handler runs, so every log line and
// error response of a request can name the same id.
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { AppState } from './state.ts';

const CLIENT_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Gives every request an id (the client's X-Request-Id when well-formed) and echoes it. */
export function requestId(ctx: Context & { state: AppState }, next: Next): Promise<void> {
  const sent = ctx.get('X-Request-Id');
  ctx.state.requestId = CLIENT_ID.test(sent) ? sent : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  return next();
}
