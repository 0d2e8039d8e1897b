// Content type routes, shared by the public API and the admin API (which
// mount them with their own options). The rules of schema changes are
// domain/types/; this folder only translates HTTP to TypeService calls.
import Router from '@koa/router';
import { FIELD_TYPES } from '../../domain/model/content-type.ts';
import type { TypeService } from '../../domain/types/type-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { sendWithEtag } from '../../http/etag.ts';
import { validateQuery, withRefParam } from '../../http/query-params.ts';
import type { RefReads } from '../../domain/history/ref-reads.ts';
import { nameParam, type ApiContext } from '../context.ts';
import { setRefCaching, viewAt } from '../ref-reads.ts';

/** How the public and the admin API differ when they mount these routes. */
export interface ContentTypesRouterOptions {
  /** The admin list carries the available field types in meta.field_types (SPEC "Field definition"). */
  fieldTypesInMeta: boolean;
  /** Answers reads at `?ref=` (the public API); without it the parameter is not read. */
  refs?: RefReads;
}

/** The content-type routes of SPEC "Content types", relative to a workspace root (public) or the admin root. */
export function createContentTypesRouter(types: TypeService, body: JsonBodyParser, options: ContentTypesRouterOptions): Router<AppState> {
  const router = new Router<AppState>();
  // Public routes carry the workspace in the path; admin routes in ctx.state (X-Service-Workspace).
  const workspace = (ctx: ApiContext) => ctx.state.workspace ?? nameParam(ctx, 'ws');

  const { refs } = options;
  // Only the public API reads `ref`; the admin list stays as it was (no query parser, no ETag).
  const readQuery = validateQuery(withRefParam(() => ({})));
  const read = (path: string, answer: (ctx: ApiContext, source: Pick<TypeService, 'list' | 'get'>) => unknown): void => {
    if (!refs) {
      router.get(path, (ctx) => {
        ctx.body = answer(ctx, types);
      });
      return;
    }
    router.get(path, readQuery, async (ctx) => {
      const view = await viewAt(ctx, refs, workspace(ctx));
      sendWithEtag(ctx, answer(ctx, view?.types ?? types));
      if (view) setRefCaching(ctx, view, workspace(ctx));
    });
  };

  read('/content-types', (ctx, source) => {
    const data = source.list(ctx.state.principal, workspace(ctx));
    return options.fieldTypesInMeta ? { data, meta: { field_types: [...FIELD_TYPES] } } : { data };
  });
  read('/content-types/:type', (ctx, source) => ({ data: source.get(ctx.state.principal, workspace(ctx), nameParam(ctx, 'type')) }));
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
