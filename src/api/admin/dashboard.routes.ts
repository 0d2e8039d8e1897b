// The dashboard summary (SPEC admin table: GET /dashboard) for the selected
// workspace, limited to what the signed-in user may read.
import Router from '@koa/router';
import type { DashboardService } from '../../domain/dashboard/dashboard-service.ts';
import type { AppState } from '../../http/state.ts';
import { adminWorkspaceOf } from './admin-params.ts';

/** Route /dashboard, relative to the admin root. */
export function createDashboardRouter(dashboard: DashboardService): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/dashboard', async (ctx) => {
    ctx.body = { data: await dashboard.summary(ctx.state.principal, adminWorkspaceOf(ctx)) };
  });
  return router;
}
