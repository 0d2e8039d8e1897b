// Conditional requests: ETag on single entries (the entry version) and on
// lists (a hash of the body), 304 for a matching If-None-Match.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/** Sends `body` as JSON with the given (or a computed) ETag, or 304 when the client already has it. */
export function sendWithEtag(ctx: Context, body: unknown, version?: string): void {
  const { json, tag } = serializeWithEtag(body, version);
  sendJson(ctx, json, tag);
}

/** `body` as JSON and its entity tag: `version` when given, else a hash of the JSON. */
export function serializeWithEtag(body: unknown, version?: string): { json: string; tag: string } {
  const json = JSON.stringify(body);
  return { json, tag: version ?? createHash('sha1').update(json).digest('base64url').slice(0, 27) };
}

/** Sends serialized JSON with its (unquoted) entity tag, or 304 when the client already has it. */
export function sendJson(ctx: Context, json: string | Buffer, tag: string): void {
  ctx.set('ETag', `"${tag}"`);
  ctx.status = 200;
  // Koa's ctx.fresh follows the cache rules and refuses any request carrying
  // Cache-Control: no-cache (which fetch() adds to every conditional request);
  // an origin server may still answer such a request with 304 (RFC 9110 13.1.2).
  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && conditionMatches(ctx.get('If-None-Match'), `"${tag}"`)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}

/**
 * Whether an If-Match or If-None-Match header names the entity tag `tag`
 * (quoted, weak or strong; weak comparison: `W/` is ignored on both sides)
 * or is `*`; false when the header is empty.
 */
export function conditionMatches(header: string, tag: string): boolean {
  const value = header.trim();
  if (value === '') return false;
  if (value === '*') return true;
  const opaque = withoutWeakPrefix(tag);
  return value.split(',').some((candidate) => withoutWeakPrefix(candidate.trim()) === opaque);
}

function withoutWeakPrefix(tag: string): string {
  return tag.replace(/^W\//, '');
}

/**
 * The request's If-Match as a test of a version, for services that compare it
 * inside their write queue; undefined when the header was not sent.
 */
export function ifMatchOf(ctx: Context): ((version: string) => boolean) | undefined {
  const header = ctx.get('If-Match');
  return header === '' ? undefined : (version) => conditionMatches(header, `"${version}"`);
}
