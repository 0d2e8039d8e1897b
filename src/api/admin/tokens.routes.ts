// API token management (SPEC admin table: /tokens): list, create (the plain
// token is in this one response only), revoke.
import Router from '@koa/router';
import type { TokenService } from '../../domain/auth/token-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { nameParam } from '../context.ts';
import { presentToken } from './tokens.presenter.ts';
import { createTokenSchema } from './tokens.schemas.ts';

/** Routes /tokens and /tokens/{id}, relative to the admin root. */
export function createTokensRouter(tokens: TokenService, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parseCreate = compileBody(createTokenSchema);

  router.get('/tokens', (ctx) => {
    const list = tokens.list(ctx.state.principal);
    ctx.body = { data: list.map(presentToken), meta: { total: list.length } };
  });

  router.post('/tokens', body, async (ctx) => {
    const { permissions, ...rest } = bodyOf(ctx);
    const input = parseCreate(rest);
    const created = await tokens.create(ctx.state.principal, { name: input.name, description: input.description ?? undefined, expires_at: input.expires_at ?? null, permissions });
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: { ...presentToken(created.record), token: created.token } };
  });

  router.delete('/tokens/:id', async (ctx) => {
    await tokens.revoke(ctx.state.principal, nameParam(ctx, 'id'));
    ctx.body = { data: { ok: true } };
  });
  return router;
}
