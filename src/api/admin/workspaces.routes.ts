// Workspaces (SPEC admin table: /workspaces): any signed-in user may list
// active ones; creating, relabelling and archiving need workspaces.manage.
import Router from '@koa/router';
import type { Workspace } from '../../domain/model/workspace-file.ts';
import type { WorkspaceService } from '../../domain/workspaces/workspace-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import { choiceParam, validateQuery, type QueryValues } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { nameParam, withoutNulls } from '../context.ts';
import { presentWorkspace } from './workspaces.presenter.ts';
import { createWorkspaceSchema, updateWorkspaceSchema } from './workspaces.schemas.ts';

/** Routes /workspaces and /workspaces/{ws}, relative to the admin root. */
export function createWorkspacesRouter(workspaces: WorkspaceService, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parseCreate = compileBody(createWorkspaceSchema);
  const parseUpdate = compileBody(updateWorkspaceSchema);
  const present = (workspace: Workspace) => presentWorkspace(workspace, workspaces.isProtected(workspace.slug));

  router.get('/workspaces', validateQuery(includesArchived), (ctx) => {
    const list = workspaces.listFor(ctx.state.principal, ctx.state.query);
    ctx.body = { data: list.map(present), meta: { total: list.length } };
  });

  router.post('/workspaces', body, async (ctx) => {
    const input = parseCreate(bodyOf(ctx));
    ctx.status = 201;
    ctx.body = { data: present(await workspaces.create(ctx.state.principal, input)) };
  });

  router.put('/workspaces/:ws', body, async (ctx) => {
    const updated = await workspaces.update(ctx.state.principal, nameParam(ctx, 'ws'), withoutNulls(parseUpdate(bodyOf(ctx))));
    ctx.body = { data: present(updated) };
  });

  router.delete('/workspaces/:ws', async (ctx) => {
    await workspaces.archive(ctx.state.principal, nameParam(ctx, 'ws'));
    ctx.body = { data: { ok: true } };
  });
  return router;
}

// `include_archived`: true or false (the default).
function includesArchived(query: QueryValues): boolean {
  return choiceParam(query, 'include_archived', ['true', 'false']) === 'true';
}
