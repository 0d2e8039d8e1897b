// A router whose modules load with the first request that needs it, not
// with every start (docs/architecture.md, "Loaded on first use"): the
// start's first answer is usually a public read, which never needs it.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { once } from '../lib/once.ts';
import type { AppState } from './state.ts';

/**
 * Middleware for the paths under `prefix`: the first such request loads the
 * router, and it and every request arriving meanwhile wait for it; other
 * paths pass straight on. Afterwards it behaves as the router's routes() and
 * allowedMethods() mounted in its place. A load that throws is forgotten
 * (once()): the requests waiting on it get its error, answered by the error
 * middleware (500 internal_error), and the next request loads again.
 */
export function mountOnFirstRequest(prefix: string, load: () => Promise<Router<AppState>>): Middleware<AppState> {
  const loaded = once(async () => {
    const router = await load();
    // As app.use() would take them: the router sets the context fields its middleware declares (params) itself.
    const routes = router.routes() as Middleware<AppState>;
    const allowedMethods = router.allowedMethods() as Middleware<AppState>;
    return ((ctx, next) => routes(ctx, () => allowedMethods(ctx, next))) satisfies Middleware<AppState>;
  });
  let mounted: Middleware<AppState> | undefined;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix)) return next();
    mounted ??= await loaded();
    return mounted(ctx, next);
  };
}
