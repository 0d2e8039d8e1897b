// Workspaces (SPEC admin table: /workspaces): any signed-in user may list
// active ones; creating, relabelling and archiving need workspaces.manage.
import Router from '@koa/router';
import type { Config } from '../../config/config.ts';
import { AppError } from '../../errors/app-error.ts';
import type { WorkspaceService } from '../../domain/workspaces/workspace-service.ts';
import { bodyOf, jsonBody } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { nameParam, withoutNulls } from '../context.ts';
import { presentWorkspace } from './workspaces.presenter.ts';
import { createWorkspaceSchema, updateWorkspaceSchema } from './workspaces.schemas.ts';

/** Routes /workspaces and /workspaces/{ws}, relative to the admin root. */
export function createWorkspacesRouter(workspaces: WorkspaceService, config: Config): Router<AppState> {
  const router = new Router<AppState>();
  const body = jsonBody(config.limits.jsonBodyBytes);
  const parseCreate = compileBody(createWorkspaceSchema);
  const parseUpdate = compileBody(updateWorkspaceSchema);

  router.get('/workspaces', (ctx) => {
    const flag = ctx.query.include_archived;
    if (flag !== undefined && flag !== 'true' && flag !== 'false') {
      throw new AppError('invalid_request', 'include_archived must be true or false.');
    }
    const list = workspaces.listFor(ctx.state.principal, flag === 'true');
    ctx.body = { data: list.map(presentWorkspace), meta: { total: list.length } };
  });

  router.post('/workspaces', body, async (ctx) => {
    const input = parseCreate(bodyOf(ctx));
    ctx.status = 201;
    ctx.body = { data: presentWorkspace(await workspaces.create(ctx.state.principal, input)) };
  });

  router.put('/workspaces/:ws', body, async (ctx) => {
    const updated = await workspaces.update(ctx.state.principal, nameParam(ctx, 'ws'), withoutNulls(parseUpdate(bodyOf(ctx))));
    ctx.body = { data: presentWorkspace(updated) };
  });

  router.delete('/workspaces/:ws', async (ctx) => {
    await workspaces.archive(ctx.state.principal, nameParam(ctx, 'ws'));
    ctx.body = { data: { ok: true } };
  });
  return router;
}
