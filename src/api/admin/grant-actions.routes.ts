// The catalogue of grant actions by area, so the admin app's grants editor
// offers exactly what the server accepts (docs/permissions.md "Known actions").
import Router from '@koa/router';
import { GRANT_AREAS, KNOWN_ACTIONS } from '../../domain/auth/grant-validation.ts';
import type { AppState } from '../../http/state.ts';

const CATALOGUE = GRANT_AREAS.map((area) => ({ area, actions: KNOWN_ACTIONS.filter((action) => action.startsWith(`${area}.`)) }));

/** GET /grant-actions, relative to the admin root; any signed-in user (nothing in it is secret). */
export function createGrantActionsRouter(): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/grant-actions', (ctx) => {
    ctx.body = { data: CATALOGUE };
  });
  return router;
}
