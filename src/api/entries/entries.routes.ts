// Entry routes, shared by the public API and the admin API (which mount them
// with their own options). Queries, visibility and writes are decided in
// domain/entries/ and domain/query/; this folder only translates HTTP.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ContentIndex } from '../../domain/content/content-index.ts';
import type { EntryService, ReadOptions } from '../../domain/entries/entry-service.ts';
import type { RefReads, RefView } from '../../domain/history/ref-reads.ts';
import { sendWithEtag, ifMatchOf } from '../../http/etag.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import { parseListParams, parseReadParams, validateQuery, withRefParam } from '../../http/query-params.ts';
import type { ReadAnswer, ResponseCache } from '../../http/response-cache.ts';
import type { AppState } from '../../http/state.ts';
import { nameParam, type ApiContext } from '../context.ts';
import { setRefCaching, viewAt } from '../ref-reads.ts';

/** How the public and the admin API differ when they mount these routes. */
export interface EntriesRouterOptions {
  /** The public API presents media fields as absolute URLs; the admin API keeps filenames. */
  mediaAsUrls: boolean;
  /** Keeps serialized read answers until the content changes (the public API's hot reads). */
  cache?: ResponseCache;
  /** Answers reads at `?ref=` (the public API); without it the parameter is not read. */
  refs?: RefReads;
}

/** The entry routes of SPEC "Content entries", relative to a workspace root (public) or the admin root. */
export function createEntriesRouter(entries: EntryService, content: ContentIndex, body: JsonBodyParser, options: EntriesRouterOptions): Router<AppState> {
  const router = new Router<AppState>();
  const readOptions = (ctx: ApiContext, workspace: string): ReadOptions =>
    options.mediaAsUrls ? { mediaUrl: (file) => `${ctx.state.baseUrl}/media/${workspace}/${encodeURIComponent(file)}` } : {};
  const target = (ctx: ApiContext) => ({ workspace: workspaceOf(ctx), type: nameParam(ctx, 'type') });
  const { cache, refs } = options;
  // Answers at a ref other than the indexes' commit are not kept: the response cache is for HEAD's hot reads.
  const answer = (ctx: Context & { state: AppState }, workspace: string, view: RefView | undefined, read: () => ReadAnswer): void => {
    if (cache && (view === undefined || view.isCurrent)) {
      cache.send(ctx, workspace, read);
    } else {
      const { body, version } = read();
      sendWithEtag(ctx, body, version);
    }
    // Only a successful answer is marked cacheable: what throws never gets here.
    if (view) setRefCaching(ctx, view, workspace);
  };
  const listQuery = refs ? validateQuery(withRefParam(parseListParams)) : validateQuery(parseListParams);
  const readQuery = refs ? validateQuery(withRefParam(parseReadParams)) : validateQuery(parseReadParams);

  // A single page type answers its list route with the entry: of the list parameters it reads include and locale.
  router.get('/content/:type', listQuery, async (ctx) => {
    const { workspace, type } = target(ctx);
    const { query } = ctx.state;
    const view = await viewAt(ctx, refs, workspace);
    const source = view ?? { content, entries };
    answer(ctx, workspace, view, () => {
      if (source.content.getType(workspace, type).type.singleton) {
        const { entry, version } = source.entries.getSingleton(ctx.state.principal, workspace, type, query, readOptions(ctx, workspace));
        return { body: { data: entry }, version };
      }
      const { entries: data, meta } = source.entries.list(ctx.state.principal, workspace, type, query, readOptions(ctx, workspace));
      return { body: { data, meta } };
    });
  });
  router.get('/content/:type/:id', readQuery, async (ctx) => {
    const { workspace, type } = target(ctx);
    const view = await viewAt(ctx, refs, workspace);
    const source = view?.entries ?? entries;
    answer(ctx, workspace, view, () => {
      const { entry, version } = source.get(ctx.state.principal, workspace, type, nameParam(ctx, 'id'), ctx.state.query, readOptions(ctx, workspace));
      return { body: { data: entry }, version };
    });
  });
  router.post('/content/:type', body, async (ctx) => {
    const { workspace, type } = target(ctx);
    const { entry, version } = await entries.create(ctx.state.principal, workspace, type, bodyOf(ctx));
    ctx.set('ETag', `"${version}"`);
    ctx.status = 201;
    ctx.body = { data: entry };
  });
  for (const method of ['put', 'patch'] as const) {
    router[method]('/content/:type/:id', body, async (ctx) => {
      const { workspace, type } = target(ctx);
      const { entry, version } = await entries.update(ctx.state.principal, workspace, type, nameParam(ctx, 'id'), bodyOf(ctx), ifMatchOf(ctx));
      ctx.set('ETag', `"${version}"`);
      ctx.body = { data: entry };
    });
  }
  router.delete('/content/:type/:id', async (ctx) => {
    const { workspace, type } = target(ctx);
    await entries.remove(ctx.state.principal, workspace, type, nameParam(ctx, 'id'), ifMatchOf(ctx));
    ctx.body = { data: { ok: true } };
  });
  return router;
}

// Public routes carry the workspace in the path; admin routes in ctx.state (X-Service-Workspace).
function workspaceOf(ctx: ApiContext): string {
  return ctx.state.workspace ?? nameParam(ctx, 'ws');
}
