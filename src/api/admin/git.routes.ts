// GET /git (the content repo's branch, head and upstream sync) and
// POST /git/sync (sync with the upstream now), relative to the admin root.
import Router from '@koa/router';
import type { GitStatusService } from '../../domain/git/git-status.ts';
import type { AppState } from '../../http/state.ts';

/** Routes /git and /git/sync of the admin API. */
export function createGitRouter(git: GitStatusService): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/git', async (ctx) => {
    ctx.body = { data: await git.status(ctx.state.principal) };
  });
  router.post('/git/sync', async (ctx) => {
    ctx.body = { data: await git.sync(ctx.state.principal) };
  });
  return router;
}
