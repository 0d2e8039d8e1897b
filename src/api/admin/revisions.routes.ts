// Revisions of an entry from git (API.md "Revisions (git)"): the list, one
// revision with the entry as it was and a field-by-field diff, and restore.
import Router from '@koa/router';
import type { RevisionService } from '../../domain/history/revision-service.ts';
import { localeParam, pagingParams, validateQuery } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';
import { nameParam, type ApiContext } from '../context.ts';
import { adminWorkspaceOf } from './admin-params.ts';

/** Routes /content/{type}/{id}/revisions[/{revId}[/restore]], relative to the admin root. */
export function createRevisionsRouter(revisions: RevisionService): Router<AppState> {
  const router = new Router<AppState>();
  const target = (ctx: ApiContext) => [ctx.state.principal, adminWorkspaceOf(ctx), nameParam(ctx, 'type'), nameParam(ctx, 'id')] as const;

  router.get('/content/:type/:id/revisions', validateQuery(pagingParams), async (ctx) => {
    const paging = ctx.state.query;
    const { revisions: data, total } = await revisions.list(...target(ctx), paging);
    ctx.body = { data, meta: { total, limit: paging.limit ?? total, offset: paging.offset } };
  });

  router.get('/content/:type/:id/revisions/:rev', validateQuery(localeParam), async (ctx) => {
    const locale = ctx.state.query;
    const { revision, entry, changes } = await revisions.get(...target(ctx), nameParam(ctx, 'rev'), locale);
    ctx.body = { data: { ...revision, entry, changes } };
  });

  router.post('/content/:type/:id/revisions/:rev/restore', async (ctx) => {
    const { entry, version } = await revisions.restore(...target(ctx), nameParam(ctx, 'rev'));
    ctx.set('ETag', `"${version}"`);
    ctx.body = { data: entry };
  });
  return router;
}
