// The base URL of each request, for the absolute links responses carry
// (media URLs, avatars): configured, or derived from the request itself.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Context, Next } from 'koa';
import type { Config } from '../config/config.ts';
import { headerOf } from './header-of.ts';
import type { AppState } from './state.ts';

const FORWARDED_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$/;

/**
 * Sets ctx.state.baseUrl: CMS_BASE_URL when configured, else the request's
 * own origin; X-Forwarded-Proto/Host count only with CMS_TRUST_PROXY=1.
 */
export function createBaseUrl(config: Config) {
  return function baseUrl(ctx: Context & { state: AppState }, next: Next): Promise<void> {
    ctx.state.baseUrl = baseUrlOf(ctx.req, config);
    return next();
  };
}

/** The base URL of the answer to `request` (see createBaseUrl); the cached-read path asks before Koa. */
export function baseUrlOf(request: IncomingMessage, config: Pick<Config, 'baseUrl' | 'trustProxy'>): string {
  if (config.baseUrl !== undefined) return config.baseUrl;
  let protocol = (request.socket as TLSSocket).encrypted ? 'https' : 'http';
  let host = headerOf(request, 'host');
  if (config.trustProxy) {
    const forwardedProto = headerOf(request, 'x-forwarded-proto').split(',')[0].trim();
    const forwardedHost = headerOf(request, 'x-forwarded-host').split(',')[0].trim();
    if (forwardedProto === 'http' || forwardedProto === 'https') protocol = forwardedProto;
    if (FORWARDED_HOST.test(forwardedHost)) host = forwardedHost;
  }
  if (!FORWARDED_HOST.test(host)) host = 'localhost';
  return `${protocol}://${host}`;
}
