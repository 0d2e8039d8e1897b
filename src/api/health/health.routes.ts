// The health route: the one route that needs no grant and no workspace; it
// reports what the domain's HealthService probed at start.
import Router from '@koa/router';
import type { HealthService } from '../../domain/health.ts';
import type { AppState } from '../../http/state.ts';

/** GET /health answers the health report; mounted scoped and unscoped (API.md). */
export function createHealthRouter(health: HealthService): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/health', async (ctx) => {
    ctx.body = { data: await health.check() };
  });
  return router;
}
