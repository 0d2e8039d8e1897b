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
  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && matchesIfNoneMatch(ctx.get('If-None-Match'), tag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}

// Koa's ctx.fresh follows the cache rules and refuses any request carrying
// Cache-Control: no-cache (which fetch() adds to every conditional request);
// an origin server may still answer such a request with 304 (RFC 9110 13.1.2).
function matchesIfNoneMatch(header: string, tag: string): boolean {
  if (header === '') return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === `"${tag}"`);
}

/** The If-Match header, when sent. */
export function ifMatchOf(ctx: Context): string | undefined {
  const header = ctx.get('If-Match');
  return header === '' ? undefined : header;
}
