// createRequestListener builds what the HTTP server calls with each request:
// cached public reads answered at once, everything else through the Koa
// application (createApp), whose middleware order is the request path of
// STYLE.md. Neither listens.
import type { RequestListener } from 'node:http';
import Koa from 'koa';
import type { Config } from './config/config.ts';
import { ANONYMOUS } from './domain/auth/principal.ts';
import { baseUrlOf, createBaseUrl } from './http/base-url.ts';
import { createErrorHandler, createStreamErrorListener } from './http/error-handler.ts';
import { requestId } from './http/request-id.ts';
import type { AppState } from './http/state.ts';
import { createAnswerCache, createPublicRouter, rejectUnscopedRoutes } from './api/public.ts';
import { createCachedReadAnswerer, type ResponseCache } from './http/response-cache.ts';
import { ADMIN_PREFIX } from './api/admin-prefix.ts';
import { mountOnFirstRequest } from './http/lazy-mount.ts';
import { createMediaFilesRouter } from './api/media/media-files.routes.ts';
import { createAdminAppRouter } from './api/admin-app/admin-app.routes.ts';
import { createApiDocsRouter } from './api/openapi/openapi.routes.ts';
import { createGitHttpRouter } from './api/git/git-http.routes.ts';
import { createReplicationRouter } from './api/replication/replication.routes.ts';
import { createReplicaForwarder } from './http/replica-forward.ts';
import { createReplicationHeaders } from './http/replication-headers.ts';
import { createAuthenticate } from './http/authenticate.ts';
import { createDeniedTokenRecorder } from './http/denied-tokens.ts';
import { recordDeniedToken } from './domain/activity/activity-feeds.ts';
import { createSessionMiddleware } from './http/session.ts';
import type { Services } from './services.ts';

// How long a replica holds a forwarded write's answer back while it takes the write in.
const FORWARDED_WRITE_WAIT_MS = 10_000;

/** The server's request listener: hot public reads from the answer cache, the rest through the Koa app. */
export function createRequestListener(config: Config, services: Services): RequestListener {
  const answers = createAnswerCache(services);
  const answerCached = createCachedReadAnswerer(answers, services.tokens, (request) => baseUrlOf(request, config));
  const app = createApp(config, services, answers).callback();
  return (request, response) => {
    if (!answerCached(request, response)) void app(request, response);
  };
}

/** The Koa app with every middleware and router mounted; the entry routes keep their answers in `answers`. */
function createApp(config: Config, services: Services, answers: ResponseCache): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: config.trustProxy });
  // Replaces Koa's own listener, which prints every stream error, a client that left included, to stderr.
  app.on('error', createStreamErrorListener(services.logger));
  // Pass-through middlewares return next() instead of awaiting it: an async
  // layer costs a promise and a resumption on every request, hot reads too.
  app.use((ctx, next) => {
    ctx.state.principal = ANONYMOUS;
    return next();
  });
  app.use(requestId);
  app.use(createErrorHandler(services.logger));
  app.use(createBaseUrl(config));
  // Replication (docs/deployment.md): a primary marks where each write left it; a replica sends writes to its primary.
  const { replication, replica } = services;
  if (replication) app.use(createReplicationHeaders(() => replication.point()));
  if (replica && config.primaryUrl) {
    app.use(
      createReplicaForwarder({
        primaryUrl: config.primaryUrl,
        timeoutMs: config.primaryTimeoutMs,
        catchUp: (target) => replica.catchUp(target, FORWARDED_WRITE_WAIT_MS),
        onLagging: (path) => services.logger.error('answered a forwarded write before this replica held it', { path }),
      }),
    );
  }
  app.use(createDeniedTokenRecorder((denied) => recordDeniedToken(services.activity, denied)));
  app.use(createSessionMiddleware(app, services.sessions, services.sessionKeys));
  app.use(createAuthenticate({ tokens: services.tokens, users: services.users }));
  app.use(rejectUnscopedRoutes);

  const mediaFiles = createMediaFilesRouter(services.media);
  const publicRouter = createPublicRouter(services, config, [mediaFiles], answers);
  app.use(publicRouter.routes());
  app.use(publicRouter.allowedMethods());
  // The admin API, and the services it alone uses (backups, updates and the rest of services.adminOnly), load with its first request: a start's first answer rarely needs them (docs/architecture.md).
  app.use(
    mountOnFirstRequest(ADMIN_PREFIX, async () => {
      const { createAdminRouter } = await import('./api/admin.ts');
      const [backups, updates, adminOnly] = await Promise.all([services.backups(), services.updates(), services.adminOnly()]);
      return createAdminRouter({ ...services, ...adminOnly, backups, updates }, config);
    }),
  );
  const adminApp = createAdminAppRouter(services.adminApp);
  app.use(adminApp.routes());
  app.use(adminApp.allowedMethods());
  const apiDocs = createApiDocsRouter(services.apiDocs);
  app.use(apiDocs.routes());
  app.use(apiDocs.allowedMethods());
  app.use(mediaFiles.routes());
  app.use(mediaFiles.allowedMethods());
  const git = createGitHttpRouter(services.git);
  app.use(git.routes());
  app.use(git.allowedMethods());
  if (replication) {
    const replicationRouter = createReplicationRouter(replication);
    app.use(replicationRouter.routes());
    app.use(replicationRouter.allowedMethods());
  }
  return app;
}
