// CSRF protection for the admin API: each session holds a random token,
// handed to the client in `meta.csrf_token`; every admin write must echo it
// in `X-CSRF-Token`. SameSite=Lax cookies are the first line; this is the second.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { AppError } from '../errors/app-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A new random CSRF token (256 bits, base64url). */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The current session's CSRF token, for `meta.csrf_token`. */
export function csrfTokenOf(ctx: Context): string | undefined {
  const token = ctx.session?.csrfToken;
  return typeof token === 'string' ? token : undefined;
}

/**
 * Checks `X-CSRF-Token` against the session's token on unsafe methods, in
 * constant time. Throws csrf_failed (403) when it is missing or wrong.
 */
export function assertCsrf(ctx: Context): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  const expected = csrfTokenOf(ctx);
  const sent = ctx.get('X-CSRF-Token');
  if (expected === undefined || sent === '' || !equalInConstantTime(sent, expected)) {
    throw new AppError('csrf_failed', 'This admin request needs the X-CSRF-Token header from the session (meta.csrf_token).');
  }
}

function equalInConstantTime(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
