// JSON request bodies: only application/json is accepted, size-limited, and
// the result must be a JSON object. Used per route, only where a body is read.
import type { Context, Next } from 'koa';
import { AppError } from '../errors/app-error.ts';
import { once } from '../lib/once.ts';
import { toAppError } from './error-handler.ts';

/** The middleware jsonBody() makes; routers receive it ready-made rather than the config. */
export type JsonBodyParser = (ctx: Context, next: Next) => Promise<void>;

/** Middleware that parses a JSON object body into ctx.request.body ({} when there is no body). */
export function jsonBody(limitBytes: number): JsonBodyParser {
  // koa-body (with formidable and zod) is loaded by the first request with a body, not by every start (~0.15 s of CPU).
  const parser = once(async () => {
    const { HttpMethodEnum, koaBody } = await import('koa-body');
    return koaBody({
      json: true,
      jsonStrict: true,
      jsonLimit: limitBytes,
      urlencoded: false,
      text: false,
      multipart: false,
      // DELETE too: bulk deletes send their ids in the body (SPEC "DELETE /content/{collection}/bulk").
      parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
      onError: (error) => {
        throw toAppError(error);
      },
    });
  });
  return async function parseJsonBody(ctx: Context, next: Next): Promise<void> {
    if (ctx.request.length === 0 || !hasBody(ctx)) {
      ctx.request.body = {};
      return next();
    }
    if (!ctx.is('application/json', 'application/*+json')) {
      throw new AppError('unsupported_media_type', 'The request body must be JSON (Content-Type: application/json).');
    }
    await (await parser())(ctx, async () => undefined);
    const body: unknown = ctx.request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AppError('invalid_request', 'The request body must be a JSON object.');
    }
    await next();
  };
}

function hasBody(ctx: Context): boolean {
  return ctx.request.length !== undefined || ctx.get('Transfer-Encoding') !== '';
}

/** The parsed JSON object body of the request (after jsonBody ran). */
export function bodyOf(ctx: Context): Record<string, unknown> {
  const body: unknown = ctx.request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  return body as Record<string, unknown>;
}
