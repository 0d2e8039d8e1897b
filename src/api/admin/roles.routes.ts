// Role management (SPEC admin table: /roles), guarded by roles.* grants in
// the service.
import Router from '@koa/router';
import type { RoleService } from '../../domain/auth/role-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { nameParam } from '../context.ts';
import { presentRole } from './roles.presenter.ts';
import { createRoleSchema, updateRoleSchema } from './roles.schemas.ts';

/** Routes /roles and /roles/{id}, relative to the admin root. */
export function createRolesRouter(roles: RoleService, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parseCreate = compileBody(createRoleSchema);
  const parseUpdate = compileBody(updateRoleSchema);
  const present = (role: Parameters<typeof presentRole>[0]) => presentRole(role, roles.countUsers(role.id));

  router.get('/roles', (ctx) => {
    const list = roles.list(ctx.state.principal);
    ctx.body = { data: list.map(present), meta: { total: list.length } };
  });

  router.post('/roles', body, async (ctx) => {
    const { permissions, ...rest } = bodyOf(ctx);
    const input = parseCreate(rest);
    const role = await roles.create(ctx.state.principal, { id: input.id ?? undefined, label: input.label, permissions });
    ctx.status = 201;
    ctx.body = { data: present(role) };
  });

  router.get('/roles/:id', (ctx) => {
    ctx.body = { data: present(roles.get(ctx.state.principal, nameParam(ctx, 'id'))) };
  });

  router.put('/roles/:id', body, async (ctx) => {
    const { permissions, ...rest } = bodyOf(ctx);
    const input = parseUpdate(rest);
    const role = await roles.update(ctx.state.principal, nameParam(ctx, 'id'), { label: input.label ?? undefined, permissions });
    ctx.body = { data: present(role) };
  });

  router.delete('/roles/:id', async (ctx) => {
    await roles.delete(ctx.state.principal, nameParam(ctx, 'id'));
    ctx.body = { data: { ok: true } };
  });
  return router;
}
