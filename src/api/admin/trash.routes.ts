// The trash (SPEC admin table: /trash/{collection}…): list soft-deleted
// entries with deleted_at and deleted_by, restore one under its slug, purge
// one, or empty a collection's trash. Rules and grants live in TrashService.
import Router from '@koa/router';
import type { TrashService } from '../../domain/trash/trash-service.ts';
import { localeParam, pagingParams, validateQuery, type Paging, type QueryValues } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';
import { nameParam } from '../context.ts';
import { adminWorkspaceOf } from './admin-params.ts';

/** Routes /trash/{type} and /trash/{type}/{id}[/restore], relative to the admin root. */
export function createTrashRouter(trash: TrashService): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/trash/:type', validateQuery(parseTrashListQuery), async (ctx) => {
    const { query } = ctx.state;
    const { items, total } = await trash.list(ctx.state.principal, adminWorkspaceOf(ctx), nameParam(ctx, 'type'), query);
    ctx.body = { data: items, meta: { total, limit: query.limit ?? total, offset: query.offset } };
  });

  router.post('/trash/:type/:id/restore', async (ctx) => {
    const { entry, version } = await trash.restore(ctx.state.principal, adminWorkspaceOf(ctx), nameParam(ctx, 'type'), nameParam(ctx, 'id'));
    ctx.set('ETag', `"${version}"`);
    ctx.body = { data: entry };
  });

  router.delete('/trash/:type/:id', async (ctx) => {
    await trash.purge(ctx.state.principal, adminWorkspaceOf(ctx), nameParam(ctx, 'type'), nameParam(ctx, 'id'));
    ctx.body = { data: { ok: true } };
  });

  router.delete('/trash/:type', async (ctx) => {
    const purged = await trash.empty(ctx.state.principal, adminWorkspaceOf(ctx), nameParam(ctx, 'type'));
    ctx.body = { data: { ok: true, purged } };
  });
  return router;
}

// `limit`, `offset` and the `locale` titles are shown in.
function parseTrashListQuery(query: QueryValues): Paging & { locale?: string } {
  return { ...pagingParams(query), locale: localeParam(query) };
}
