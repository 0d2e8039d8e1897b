// Serialized answers of repeated reads (the entry routes): a hot read costs a
// map lookup instead of a query, a JSON serialization and a hash. An answer
// is kept until the content in memory changes or a scheduled entry of its
// workspace goes public, whichever comes first; it is keyed by who asks
// (their grants, not only their id, so a changed role misses), the base URL
// (media links are absolute) and the request URL.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { Grant, Principal } from '../domain/auth/principal.ts';
import { ANONYMOUS } from '../domain/auth/principal.ts';
import { tokenPrincipal, type AuthenticateDeps } from './authenticate.ts';
import { conditionMatches, sendJson, serializeWithEtag } from './etag.ts';
import { headerOf } from './header-of.ts';
import { requestIdOf } from './request-id.ts';
import type { AppState } from './state.ts';

/** What tells the cache that its answers are stale (built in services.ts). */
export interface ReadFreshness {
  /** Moves whenever the content in memory changes. */
  changeCount(): number;
  /** Epoch ms when reads of `workspace` next change without a write (a scheduled entry going public). */
  nextPublishAfter(workspace: string, now: number): number;
}

/** A route's answer before serialization: the body and, for one entry, its version as the ETag. */
export interface ReadAnswer {
  body: unknown;
  version?: string;
}

/** Bounds of one cache. */
export interface ResponseCacheLimits {
  maxAnswers: number;
  maxBytes: number;
}

interface CachedAnswer {
  key: string;
  /** The cache's clock when the answer was kept or last sent: the lowest goes first. */
  usedAt: number;
  /** UTF-8 bytes, so a hit is not encoded again. */
  json: Buffer;
  tag: string;
  changeCount: number;
  /** Epoch ms from which the answer may be out of date. */
  staleAt: number;
}

const DEFAULT_LIMITS: ResponseCacheLimits = { maxAnswers: 2000, maxBytes: 32 * 1024 * 1024 };

/** A bounded cache of serialized read answers, least recently used out first. */
export class ResponseCache {
  private readonly answers = new Map<string, CachedAnswer>();
  private bytes = 0;
  private clock = 0;

  constructor(
    private readonly freshness: ReadFreshness,
    private readonly limits: ResponseCacheLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Answers a GET from the cache when it holds a fresh answer for this
   * reader, workspace and URL; otherwise runs `read`, sends its answer and
   * keeps it. What `read` throws passes through and nothing is kept.
   */
  send(ctx: Context & { state: AppState }, workspace: string, read: () => ReadAnswer): void {
    const key = keyOf(ctx.state.principal, workspace, ctx.state.baseUrl, ctx.url);
    const cached = this.find(key);
    if (cached !== undefined) {
      sendJson(ctx, cached.json, cached.tag);
      return;
    }
    const now = this.now();
    const changeCount = this.freshness.changeCount();
    const { body, version } = read();
    const { json, tag } = serializeWithEtag(body, version);
    const bytes = Buffer.from(json);
    this.keep({ key, usedAt: 0, json: bytes, tag, changeCount, staleAt: this.freshness.nextPublishAfter(workspace, now) });
    sendJson(ctx, bytes, tag);
  }

  /** The fresh answer kept for `reader`, `workspace` and the URL, or undefined. */
  answerFor(reader: Principal, workspace: string, baseUrl: string, url: string): { json: Buffer; tag: string } | undefined {
    return this.find(keyOf(reader, workspace, baseUrl, url));
  }

  private find(key: string): CachedAnswer | undefined {
    const cached = this.answers.get(key);
    if (cached === undefined) return undefined;
    if (cached.changeCount !== this.freshness.changeCount() || this.now() >= cached.staleAt) {
      this.drop(cached);
      return undefined;
    }
    // A stamp rather than a delete and set that moves it to the end of the
    // map: V8 rebuilds a map's table every few such moves and places those
    // tables in the old generation, where they were ~135 bytes of garbage per
    // cached read (17 MB in 12 s of one hot URL), most of the heap growth
    // under read load.
    cached.usedAt = ++this.clock;
    return cached;
  }

  private keep(answer: CachedAnswer): void {
    // One answer may take an eighth of the cache at most, so a few huge lists cannot flush it.
    if (answer.json.length > this.limits.maxBytes / 8) return;
    answer.usedAt = ++this.clock;
    this.answers.set(answer.key, answer);
    this.bytes += answer.json.length;
    while (this.answers.size > this.limits.maxAnswers || this.bytes > this.limits.maxBytes) this.drop(this.leastRecentlyUsed());
  }

  // A scan, on misses only (a query and a serialization cost far more than 2,000 comparisons).
  private leastRecentlyUsed(): CachedAnswer {
    let oldest: CachedAnswer | undefined;
    for (const answer of this.answers.values()) if (oldest === undefined || answer.usedAt < oldest.usedAt) oldest = answer;
    return oldest!;
  }

  private drop(answer: CachedAnswer): void {
    this.answers.delete(answer.key);
    this.bytes -= answer.json.length;
  }
}

const WORKSPACE_ROUTES = '/api/v1/workspaces/';

/** Answers a request from the cache and returns true, or sends nothing and returns false. */
export type CachedReadAnswerer = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Answers a hot read of the public API straight from the cache, ahead of
 * Koa: its context, middleware chain and response handling were about a
 * fifth of a cached read's time. The reader is anonymous without an
 * Authorization header (sessions count on /admin and /media paths only) or
 * the token it names; a header that names no token goes the usual way, to
 * its 401. An answer is kept only after its route validated the same URL for
 * the same reader (id and grants), so a hit is what the route would answer,
 * with the same headers.
 */
export function createCachedReadAnswerer(cache: ResponseCache, tokens: AuthenticateDeps['tokens'], baseUrlOf: (request: IncomingMessage) => string): CachedReadAnswerer {
  return (request, response) => {
    const url = request.url ?? '';
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !url.startsWith(WORKSPACE_ROUTES)) return false;
    const queryAt = url.indexOf('?');
    // A read at `?ref=` sets its own caching headers (entries.routes.ts), so it goes the usual way.
    if (queryAt !== -1 && new URLSearchParams(url.slice(queryAt + 1)).has('ref')) return false;
    const header = headerOf(request, 'authorization');
    const reader = header === '' ? ANONYMOUS : tokenPrincipal(header, tokens, request.socket);
    if (reader === undefined) return false;
    const workspace = url.slice(WORKSPACE_ROUTES.length, queryAt === -1 ? undefined : queryAt).split('/', 1)[0];
    const answer = cache.answerFor(reader, workspace, baseUrlOf(request), url);
    if (answer === undefined) return false;
    writeAnswer(request, response, answer);
    return true;
  };
}

// The headers and status sendJson() gives through Koa: 304 without a body
// for a matching If-None-Match, no body for HEAD.
function writeAnswer(request: IncomingMessage, response: ServerResponse, { json, tag }: { json: Buffer; tag: string }): void {
  response.setHeader('X-Request-Id', requestIdOf(headerOf(request, 'x-request-id')));
  response.setHeader('ETag', `"${tag}"`);
  if (conditionMatches(headerOf(request, 'if-none-match'), `"${tag}"`)) {
    response.statusCode = 304;
    response.end();
    return;
  }
  response.statusCode = 200;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', json.length);
  response.end(request.method === 'HEAD' ? undefined : json);
}

function keyOf(reader: Principal, workspace: string, baseUrl: string, url: string): string {
  return `${readerKey(reader)}\n${workspace}\n${baseUrl}\n${url}`;
}

// Two readers with the same id and the same grants see the same answers; the
// grants are part of the key (a few hundred bytes), so a changed role misses.
// A token's grants are the same array on every request, so they are
// serialized once, not on every hit.
const grantKeys = new WeakMap<readonly Grant[], string>();

function readerKey(principal: Principal): string {
  if (principal.kind === 'anonymous') return 'anonymous';
  let grants = grantKeys.get(principal.grants);
  if (grants === undefined) {
    grants = JSON.stringify(principal.grants);
    grantKeys.set(principal.grants, grants);
  }
  return `${principal.kind}:${principal.id}:${grants}`;
}
