// GET /problems under a workspace (API.md "For site generators"): the files
// of the content repo the server skips now, from the problems register, so a
// CI step with a `problems.read` token can keep builds green.
import Router from '@koa/router';
import type { ProblemRegister } from '../../domain/content/problem-register.ts';
import type { AppState } from '../../http/state.ts';
import { nameParam } from '../context.ts';

/** The /problems route, relative to a workspace root of the public API. */
export function createProblemsRouter(problems: Pick<ProblemRegister, 'read'>): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/problems', (ctx) => {
    const list = problems.read(ctx.state.principal, nameParam(ctx, 'ws'));
    ctx.body = { data: list.map(({ path, field, message }) => ({ path, ...(field === undefined ? {} : { field }), message })), meta: { total: list.length } };
  });
  return router;
}
