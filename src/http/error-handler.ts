// The one place where errors become responses: every AppError is rendered as
// the JSON envelope with the status its code maps to; anything else becomes a
// generic internal_error and is logged with its stack and request id. A
// streamed body is held until its first chunk, so one that fails at once is
// answered here as well; what fails once a streamed answer has started reaches
// Koa's 'error' event instead, and is judged here too (createStreamErrorListener).
import { Readable } from 'node:stream';
import type { Context, Next } from 'koa';
import { AppError, isAppError } from '../errors/app-error.ts';
import type { ErrorCode } from '../errors/error-codes.ts';
import { errnoCode } from '../lib/errno.ts';
import { untilFirstChunk } from '../lib/first-chunk.ts';
import type { Logger } from '../lib/logger.ts';
import type { AppState } from './state.ts';

/** HTTP status per error code; the compiler checks that every code has one. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_request: 400,
  workspace_required: 400,
  unauthorized: 401,
  unauthenticated: 401,
  invalid_credentials: 401,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  already_set_up: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  file_type_not_allowed: 422,
  rate_limited: 429,
  internal_error: 500,
  not_set_up: 503,
  git_unavailable: 503,
  primary_unavailable: 503,
};

/**
 * Koa middleware (outermost) that renders every thrown error as the envelope.
 * A streamed body is held until its first chunk, so that one failing before
 * any byte is sent is rendered too (500 internal_error, logged once).
 */
export function createErrorHandler(logger: Logger) {
  return async function errorHandler(ctx: Context & { state: AppState }, next: Next): Promise<void> {
    try {
      await next();
      throwForEmptyStatus(ctx);
      if (ctx.body instanceof Readable) await untilFirstChunk(ctx.body);
    } catch (raw) {
      const error = toAppError(raw);
      if (error.code === 'internal_error') {
        logger.error('request failed', { requestId: ctx.state.requestId, error: raw });
      }
      if (ctx.body instanceof Readable) removeBodyHeaders(ctx);
      renderError(ctx, error);
    }
  };
}

// Why a streamed body is held here until it has a chunk (or ended), with
// lib/first-chunk.ts: Koa pipes it into the response with stream.pipeline,
// which on the body's error destroys the response, and only then calls
// ctx.onerror; a body that fails before its first byte (a file that cannot
// be read) left the client a reset connection with no status at all, so
// overriding ctx.onerror could not answer either. Waiting here costs no
// latency: nothing could be sent before the first chunk anyway. Once the
// first chunk is there, a later failure can only cut the answer off. (A
// replica's forwarder waits the same way first, so that a primary dropping
// its answer is 503 primary_unavailable rather than 500 here.)

// The headers a route set to describe the body that failed; the envelope
// replaces the body (its Content-Type and Content-Length are set for it, and
// renderError drops the ETag), so they would describe nothing or mislead a
// client or cache (a download's file name, a range, a gzip encoding).
const BODY_HEADERS = ['Content-Disposition', 'Content-Encoding', 'Content-Range', 'Accept-Ranges', 'Last-Modified', 'Cache-Control'];

function removeBodyHeaders(ctx: Context): void {
  for (const name of BODY_HEADERS) ctx.remove(name);
}

// The codes Node gives when the other end of a connection closed or reset it.
const CONNECTION_GONE_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Koa's 'error' listener (app.on('error')): errors after the answer started,
 * from a streamed body (media files, backups, git clones) or the connection.
 * A client that went away mid-body is the normal end of a download and is not
 * logged (docs/operations.md "Logs"); anything else is logged once per
 * request as an error, and Koa ends the response.
 */
export function createStreamErrorListener(logger: Logger) {
  const reported = new WeakSet<Context>();
  return function onStreamError(raw: unknown, ctx?: Context & { state: AppState }): void {
    if (ctx !== undefined && (isClientGone(raw, ctx) || reported.has(ctx))) return;
    if (ctx !== undefined) reported.add(ctx);
    logger.error('a response failed while it was sent', { requestId: ctx?.state.requestId, method: ctx?.method, path: ctx?.path, error: raw });
  };
}

// A body that failed on its own (a read error, a primary that dropped the
// connection) destroys the connection with its own error; when the client
// left, the connection failed or closed first, with an error of its own or none.
function isClientGone(raw: unknown, ctx: Context): boolean {
  if (!CONNECTION_GONE_CODES.has(errnoCode(raw) ?? '')) return false;
  const body: unknown = ctx.body;
  return !(body instanceof Readable && body.errored !== null && body.errored === ctx.req.socket.errored);
}

// The router reports unknown paths and wrong methods by status alone (it must
// set the Allow header itself); turn those into envelope errors here.
function throwForEmptyStatus(ctx: Context): void {
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 404) throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
  if (ctx.status === 405 || ctx.status === 501) {
    throw new AppError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}.`, { details: { allow: ctx.response.get('Allow') } });
  }
}

function renderError(ctx: Context, error: AppError): void {
  ctx.status = STATUS_BY_CODE[error.code];
  const retryAfter = error.details?.retryAfter;
  if (typeof retryAfter === 'number') ctx.set('Retry-After', String(Math.ceil(retryAfter)));
  const allow = error.details?.allow;
  if (typeof allow === 'string') ctx.set('Allow', allow);
  // The challenge that makes git (and browsers) ask for credentials (git over HTTP).
  const challenge = error.details?.challenge;
  if (typeof challenge === 'string') ctx.set('WWW-Authenticate', challenge);
  ctx.remove('ETag');
  ctx.body = { error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } };
}

/** Translates foreign errors (by type or status, never by message text) into AppErrors. */
export function toAppError(raw: unknown): AppError {
  if (isAppError(raw)) return raw;
  const status = statusOf(raw);
  if (status === 400) return new AppError('invalid_request', 'The request is malformed.', { cause: raw });
  if (status === 413) return new AppError('payload_too_large', 'The request body is too large.', { cause: raw });
  if (status === 415) return new AppError('unsupported_media_type', 'The request content type is not supported.', { cause: raw });
  if (status === 405) return new AppError('method_not_allowed', 'This method is not allowed on this path.', { cause: raw });
  return new AppError('internal_error', 'An unexpected error occurred.', { cause: raw });
}

function statusOf(raw: unknown): number | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const candidate = (raw as { status?: unknown; statusCode?: unknown }).status ?? (raw as { statusCode?: unknown }).statusCode;
  return typeof candidate === 'number' ? candidate : undefined;
}
