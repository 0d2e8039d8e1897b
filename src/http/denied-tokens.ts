// Notices refused token use for the activity log: a request that sent an
// Authorization header and was answered 401 (token malformed, unknown,
// revoked, expired) or whose token lacked a grant (403). It sits inside the
// error handler and rethrows every error untouched.
import type { Context, Next } from 'koa';
import type { DeniedTokenUse } from '../domain/activity/activity-feeds.ts';
import { isAppError } from '../errors/app-error.ts';
import type { AppState } from './state.ts';

// The id part of a plain token (`cms_{tokenId}_{secret}`), when it has that shape.
const TOKEN_ID = /^Bearer cms_([0-9A-Za-z]{1,64})_/;

/** Middleware that calls `record` for every refused token request; mount it between the error handler and authenticate(). */
export function createDeniedTokenRecorder(record: (denied: DeniedTokenUse) => void) {
  return async function recordDeniedTokens(ctx: Context & { state: AppState }, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      const principal = ctx.state.principal;
      const header = ctx.get('Authorization');
      const refused = isAppError(error) && (error.code === 'unauthorized' || error.code === 'forbidden');
      if (refused && (principal.kind === 'token' || header !== '')) {
        const tokenId = principal.kind === 'token' ? principal.id : (TOKEN_ID.exec(header)?.[1] ?? null);
        record({ tokenId, method: ctx.method, path: ctx.path, code: error.code, workspace: ctx.state.workspace ?? workspaceInPath(ctx.path) });
      }
      throw error;
    }
  };
}

function workspaceInPath(path: string): string | undefined {
  return /^\/api\/v1\/workspaces\/([a-z0-9-]{1,64})(\/|$)/.exec(path)?.[1];
}
