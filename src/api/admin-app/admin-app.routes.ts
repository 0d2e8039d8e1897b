// The admin web app at /admin (API.md "Admin app"): the built files under
// /admin/assets/ are content-hashed and cached for a year; every other path
// under /admin (the app's client routes) gets index.html, revalidated on
// every load, with a CSP that allows nothing but this origin. /admin/api is
// left to the admin API's router.
import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../../errors/app-error.ts';
import { conditionMatches } from '../../http/etag.ts';
import type { AppState } from '../../http/state.ts';

/** One built file (storage/app-bundle.ts), as these routes send it. */
export interface AppFile {
  contentType: string;
  body: Buffer;
  /** The gzip-compressed body, or undefined when compressing does not make it smaller. */
  gzipped(): Buffer | undefined;
  etag: string;
}

/** The built app: its index.html and its assets by file name. */
export interface AdminAppFiles {
  readonly index: AppFile;
  asset(name: string): AppFile | undefined;
}

/** The app's URL prefix and where its built files live below it. */
export const ADMIN_APP_PREFIX = '/admin';
const ASSETS = `${ADMIN_APP_PREFIX}/assets`;

// No inline script or style, no other origin: the build emits only files
// under /admin/assets, and the app talks only to /admin/api and /media.
// blob: lets a picked file be previewed before it is uploaded.
export const ADMIN_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Routes GET/HEAD /admin, /admin/assets/{name} and /admin/{client route}.
 * `app` gives the files, or undefined when the app was not built. Throws
 * not_found for an unknown asset (or any asset when the app is not built).
 */
export function createAdminAppRouter(app: () => Promise<AdminAppFiles | undefined>): Router<AppState> {
  const router = new Router<AppState>();
  router.get(`${ASSETS}/{*name}`, async (ctx) => {
    const name = ctx.params.name ?? '';
    const file = (await app())?.asset(name);
    if (!file) throw new AppError('not_found', `The admin app has no file "${name.slice(0, 100)}".`);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    sendAppFile(ctx, file);
  });
  router.get([ADMIN_APP_PREFIX, `${ADMIN_APP_PREFIX}/{*route}`], async (ctx, next) => {
    // The admin API's unknown paths stay JSON 404s from the error handler.
    if (/^api(\/|$)/.test(ctx.params.route ?? '')) return next();
    const files = await app();
    if (!files) throw new AppError('not_found', 'The admin app is not built: run `npm run build`.');
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Security-Policy', ADMIN_APP_CSP);
    ctx.set('Referrer-Policy', 'same-origin');
    sendAppFile(ctx, files.index);
  });
  return router;
}

/** Sends a built file with its ETag (304 when it matches) and gzip when the client takes it. */
export function sendAppFile(ctx: Context, file: AppFile): void {
  ctx.set('ETag', file.etag);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Vary', 'Accept-Encoding');
  ctx.type = file.contentType;
  if (conditionMatches(ctx.get('If-None-Match'), file.etag)) {
    ctx.status = 304;
    return;
  }
  const gzipped = ctx.acceptsEncodings('gzip', 'identity') === 'gzip' ? file.gzipped() : undefined;
  if (gzipped) ctx.set('Content-Encoding', 'gzip');
  ctx.body = gzipped ?? file.body;
}
