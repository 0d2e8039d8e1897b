// The one gate in front of every admin API route: 503 not_set_up before the
// first user exists (except setup), 401 unauthenticated without a session
// user (except setup and login), 403 csrf_failed for writes without the
// session's CSRF token. It also selects the admin workspace.
import type { Context, Next } from 'koa';
import { AppError } from '../errors/app-error.ts';
import { assertCsrf } from './csrf.ts';
import type { AppState } from './state.ts';

/** Options of the admin guard. */
export interface AdminGuardOptions {
  /** The admin API root, e.g. `/admin/api`. */
  prefix: string;
  /** Whether any user exists yet. */
  isSetUp: () => boolean;
  /** The configured default workspace, used without X-Service-Workspace. */
  defaultWorkspace: string;
}

const WORKSPACE_HEADER = /^[a-z0-9-]{1,64}$/;

/**
 * Middleware for the admin router. Sets ctx.state.workspace from
 * `X-Service-Workspace` (or the default). Throws not_set_up (503),
 * unauthenticated (401), csrf_failed (403), not_found (404) for a malformed workspace header.
 */
export function createAdminGuard(options: AdminGuardOptions) {
  const setupPath = `${options.prefix}/setup`;
  const loginPath = `${options.prefix}/login`;
  return async function adminGuard(ctx: Context & { state: AppState }, next: Next): Promise<void> {
    const path = ctx.path.length > 1 ? ctx.path.replace(/\/+$/, '') : ctx.path;
    ctx.state.workspace = selectedWorkspace(ctx, options.defaultWorkspace);
    if (path === setupPath) return next();
    if (!options.isSetUp()) throw new AppError('not_set_up', 'The service is not set up yet: POST /admin/api/setup first.');
    if (path === loginPath) return next();
    if (ctx.state.principal.kind !== 'user') throw new AppError('unauthenticated', 'Sign in to the admin interface first.');
    assertCsrf(ctx);
    await next();
  };
}

function selectedWorkspace(ctx: Context, fallback: string): string {
  const sent = ctx.get('X-Service-Workspace');
  if (sent === '') return fallback;
  if (!WORKSPACE_HEADER.test(sent)) throw new AppError('not_found', `No workspace "${sent.slice(0, 80)}".`);
  return sent;
}
