// The public API's route table (SPEC "Endpoints"): everything under
// /api/v1/workspaces/{ws}, plus the unscoped health route, the OpenAPI
// documents that describe this table, and the workspace_required answer for
// unscoped content, type and media paths.
import Router from '@koa/router';
import type { Config } from '../config/config.ts';
import { AppError } from '../errors/app-error.ts';
import { jsonBody } from '../http/json-body.ts';
import { ResponseCache } from '../http/response-cache.ts';
import type { AppState } from '../http/state.ts';
import type { ContentIndex } from '../domain/content/content-index.ts';
import type { ContentWriter } from '../domain/content/content-writer.ts';
import type { ChangesFeed } from '../domain/changes/changes-feed.ts';
import type { ProblemRegister } from '../domain/content/problem-register.ts';
import type { EntryService } from '../domain/entries/entry-service.ts';
import type { RefReads } from '../domain/history/ref-reads.ts';
import type { HealthService } from '../domain/health.ts';
import type { MediaService } from '../domain/media/media-service.ts';
import type { TypeService } from '../domain/types/type-service.ts';
import type { WorkspaceService } from '../domain/workspaces/workspace-service.ts';
import { createChangesRouter } from './changes/changes.routes.ts';
import { createContentTypesRouter } from './content-types/content-types.routes.ts';
import { createEntriesRouter } from './entries/entries.routes.ts';
import { createHealthRouter } from './health/health.routes.ts';
import { createMediaRouter } from './media/media.routes.ts';
import { addOpenApiRoutes } from './openapi/openapi.routes.ts';
import { createProblemsRouter } from './problems/problems.routes.ts';

const UNSCOPED = /^\/api\/v1\/(content|content-types|media)(\/|$)/;

/** Middleware answering workspace_required for unscoped content, content-type and media paths. */
export async function rejectUnscopedRoutes(ctx: { path: string }, next: () => Promise<unknown>): Promise<void> {
  if (UNSCOPED.test(ctx.path)) {
    throw new AppError('workspace_required', 'Public content, content-type and media routes need a workspace, as in /api/v1/workspaces/{workspace}/content/{type}.');
  }
  await next();
}

/** The services the public API calls. */
export interface PublicApiServices {
  health: HealthService;
  workspaces: WorkspaceService;
  content: ContentIndex;
  writer: Pick<ContentWriter, 'changeCount'>;
  types: TypeService;
  entries: EntryService;
  changes: ChangesFeed;
  media: MediaService;
  problems: Pick<ProblemRegister, 'read'>;
  /** The content at `?ref=` on the type and entry reads. */
  refs: RefReads;
}

/** The cache of serialized public entry answers: stale on any change in memory, or when a scheduled entry of the workspace goes public. */
export function createAnswerCache(services: Pick<PublicApiServices, 'writer' | 'content'>): ResponseCache {
  const { writer, content } = services;
  return new ResponseCache({ changeCount: () => writer.changeCount, nextPublishAfter: (workspace, now) => content.nextPublishAfter(workspace, now) });
}

/**
 * Builds the router for /api/v1; its OpenAPI document also describes the
 * routes of `alsoDocumented` (the media file routes). The entry routes keep
 * their answers in `cache` (app.ts also answers from it ahead of routing).
 */
export function createPublicRouter(services: PublicApiServices, config: Config, alsoDocumented: readonly Router<AppState>[] = [], cache = createAnswerCache(services)): Router<AppState> {
  const api = new Router<AppState>({ prefix: '/api/v1' });
  const health = createHealthRouter(services.health);
  api.use(health.routes());

  const body = jsonBody(config.limits.jsonBodyBytes);
  const scoped = new Router<AppState>({ prefix: '/workspaces/:ws' });
  scoped.param('ws', (ws, _ctx, next) => {
    services.workspaces.get(ws);
    return next();
  });
  for (const router of [
    health,
    createContentTypesRouter(services.types, body, { fieldTypesInMeta: false, refs: services.refs }),
    createEntriesRouter(services.entries, services.content, body, { mediaAsUrls: true, cache, refs: services.refs }),
    createMediaRouter(services.media, { admin: false, body, upload: { maxFileBytes: config.limits.uploadFileBytes, maxFiles: config.limits.uploadFiles } }),
  ]) {
    scoped.use(router.routes());
  }
  api.use(scoped.routes());
  // GET /changes also answers for a workspace removed after `since` (the feed decides: docs/changes-feed.md).
  api.use(new Router<AppState>({ prefix: '/workspaces/:ws' }).use(createChangesRouter(services.changes).routes()).routes());
  // GET /problems also answers for an archived workspace, to whoever may read its problems.
  const problemsScope = new Router<AppState>({ prefix: '/workspaces/:ws' });
  problemsScope.param('ws', (ws, ctx, next) => {
    services.workspaces.getForProblems(ctx.state.principal, ws);
    return next();
  });
  problemsScope.use(createProblemsRouter(services.problems).routes());
  api.use(problemsScope.routes());
  addOpenApiRoutes(api, alsoDocumented, services);
  return api;
}
