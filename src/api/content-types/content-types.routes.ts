// Content type routes, shared by the public API and the admin API (which
// mount them with their own options). The rules of schema changes are
// domain/types/; this folder only translates HTTP to TypeService calls.
import Router from '@koa/router';
import { FIELD_TYPES } from '../../domain/model/content-type.ts';
import type { TypeService } from '../../domain/types/type-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { nameParam, type ApiContext } from '../context.ts';

/** How the public and the admin API differ when they mount these routes. */
export interface ContentTypesRouterOptions {
  /** The admin list carries the available field types in meta.field_types (SPEC "Field definition"). */
  fieldTypesInMeta: boolean;
}

/** The content-type routes of SPEC "Content types", relative to a workspace root (public) or the admin root. */
export function createContentTypesRouter(types: TypeService, body: JsonBodyParser, options: ContentTypesRouterOptions): Router<AppState> {
  const router = new Router<AppState>();
  // Public routes carry the workspace in the path; admin routes in ctx.state (X-Service-Workspace).
  const workspace = (ctx: ApiContext) => ctx.state.workspace ?? nameParam(ctx, 'ws');

  router.get('/content-types', (ctx) => {
    const data = types.list(ctx.state.principal, workspace(ctx));
    ctx.body = options.fieldTypesInMeta ? { data, meta: { field_types: [...FIELD_TYPES] } } : { data };
  });
  router.get('/content-types/:type', (ctx) => {
    ctx.body = { data: types.get(ctx.state.principal, workspace(ctx), nameParam(ctx, 'type')) };
  });
  router.post('/content-types', body, async (ctx) => {
    ctx.status = 201;
    ctx.body = { data: await types.create(ctx.state.principal, workspace(ctx), bodyOf(ctx)) };
  });
  router.put('/content-types/:type', body, async (ctx) => {
    ctx.body = { data: await types.update(ctx.state.principal, workspace(ctx), nameParam(ctx, 'type'), bodyOf(ctx)) };
  });
  router.delete('/content-types/:type', async (ctx) => {
    await types.remove(ctx.state.principal, workspace(ctx), nameParam(ctx, 'type'));
    ctx.body = { data: { ok: true } };
  });
  return router;
}
