// {base}/git/content.git: git's smart HTTP protocol (clone, fetch, pull,
// push), authenticated with an API token as the HTTP Basic password. This
// router only speaks HTTP: it asks for credentials the way git understands,
// unpacks gzip request bodies, and streams the git service's answer; who may
// do what and how a push lands is domain/git/git-http-service.ts.
import Router from '@koa/router';
import type { Context } from 'koa';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { GitHttpService, GitService } from '../../domain/git/git-http-service.ts';
import { AppError } from '../../errors/app-error.ts';
import { BASIC_CHALLENGE } from '../../http/authenticate.ts';
import type { AppState } from '../../http/state.ts';

/** Where the content repo is served, under {base}. */
export const GIT_REPO_PATH = '/git/content.git';

const SERVICES: readonly string[] = ['git-upload-pack', 'git-receive-pack'];

/** Builds the router for /git/content.git (info/refs, git-upload-pack, git-receive-pack). */
export function createGitHttpRouter(git: GitHttpService): Router<AppState> {
  const router = new Router<AppState>({ prefix: GIT_REPO_PATH });
  router.get('/info/refs', (ctx) => {
    const service = serviceOf(ctx.query.service);
    requireCredentials(ctx);
    respond(ctx, `application/x-${service}-advertisement`, git.advertise(ctx.state.principal, service, asksForV2(ctx)));
  });
  router.post('/git-upload-pack', (ctx) => {
    requireCredentials(ctx);
    respond(ctx, 'application/x-git-upload-pack-result', git.uploadPack(ctx.state.principal, requestBody(ctx, 'git-upload-pack'), asksForV2(ctx)));
  });
  router.post('/git-receive-pack', (ctx) => {
    requireCredentials(ctx);
    respond(ctx, 'application/x-git-receive-pack-result', git.receivePack(ctx.state.principal, requestBody(ctx, 'git-receive-pack')));
  });
  return router;
}

function serviceOf(value: unknown): GitService {
  if (value === 'git-upload-pack' || value === 'git-receive-pack') return value;
  throw new AppError('invalid_request', `This repository speaks git's smart HTTP protocol only: ask info/refs with service=${SERVICES.join(' or ')}.`);
}

// Without credentials git must be told to ask for them: 401 with the Basic challenge.
function requireCredentials(ctx: Context & { state: AppState }): void {
  if (ctx.state.principal.kind !== 'anonymous') return;
  throw new AppError('unauthorized', 'Git over HTTP needs an API token as the password (any user name).', { details: { challenge: BASIC_CHALLENGE } });
}

// git sends `Git-Protocol: version=2` when it would like protocol v2.
function asksForV2(ctx: Context): boolean {
  return ctx.get('Git-Protocol').split(':').includes('version=2');
}

function requestBody(ctx: Context, service: GitService): Readable {
  if (ctx.request.type !== `application/x-${service}-request`) {
    throw new AppError('unsupported_media_type', `A ${service} request is sent as application/x-${service}-request.`);
  }
  const encoding = ctx.get('Content-Encoding').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return ctx.req.pipe(createGunzip());
  if (encoding !== '' && encoding !== 'identity') throw new AppError('unsupported_media_type', `The content encoding "${encoding.slice(0, 40)}" is not supported.`);
  return ctx.req;
}

function respond(ctx: Context, type: string, output: Readable): void {
  ctx.status = 200;
  ctx.type = type;
  ctx.set('Cache-Control', 'no-cache, max-age=0, must-revalidate');
  ctx.body = output;
}
