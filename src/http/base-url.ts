// The base URL of each request, for the absolute links responses carry
// (media URLs, avatars): configured, or derived from the request itself.
import type { Context, Next } from 'koa';
import type { Config } from '../config/config.ts';
import type { AppState } from './state.ts';

const FORWARDED_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$/;

/**
 * Sets ctx.state.baseUrl: CMS_BASE_URL when configured, else the request's
 * own origin; X-Forwarded-Proto/Host count only with CMS_TRUST_PROXY=1.
 */
export function createBaseUrl(config: Config) {
  return function baseUrl(ctx: Context & { state: AppState }, next: Next): Promise<void> {
    ctx.state.baseUrl = config.baseUrl ?? deriveBaseUrl(ctx, config.trustProxy);
    return next();
  };
}

function deriveBaseUrl(ctx: Context, trustProxy: boolean): string {
  let protocol = ctx.protocol;
  let host = ctx.get('Host');
  if (trustProxy) {
    const forwardedProto = ctx.get('X-Forwarded-Proto').split(',')[0].trim();
    const forwardedHost = ctx.get('X-Forwarded-Host').split(',')[0].trim();
    if (forwardedProto === 'http' || forwardedProto === 'https') protocol = forwardedProto;
    if (FORWARDED_HOST.test(forwardedHost)) host = forwardedHost;
  }
  if (!FORWARDED_HOST.test(host)) host = 'localhost';
  return `${protocol}://${host}`;
}
