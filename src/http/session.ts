// Admin sessions over koa-session: a signed `cms_session` cookie holding only
// a random key, the data in the server-side SessionStore. Only /admin and
// /media paths use sessions, so public API requests pay nothing for them.
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { once } from '../lib/once.ts';
import type { SessionStore } from '../domain/auth/session-store.ts';
import type { SessionData } from './state.ts';

/** The session cookie name (API.md "Admin session"). */
export const SESSION_COOKIE = 'cms_session';

/** koa-session's session object as this project uses it. */
export interface AdminSession extends SessionData {
  readonly isNew: boolean;
  regenerate(): Promise<void>;
}

declare module 'koa' {
  interface ExtendableContext {
    /** Set by koa-session on session paths; null once the session is destroyed. */
    session: AdminSession | null;
  }
}

/** Whether a path may carry the admin session (admin API and UI, media files for previews). */
export function usesSession(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/') || path.startsWith('/media/') || path.startsWith('/media-thumbs/');
}

/**
 * Session middleware for `app`; sets app.keys to the signing keys. Cookie:
 * HttpOnly, SameSite=Lax, Secure when the request is HTTPS, no Max-Age
 * (idle expiry is enforced by the store). A cookie with a bad signature or an
 * unknown key starts an empty session.
 */
export function createSessionMiddleware(app: Koa, store: SessionStore, keys: string[]) {
  app.keys = keys;
  // koa-session (with zod and crc, some fifty modules) is loaded by the first
  // request on a session path, not by every start. It adds ctx.session to
  // app.context then, which contexts made earlier see through their prototype;
  // only session paths read it, and they come through here first.
  const middleware = once(async () => (await import('koa-session')).default(
    {
      key: SESSION_COOKIE,
      maxAge: 'session',
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      rolling: false,
      genid: () => randomBytes(32).toString('base64url'),
      store: {
        get: async (key: string) => store.get(key),
        set: async (key: string, data: Record<string, unknown>) => store.set(key, data),
        destroy: async (key: string) => store.destroy(key),
      },
    },
    app,
  ));
  return async function session(ctx: Context, next: Next): Promise<void> {
    if (!usesSession(ctx.path)) return next();
    await (await middleware())(ctx, next);
  };
}

/** The signed-in user's id from the session, if any. */
export function sessionUserId(ctx: Context): string | undefined {
  if (!usesSession(ctx.path)) return undefined;
  const userId = ctx.session?.userId;
  return typeof userId === 'string' ? userId : undefined;
}

/** The key the signed session cookie carries (the session store's key), if the cookie is there and its signature holds. */
export function sessionKeyOf(ctx: Context): string | undefined {
  return ctx.cookies.get(SESSION_COOKIE, { signed: true }) || undefined;
}

/**
 * Starts a signed-in session for `userId` holding `csrfToken`. A session
 * that existed before gets a new key, so a key planted before login is never
 * promoted. Throws a plain Error when used outside session paths (a bug).
 */
export async function startSession(ctx: Context, userId: string, csrfToken: string): Promise<void> {
  const session = ctx.session;
  if (!session) throw new Error('The session middleware did not run for this path.');
  if (!session.isNew) await session.regenerate();
  session.userId = userId;
  session.csrfToken = csrfToken;
}

/** Destroys the session (logout): the store entry is deleted and the cookie cleared. */
export function endSession(ctx: Context): void {
  ctx.session = null;
}
