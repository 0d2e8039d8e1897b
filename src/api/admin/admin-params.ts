// Small readers shared by the editorial admin routes (trash, revisions,
// activity): the admin workspace the guard selected, and `limit`/`offset`
// query values checked the way the content lists check them.
import { AppError } from '../../errors/app-error.ts';
import type { ApiContext } from '../context.ts';

/** Query values as Koa parses them. */
export type QueryValues = Record<string, string | string[] | undefined>;

/** The workspace of an admin request (X-Service-Workspace or the default), set by the admin guard. Throws internal_error when the guard did not run. */
export function adminWorkspaceOf(ctx: ApiContext): string {
  const workspace = ctx.state.workspace;
  if (workspace === undefined) throw new AppError('internal_error', 'The admin guard did not select a workspace.');
  return workspace;
}

/** `limit` (1 or more, undefined when absent) and `offset` (0 or more). Throws invalid_request for other values or repeated keys. */
export function pagingOf(query: QueryValues): { limit?: number; offset: number } {
  const limit = integerParam(query, 'limit', 1);
  return { ...(limit === undefined ? {} : { limit }), offset: integerParam(query, 'offset', 0) ?? 0 };
}

/** A single optional string query value. Throws invalid_request when it is repeated. */
export function stringParam(query: QueryValues, key: string): string | undefined {
  const value = query[key];
  if (Array.isArray(value)) throw new AppError('invalid_request', `The query parameter "${key}" may be given once.`);
  return value === '' ? undefined : value;
}

function integerParam(query: QueryValues, key: string, min: number): number | undefined {
  const value = stringParam(query, key);
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < min) throw new AppError('invalid_request', `The query parameter "${key}" must be a whole number of at least ${min}.`);
  return Number(value);
}
