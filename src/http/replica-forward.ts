// On a replica, writes (public and admin API, uploads, git pushes) and the
// reads of state only the primary keeps (activity, webhooks, backups,
// updates, git status, dashboard) go to the primary: the request is streamed
// there as it came, and the primary's answer is given back once the replica
// holds the write's commit and state (X-CMS-Head, X-CMS-State), so the
// client reads its own write from this node. Without an answer from the
// primary (connection refused or reset, no answer within the timeout, an
// answer dropped before its first body byte): 503 primary_unavailable. An
// answer the primary gave, error envelopes included, is passed on as it is.
// Runs before sessions and tokens are looked at; the primary judges them.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Context, Next } from 'koa';
import { AppError } from '../errors/app-error.ts';
import { untilFirstChunk } from '../lib/first-chunk.ts';
import { HEAD_HEADER, STATE_HEADER } from './replication-headers.ts';

/** What the forwarder needs from the replica. */
export interface ForwardOptions {
  /** The primary's base URL (CMS_PRIMARY_URL). */
  primaryUrl: string;
  /** How long the primary may stay silent, before or during its answer (CMS_PRIMARY_TIMEOUT_MS). */
  timeoutMs: number;
  /** Waits until the replica holds this head and state version; resolves whether it got there. */
  catchUp(target: { head?: string; state?: string }): Promise<boolean>;
  /** Told when a forwarded write was answered before the replica held it. */
  onLagging?(path: string): void;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Reads of what only the primary keeps in its state folder or does itself,
// and its releases: a replica copies tags only at its next fetch (docs/releases.md).
const PRIMARY_READS = /^\/admin\/api\/(activity|webhooks|backups|update|git|dashboard|releases)(\/|$)/;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** Whether a request is the primary's to answer. */
export function isForPrimary(method: string, path: string, service: unknown): boolean {
  if (!SAFE_METHODS.has(method)) return true;
  // A push starts with the receive-pack advertisement, which must be the primary's refs.
  if (path.endsWith('/git/content.git/info/refs') && service === 'git-receive-pack') return true;
  return PRIMARY_READS.test(path);
}

/** Middleware for a replica (mounted after the base URL, before sessions). Throws primary_unavailable (503). */
export function createReplicaForwarder(options: ForwardOptions) {
  return async function forwardToPrimary(ctx: Context, next: Next): Promise<void> {
    if (!isForPrimary(ctx.method, ctx.path, ctx.query.service)) return next();
    const answer = await send(options, ctx);
    // Before a write is waited for or anything is answered: an answer the
    // primary dropped before its first body byte was not given (the error
    // handler would otherwise make it a 500 of this node's own).
    try {
      await untilFirstChunk(answer);
    } catch (error) {
      throw new AppError('primary_unavailable', 'The primary server stopped answering before its answer arrived; a write may have been made there, so read before trying again.', { cause: error });
    }
    if (!SAFE_METHODS.has(ctx.method) && (answer.statusCode ?? 500) < 500) {
      // The primary has answered: the wait for this replica to hold the
      // write is not the primary's silence, which would cut its answer off.
      answer.socket?.setTimeout(0);
      const held = await options.catchUp({ head: single(answer.headers[HEAD_HEADER.toLowerCase()]), state: single(answer.headers[STATE_HEADER.toLowerCase()]) });
      answer.socket?.setTimeout(options.timeoutMs);
      if (!held) options.onLagging?.(ctx.path);
    }
    ctx.status = answer.statusCode ?? 502;
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) ctx.set(name, value);
    }
    ctx.body = answer;
  };
}

// Streams the request to the primary; resolves with its answer (headers read, body not yet).
function send(options: ForwardOptions, ctx: Context): Promise<IncomingMessage> {
  const target = new URL(options.primaryUrl + ctx.originalUrl);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(target, { method: ctx.method, headers: forwardedHeaders(ctx) });
    const fail = (error: unknown) => reject(new AppError('primary_unavailable', 'The primary server cannot be reached; writes are possible again once it answers.', { cause: error }));
    request.setTimeout(options.timeoutMs, () => request.destroy(new Error('The primary did not answer in time.')));
    request.once('error', fail);
    request.once('response', resolve);
    ctx.req.once('aborted', () => request.destroy());
    ctx.req.pipe(request);
  });
}

function forwardedHeaders(ctx: Context): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const chain = ctx.get('X-Forwarded-For');
  const client = ctx.req.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = chain === '' ? client : `${chain}, ${client}`;
  headers['x-forwarded-proto'] = ctx.get('X-Forwarded-Proto') || ctx.protocol;
  headers['x-forwarded-host'] = ctx.get('X-Forwarded-Host') || ctx.host;
  return headers;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
