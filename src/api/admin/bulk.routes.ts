// Bulk edits of a collection (SPEC admin table: PATCH and DELETE
// /content/{collection}/bulk): one commit per call, all or nothing. Mounted
// before the entry routes so that "bulk" is never read as an entry id.
import Router from '@koa/router';
import type { EntryService } from '../../domain/entries/entry-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { nameParam } from '../context.ts';
import { adminWorkspaceOf } from './admin-params.ts';
import { bulkDeleteSchema, bulkUpdateSchema } from './bulk.schemas.ts';

/** Routes /content/{type}/bulk, relative to the admin root. */
export function createBulkRouter(entries: EntryService, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parseUpdate = compileBody(bulkUpdateSchema);
  const parseDelete = compileBody(bulkDeleteSchema);

  router.patch('/content/:type/bulk', body, async (ctx) => {
    const input = parseUpdate(bodyOf(ctx));
    const data = await entries.bulkUpdate(ctx.state.principal, adminWorkspaceOf(ctx), nameParam(ctx, 'type'), input.ids, input.changes);
    ctx.body = { data, meta: { total: data.length } };
  });

  router.delete('/content/:type/bulk', body, async (ctx) => {
    const input = parseDelete(bodyOf(ctx));
    const ids = await entries.bulkRemove(ctx.state.principal, adminWorkspaceOf(ctx), nameParam(ctx, 'type'), input.ids);
    ctx.body = { data: { ok: true, ids } };
  });
  return router;
}
