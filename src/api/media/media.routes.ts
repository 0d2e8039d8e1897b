// The media routes of SPEC "Media", relative to a workspace root (public API)
// or the admin root; the admin API adds rename, bulk-category and bulk-delete.
// Category routes are registered before the per-file ones so that
// /media/categories/{x} is never taken for a file called "categories".
import Router from '@koa/router';
import type { MediaService } from '../../domain/media/media-service.ts';
import { AppError } from '../../errors/app-error.ts';
import { sendWithEtag } from '../../http/etag.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import { createMultipartReader } from '../../http/multipart.ts';
import { validateQuery } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import type { ApiContext } from '../context.ts';
import type { MediaRecord } from '../../domain/media/media-record.ts';
import { presentMediaItem, type MediaItem } from './media.presenter.ts';
import {
  bulkCategorySchema, bulkDeleteSchema, bulkVisibilitySchema, categorySchema, createCategorySchema, metaSchema, parseMediaListQuery, renameCategorySchema, renameSchema, visibilitySchema,
} from './media.schemas.ts';

type Presenter = (ctx: ApiContext) => (record: MediaRecord) => MediaItem;

/** Which API the router serves, and the limits of its request bodies. */
export interface MediaRouterOptions {
  /** The admin API also renames files and has bulk category and delete routes. */
  admin: boolean;
  body: JsonBodyParser;
  upload: { maxFileBytes: number; maxFiles: number };
}

/** Builds the media JSON routes. */
export function createMediaRouter(media: MediaService, options: MediaRouterOptions): Router<AppState> {
  const router = new Router<AppState>();
  const { body } = options;
  const parse = {
    meta: compileBody(metaSchema),
    visibility: compileBody(visibilitySchema),
    bulkVisibility: compileBody(bulkVisibilitySchema),
    category: compileBody(categorySchema),
    createCategory: compileBody(createCategorySchema),
    renameCategory: compileBody(renameCategorySchema),
  };
  const readUpload = createMultipartReader({
    fileFields: ['media[]', 'media'],
    textFields: ['category'],
    ...options.upload,
    openSink: (maxBytes) => media.createUploadSink(maxBytes),
    discard: (id) => media.discardUpload(id),
    // The record keeps each file's SHA-256 (its validator), taken as the bytes arrive.
    hash: true,
  });
  const present: Presenter = (ctx) => {
    const workspace = workspaceOf(ctx);
    return (record) => presentMediaItem(record, ctx.state.baseUrl, workspace);
  };
  const categoriesMeta = (ctx: ApiContext) => ({ categories: media.categories(workspaceOf(ctx)) });

  router.get('/media', validateQuery(parseMediaListQuery), async (ctx) => {
    const { items, meta } = await media.list(ctx.state.principal, workspaceOf(ctx), ctx.state.query);
    sendWithEtag(ctx, { data: items.map(present(ctx)), meta });
  });
  router.post('/media', async (ctx) => {
    media.beginUpload(ctx.state.principal, workspaceOf(ctx));
    const form = await readUpload(ctx);
    const files = form.files.map((file) => ({ originalName: file.originalName, stagedId: file.id, sha256: file.sha256 }));
    const records = await media.upload(ctx.state.principal, workspaceOf(ctx), { files, category: form.fields.category });
    ctx.status = 201;
    ctx.body = { data: records.map(present(ctx)), meta: categoriesMeta(ctx) };
  });

  router.post('/media/categories', body, async (ctx) => {
    const input = parse.createCategory(bodyOf(ctx));
    const name = await media.createCategory(ctx.state.principal, workspaceOf(ctx), input.name, input.parent ?? undefined);
    ctx.status = 201;
    ctx.body = { data: { name }, meta: categoriesMeta(ctx) };
  });
  for (const method of ['put', 'patch'] as const) {
    router[method]('/media/categories/:category', body, async (ctx) => {
      const input = parse.renameCategory(bodyOf(ctx));
      const name = await media.renameCategory(ctx.state.principal, workspaceOf(ctx), ctx.params.category, input.name);
      ctx.body = { data: { name }, meta: categoriesMeta(ctx) };
    });
  }
  router.delete('/media/categories/:category', async (ctx) => {
    await media.deleteCategory(ctx.state.principal, workspaceOf(ctx), ctx.params.category);
    ctx.body = { data: { ok: true }, meta: categoriesMeta(ctx) };
  });

  router.put('/media/bulk-visibility', body, async (ctx) => {
    const input = parse.bulkVisibility(bodyOf(ctx));
    const records = await media.setVisibility(ctx.state.principal, workspaceOf(ctx), input.files, input.visibility, true);
    ctx.body = { data: records.map(present(ctx)) };
  });
  if (options.admin) addAdminRoutes(router, media, body, present);

  for (const method of ['put', 'patch'] as const) {
    router[method]('/media/:filename/category', body, async (ctx) => {
      const input = parse.category(bodyOf(ctx));
      const [record] = await media.setCategory(ctx.state.principal, workspaceOf(ctx), [ctx.params.filename], input.category, false);
      ctx.body = { data: present(ctx)(record), meta: categoriesMeta(ctx) };
    });
    router[method]('/media/:filename/meta', body, async (ctx) => {
      const record = await media.updateMeta(ctx.state.principal, workspaceOf(ctx), ctx.params.filename, parse.meta(bodyOf(ctx)));
      ctx.body = { data: present(ctx)(record) };
    });
    router[method]('/media/:filename/visibility', body, async (ctx) => {
      const input = parse.visibility(bodyOf(ctx));
      const [record] = await media.setVisibility(ctx.state.principal, workspaceOf(ctx), [ctx.params.filename], input.visibility, false);
      ctx.body = { data: present(ctx)(record) };
    });
  }
  router.delete('/media/:filename', async (ctx) => {
    await media.remove(ctx.state.principal, workspaceOf(ctx), [ctx.params.filename], false);
    ctx.body = { data: { ok: true } };
  });
  return router;
}

function addAdminRoutes(
  router: Router<AppState>,
  media: MediaService,
  body: JsonBodyParser,
  present: Presenter,
): void {
  const parseRename = compileBody(renameSchema);
  const parseBulkCategory = compileBody(bulkCategorySchema);
  const parseBulkDelete = compileBody(bulkDeleteSchema);
  router.put('/media/bulk-category', body, async (ctx) => {
    const input = parseBulkCategory(bodyOf(ctx));
    const records = await media.setCategory(ctx.state.principal, workspaceOf(ctx), input.files, input.category, true);
    ctx.body = { data: records.map(present(ctx)), meta: { categories: media.categories(workspaceOf(ctx)) } };
  });
  router.post('/media/bulk-delete', body, async (ctx) => {
    const input = parseBulkDelete(bodyOf(ctx));
    await media.remove(ctx.state.principal, workspaceOf(ctx), input.files, true);
    ctx.body = { data: { ok: true } };
  });
  router.get('/media/:filename/used-by', (ctx) => {
    ctx.body = { data: media.usedBy(ctx.state.principal, workspaceOf(ctx), ctx.params.filename) };
  });
  router.put('/media/:filename/rename', body, async (ctx) => {
    const record = await media.rename(ctx.state.principal, workspaceOf(ctx), ctx.params.filename, newNameOf(parseRename(bodyOf(ctx))));
    ctx.body = { data: present(ctx)(record) };
  });
}

// The new name may come as `filename` or `name`; one of them, not two different ones.
function newNameOf(input: { filename?: string | null; name?: string | null }): string {
  const names = [...new Set([input.filename, input.name].filter((name): name is string => typeof name === 'string'))];
  if (names.length !== 1) {
    throw new AppError('validation_failed', 'Send the new file name as "filename".', { fields: { filename: 'The new file name is required.' } });
  }
  return names[0];
}

// Public routes carry the workspace in the path; admin routes in ctx.state (X-Service-Workspace).
function workspaceOf(ctx: ApiContext): string {
  return ctx.state.workspace ?? ctx.params.ws;
}
