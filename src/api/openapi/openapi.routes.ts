// GET /api/v1/openapi.json, GET /api/v1/workspaces/{ws}/openapi.json and the
// reference page at /api/docs (docs/openapi.md).
import Router from '@koa/router';
import type { HealthService } from '../../domain/health.ts';
import type { ContentType } from '../../domain/model/content-type.ts';
import type { TypeService } from '../../domain/types/type-service.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppState } from '../../http/state.ts';
import { sendAppFile, type AdminAppFiles } from '../admin-app/admin-app.routes.ts';
import { nameParam } from '../context.ts';
import { once } from '../../lib/once.ts';
import type { RouteLayer } from './openapi-document.ts';

// Swagger UI sets style attributes; everything else comes from this origin only.
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Adds the two document routes to `api` (the /api/v1 router); the document
 * describes every route `api` and `others` hold when it is first asked for,
 * these included.
 */
export function addOpenApiRoutes(api: Router<AppState>, others: readonly Router<AppState>[], services: { health: HealthService; types: TypeService }): void {
  // The builder and the schemas it describes load with the first document asked for, not with every start (docs/architecture.md).
  const documents = once(async () => {
    const { buildOpenApiDocument, workspaceDocument } = await import('./openapi-document.ts');
    const layers = [api, ...others].flatMap((router) => router.stack) as unknown as RouteLayer[];
    const base = buildOpenApiDocument(layers, services.health.info);
    return { base, forWorkspace: (types: readonly ContentType[]) => workspaceDocument(base, types) };
  });
  api.get('/openapi.json', async (ctx) => {
    const { base } = await documents();
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = base;
  });
  api.get('/workspaces/:ws/openapi.json', async (ctx) => {
    const types = services.types.list(ctx.state.principal, nameParam(ctx, 'ws'));
    const { forWorkspace } = await documents();
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = forWorkspace(types);
  });
}

/** GET /api/docs (the page) and /api/docs/assets/{name} (Swagger UI and the start script). */
export function createApiDocsRouter(docs: () => Promise<AdminAppFiles>): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/api/docs', async (ctx) => {
    const files = await docs();
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.set('Referrer-Policy', 'same-origin');
    sendAppFile(ctx, files.index);
  });
  router.get('/api/docs/assets/:name', async (ctx) => {
    const file = (await docs()).asset(ctx.params.name);
    if (!file) throw new AppError('not_found', `The API reference has no file "${ctx.params.name.slice(0, 100)}".`);
    ctx.set('Cache-Control', 'no-cache');
    sendAppFile(ctx, file);
  });
  return router;
}
