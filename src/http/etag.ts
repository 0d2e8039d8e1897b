// Conditional requests: ETag on single entries (the entry version) and on
// lists (a hash of the body), 304 for a matching If-None-Match.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/** Sends `body` as JSON with the given (or a computed) ETag, or 304 when the client already has it. */
export function sendWithEtag(ctx: Context, body: unknown, version?: string): void {
  const json = JSON.stringify(body);
  const tag = version ?? createHash('sha1').update(json).digest('base64url').slice(0, 27);
  ctx.set('ETag', `"${tag}"`);
  ctx.status = 200;
  if (ctx.method === 'GET' || ctx.method === 'HEAD') {
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
  }
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}

/** The If-Match header, when sent. */
export function ifMatchOf(ctx: Context): string | undefined {
  const header = ctx.get('If-Match');
  return header === '' ? undefined : header;
}
