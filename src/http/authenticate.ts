// Who is calling: an API token (any path; as a bearer token, or as the
// password of HTTP Basic, which is what git sends), else the admin session
// user (on /admin and /media paths), else anonymous. Everything it needs is in memory,
// so an authenticated request costs about what an anonymous one does.
import { timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { TokenService } from '../domain/auth/token-service.ts';
import type { UserService } from '../domain/auth/user-service.ts';
import { ANONYMOUS, type Principal } from '../domain/auth/principal.ts';
import { AppError } from '../errors/app-error.ts';
import { sessionUserId } from './session.ts';
import type { AppState } from './state.ts';

/** What authenticate() looks principals up in. */
export interface AuthenticateDeps {
  tokens: Pick<TokenService, 'authenticate' | 'principalOfVerified'>;
  users: Pick<UserService, 'principalFor'>;
}

const BEARER = /^Bearer (\S+)$/;
const BASIC = /^Basic ([A-Za-z0-9+/]+={0,2})$/;

/** The challenge that makes git ask for a user name and password (API.md "Git over HTTP"). */
export const BASIC_CHALLENGE = 'Basic realm="cms"';

/**
 * Middleware that sets ctx.state.principal. Runs after the session
 * middleware. Throws unauthorized (401) when an Authorization header is sent
 * but does not carry a valid token: malformed, extra characters, unknown,
 * revoked or expired (SPEC: an invalid token gives 401 on any request). A
 * failed Basic header is answered with the Basic challenge, so git asks again.
 */
export function createAuthenticate(deps: AuthenticateDeps) {
  return function authenticate(ctx: Context & { state: AppState }, next: Next): Promise<void> {
    ctx.state.principal = principalOf(ctx, deps);
    return next();
  };
}

// The Authorization header a connection last proved a token with. Its next
// requests with the same header skip the parsing and the SHA-256 of the
// secret (~3.5 µs of a ~45 µs cached read), but the token is looked up every
// time, so revoking it or its expiry takes effect at once. The header is
// compared in constant time: behind a proxy, one connection carries many
// clients' requests.
const provenOnConnection = new WeakMap<object, { header: Buffer; id: string }>();

/**
 * The token principal an Authorization header (Bearer, or Basic with the
 * token as password) names on `connection` (the request's socket); undefined
 * when it names none.
 */
export function tokenPrincipal(header: string, tokens: AuthenticateDeps['tokens'], connection: object): Principal | undefined {
  const presented = Buffer.from(header);
  const proven = provenOnConnection.get(connection);
  if (proven !== undefined && proven.header.length === presented.length && timingSafeEqual(proven.header, presented)) {
    return tokens.principalOfVerified(proven.id);
  }
  const basic = BASIC.exec(header)?.[1];
  const plain = basic === undefined ? BEARER.exec(header)?.[1] : basicPassword(basic);
  const principal = plain === undefined ? undefined : tokens.authenticate(plain);
  if (principal?.kind === 'token') provenOnConnection.set(connection, { header: presented, id: principal.id });
  return principal;
}

function principalOf(ctx: Context, deps: AuthenticateDeps): Principal {
  const header = ctx.get('Authorization');
  if (header !== '') {
    const principal = tokenPrincipal(header, deps.tokens, ctx.req.socket);
    if (principal) return principal;
    throw new AppError('unauthorized', 'The API token is malformed, unknown, revoked or expired.', BASIC.test(header) ? { details: { challenge: BASIC_CHALLENGE } } : {});
  }
  const userId = sessionUserId(ctx);
  return (userId !== undefined && deps.users.principalFor(userId)) || ANONYMOUS;
}

// `user:password` in base64; the user name is free, the password is the token.
function basicPassword(encoded: string): string | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}
