// App version and configuration for the admin UI (SPEC admin table: GET /app):
// name, version, workspaces, limits, features, and the content repo's branch and HEAD.
import Router from '@koa/router';
import type { AppInfoService } from '../../domain/dashboard/app-info.ts';
import type { AppState } from '../../http/state.ts';
import { adminWorkspaceOf } from './admin-params.ts';

/** Route /app, relative to the admin root; any signed-in user may read it. */
export function createAppRouter(app: AppInfoService): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/app', async (ctx) => {
    ctx.body = { data: await app.info(adminWorkspaceOf(ctx)) };
  });
  return router;
}
