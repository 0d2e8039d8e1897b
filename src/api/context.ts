// Types and small helpers shared by the routers: the Koa context with our
// state, and reading route parameters that the router already matched.
import { AppError } from '../errors/app-error.ts';
import { IDENTIFIER_PATTERN } from '../domain/model/slug.ts';
import type { AppState } from '../http/state.ts';

/** What the helpers here need of a router context. */
export interface ApiContext {
  params: Record<string, string>;
  state: AppState;
}


/**
 * A path parameter that names a workspace, type or entry. Decoded `/`, `..`,
 * NUL and the like never reach a service: they fail the pattern (SPEC path pattern).
 */
export function nameParam(ctx: ApiContext, key: string): string {
  const value = ctx.params[key];
  if (typeof value !== 'string' || !IDENTIFIER_PATTERN.test(value)) throw new AppError('not_found', `No resource named "${String(value).slice(0, 80)}".`);
  return value;
}

/** A validated body with every `null` ("not given", as API.md allows) read as a missing key. */
export type NullsRemoved<T> = { [K in keyof T]: Exclude<T[K], null> };

/**
 * The body without its null-valued keys, ready for a service whose options
 * are optional rather than nullable. Use it on bodies compileBody() checked.
 */
export function withoutNulls<T extends object>(body: T): NullsRemoved<T> {
  const kept: Partial<Record<keyof T, unknown>> = {};
  for (const key of Object.keys(body) as Array<keyof T>) {
    if (body[key] !== null) kept[key] = body[key];
  }
  // Sound: every key kept holds its original value, which is not null.
  return kept as NullsRemoved<T>;
}
