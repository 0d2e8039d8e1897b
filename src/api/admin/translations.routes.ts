// Deleting one locale variant of an entry (SPEC state table: DELETE
// /content/{collection}/{id}/translations/{locale}); the default locale
// cannot be deleted this way.
import Router from '@koa/router';
import type { EntryService } from '../../domain/entries/entry-service.ts';
import type { AppState } from '../../http/state.ts';
import { nameParam } from '../context.ts';
import { adminWorkspaceOf } from './admin-params.ts';

/** Route /content/{type}/{id}/translations/{locale}, relative to the admin root. */
export function createTranslationsRouter(entries: EntryService): Router<AppState> {
  const router = new Router<AppState>();
  router.delete('/content/:type/:id/translations/:locale', async (ctx) => {
    await entries.removeTranslation(ctx.state.principal, adminWorkspaceOf(ctx), nameParam(ctx, 'type'), nameParam(ctx, 'id'), nameParam(ctx, 'locale'));
    ctx.body = { data: { ok: true } };
  });
  return router;
}
