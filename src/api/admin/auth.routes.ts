// Setup, login, logout and "who am I" (API.md "Admin session"). Setup and
// login start a session and hand out its CSRF token in meta.csrf_token.
import Router from '@koa/router';
import type { LoginService } from '../../domain/auth/login-service.ts';
import type { UserService } from '../../domain/auth/user-service.ts';
import { capabilitiesOf } from '../../domain/auth/capabilities.ts';
import { csrfTokenOf, newCsrfToken } from '../../http/csrf.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import { endSession, startSession } from '../../http/session.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { withoutNulls } from '../context.ts';
import { loginSchema, setupSchema } from './auth.schemas.ts';
import { presentUser } from './users.presenter.ts';

/** The services these routes call. */
export interface AuthRouteServices {
  login: LoginService;
  users: UserService;
}

/** Routes /setup, /login, /logout and /me, relative to the admin root. */
/** `defaultWorkspace` is the one `/me` describes when no `X-Service-Workspace` is sent. */
export function createAuthRouter(services: AuthRouteServices, body: JsonBodyParser, defaultWorkspace: string): Router<AppState> {
  const router = new Router<AppState>();
  const parseSetup = compileBody(setupSchema);
  const parseLogin = compileBody(loginSchema);

  // After setup the answer is 409 whatever the body, malformed or not.
  const notSetUp = (_ctx: unknown, next: () => Promise<unknown>) => (services.login.assertNotSetUp(), next());
  router.post('/setup', notSetUp, body, async (ctx) => {
    const user = await services.login.setup(withoutNulls(parseSetup(bodyOf(ctx))));
    const csrf = newCsrfToken();
    await startSession(ctx, user.id, csrf);
    ctx.status = 201;
    ctx.body = { data: presentUser(user, ctx.state.baseUrl), meta: { csrf_token: csrf } };
  });

  router.post('/login', body, async (ctx) => {
    const input = parseLogin(bodyOf(ctx));
    const user = await services.login.login(input.username, input.password, ctx.ip);
    const csrf = newCsrfToken();
    await startSession(ctx, user.id, csrf);
    ctx.body = { data: presentUser(user, ctx.state.baseUrl), meta: { csrf_token: csrf } };
  });

  router.post('/logout', (ctx) => {
    endSession(ctx);
    ctx.body = { data: { ok: true } };
  });

  router.get('/me', (ctx) => {
    const principal = ctx.state.principal;
    const workspace = ctx.state.workspace ?? defaultWorkspace;
    const user = principal.kind === 'user' ? services.users.find(principal.id) : undefined;
    ctx.body = {
      data: user ? presentUser(user, ctx.state.baseUrl) : null,
      meta: {
        csrf_token: csrfTokenOf(ctx),
        permissions: principal.kind === 'user' ? principal.grants : [],
        can: capabilitiesOf(principal, workspace),
        workspace,
      },
    };
  });
  return router;
}
