// A request header as one string, as Koa's ctx.get() gives it, for the code
// that answers before Koa (the cached-read path and what it shares).
import type { IncomingMessage } from 'node:http';

/** The header `name` (lowercase) of `request`; '' when it is missing or repeated. */
export function headerOf(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return typeof value === 'string' ? value : '';
}
