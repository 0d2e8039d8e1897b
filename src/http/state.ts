// The typed per-request state every middleware and router shares.
import type { Principal } from '../domain/auth/principal.ts';

/** What an admin session stores: the user and the CSRF token of the session. */
export interface SessionData {
  userId?: string;
  csrfToken?: string;
}

/** ctx.state of every request. */
export interface AppState {
  requestId: string;
  /** Who is acting; anonymous until authenticate() finds a token or session. */
  principal: Principal;
  /** The base URL (no trailing slash) used for absolute links in responses. */
  baseUrl: string;
  /** The admin API's workspace (X-Service-Workspace or the configured default); public routes use the path. */
  workspace?: string;
}
