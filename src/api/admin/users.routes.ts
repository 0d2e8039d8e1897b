// User management (SPEC admin table: /users), guarded by users.* grants in
// the service, plus the avatar image of any user.
import Router from '@koa/router';
import type { ProfileService } from '../../domain/auth/profile-service.ts';
import type { UserService } from '../../domain/auth/user-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { nameParam, withoutNulls } from '../context.ts';
import { createUserSchema, updateUserSchema } from './users.schemas.ts';
import { presentUser } from './users.presenter.ts';

/** Routes /users, /users/{id}[/avatar] and /authors, relative to the admin root. */
export function createUsersRouter(users: UserService, profiles: ProfileService, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parseCreate = compileBody(createUserSchema);
  const parseUpdate = compileBody(updateUserSchema);

  router.get('/users', (ctx) => {
    const list = users.list(ctx.state.principal);
    ctx.body = { data: list.map((user) => presentUser(user, ctx.state.baseUrl)), meta: { total: list.length } };
  });

  router.get('/authors', (ctx) => {
    ctx.body = { data: users.authors(ctx.state.principal) };
  });

  router.post('/users', body, async (ctx) => {
    const user = await users.create(ctx.state.principal, withoutNulls(parseCreate(bodyOf(ctx))));
    ctx.status = 201;
    ctx.body = { data: presentUser(user, ctx.state.baseUrl) };
  });

  router.get('/users/:id', (ctx) => {
    ctx.body = { data: presentUser(users.get(ctx.state.principal, nameParam(ctx, 'id')), ctx.state.baseUrl) };
  });

  router.put('/users/:id', body, async (ctx) => {
    const user = await users.update(ctx.state.principal, nameParam(ctx, 'id'), withoutNulls(parseUpdate(bodyOf(ctx))));
    ctx.body = { data: presentUser(user, ctx.state.baseUrl) };
  });

  router.delete('/users/:id', async (ctx) => {
    await users.delete(ctx.state.principal, nameParam(ctx, 'id'));
    ctx.body = { data: { ok: true } };
  });

  router.get('/users/:id/avatar', async (ctx) => {
    const avatar = await profiles.avatarOf(ctx.state.principal, nameParam(ctx, 'id'));
    ctx.type = avatar.mime;
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = Buffer.from(avatar.bytes);
  });
  return router;
}
