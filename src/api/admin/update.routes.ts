// Updates (SPEC admin table: /update…): the status for any signed-in user;
// check, download and install need updates.check|download|install.
import Router from '@koa/router';
import type { UpdateService } from '../../domain/updates/update-service.ts';
import type { AppState } from '../../http/state.ts';
import { presentUpdateStatus } from './update.presenter.ts';

/** Routes /update and /update/{check,download,install}, relative to the admin root. */
export function createUpdateRouter(updates: UpdateService): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/update', async (ctx) => {
    ctx.body = { data: presentUpdateStatus(await updates.status()) };
  });

  router.post('/update/check', async (ctx) => {
    ctx.body = { data: presentUpdateStatus(await updates.check(ctx.state.principal)) };
  });

  router.post('/update/download', async (ctx) => {
    ctx.body = { data: presentUpdateStatus(await updates.download(ctx.state.principal)) };
  });

  router.post('/update/install', async (ctx) => {
    ctx.body = { data: presentUpdateStatus(await updates.install(ctx.state.principal)) };
  });
  return router;
}
