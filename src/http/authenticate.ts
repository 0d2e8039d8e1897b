// Who is calling: a bearer token (any path), else the admin session user (on
// /admin and /media paths), else anonymous. Everything it needs is in memory,
// so an authenticated request costs about what an anonymous one does.
import type { Context, Next } from 'koa';
import type { TokenService } from '../domain/auth/token-service.ts';
import type { UserService } from '../domain/auth/user-service.ts';
import { ANONYMOUS, type Principal } from '../domain/auth/principal.ts';
import { AppError } from '../errors/app-error.ts';
import { sessionUserId } from './session.ts';
import type { AppState } from './state.ts';

/** What authenticate() looks principals up in. */
export interface AuthenticateDeps {
  tokens: Pick<TokenService, 'authenticate'>;
  users: Pick<UserService, 'principalFor'>;
}

const BEARER = /^Bearer (\S+)$/;

/**
 * Middleware that sets ctx.state.principal. Runs after the session
 * middleware. Throws unauthorized (401) when an Authorization header is sent
 * but is not a valid bearer token: malformed, extra characters, unknown,
 * revoked or expired (SPEC: an invalid token gives 401 on any request).
 */
export function createAuthenticate(deps: AuthenticateDeps) {
  return async function authenticate(ctx: Context & { state: AppState }, next: Next): Promise<void> {
    ctx.state.principal = principalOf(ctx, deps);
    await next();
  };
}

function principalOf(ctx: Context, deps: AuthenticateDeps): Principal {
  const header = ctx.get('Authorization');
  if (header !== '') {
    const plain = BEARER.exec(header)?.[1];
    const principal = plain === undefined ? undefined : deps.tokens.authenticate(plain);
    if (!principal) throw new AppError('unauthorized', 'The API token is malformed, unknown, revoked or expired.');
    return principal;
  }
  const userId = sessionUserId(ctx);
  return (userId !== undefined && deps.users.principalFor(userId)) || ANONYMOUS;
}
