// Types and small helpers shared by the routers: the Koa context with our
// state, and reading route parameters that the router already matched.
import { AppError } from '../errors/app-error.ts';
import type { AppState } from '../http/state.ts';

/** What the helpers here need of a router context. */
export interface ApiContext {
  params: Record<string, string>;
  state: AppState;
}

const NAME = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * A path parameter that names a workspace, type or entry. Decoded `/`, `..`,
 * NUL and the like never reach a service: they fail the pattern (SPEC path pattern).
 */
export function nameParam(ctx: ApiContext, key: string): string {
  const value = ctx.params[key];
  if (typeof value !== 'string' || !NAME.test(value)) throw new AppError('not_found', `No resource named "${String(value).slice(0, 80)}".`);
  return value;
}
