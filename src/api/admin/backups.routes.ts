// Backups (SPEC admin table: /backups): list, create, upload, inspect,
// download, restore and delete ZIP archives; guarded by backups.*.
import Router from '@koa/router';
import { BACKUP_PARTS, DEFAULT_PARTS } from '../../domain/backups/backup-format.ts';
import type { BackupService } from '../../domain/backups/backup-service.ts';
import { AppError } from '../../errors/app-error.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import { createMultipartReader } from '../../http/multipart.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { presentBackupDetail, presentBackupSummary, presentRestore } from './backups.presenter.ts';
import { createBackupSchema, restoreBackupSchema } from './backups.schemas.ts';

/** Routes /backups…, relative to the admin root; `maxUploadBytes` bounds an uploaded archive. */
export function createBackupsRouter(backups: BackupService, body: JsonBodyParser, maxUploadBytes: number): Router<AppState> {
  const router = new Router<AppState>();
  const parseCreate = compileBody(createBackupSchema);
  const parseRestore = compileBody(restoreBackupSchema);
  const readUpload = createMultipartReader({
    fileFields: ['backup'],
    textFields: [],
    maxFileBytes: maxUploadBytes,
    maxFiles: 1,
    openSink: () => backups.openUploadSink(),
    discard: (id) => backups.discardUpload(id),
  });

  router.get('/backups', async (ctx) => {
    const list = await backups.list(ctx.state.principal);
    ctx.body = { data: list.map(presentBackupSummary), meta: { total: list.length, parts: BACKUP_PARTS, default_parts: DEFAULT_PARTS } };
  });

  router.post('/backups', body, async (ctx) => {
    const input = parseCreate(bodyOf(ctx));
    ctx.status = 201;
    ctx.body = { data: presentBackupDetail(await backups.create(ctx.state.principal, input.parts ?? undefined)) };
  });

  router.post('/backups/upload', async (ctx) => {
    backups.assertCanUpload(ctx.state.principal);
    const form = await readUpload(ctx);
    const [file] = form.files;
    if (file === undefined) throw new AppError('validation_failed', 'No backup file was sent.', { fields: { backup: 'A file is required.' } });
    ctx.status = 201;
    ctx.body = { data: presentBackupDetail(await backups.finishUpload(ctx.state.principal, file.id, file.originalName)) };
  });

  router.get('/backups/:file/inspect', async (ctx) => {
    ctx.body = { data: presentBackupDetail(await backups.inspect(ctx.state.principal, ctx.params.file)) };
  });

  router.get('/backups/:file/download', async (ctx) => {
    const name = ctx.params.file;
    const { stream, size } = await backups.download(ctx.state.principal, name);
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/zip';
    ctx.length = size;
    ctx.body = stream;
  });

  router.post('/backups/:file/restore', body, async (ctx) => {
    const input = parseRestore(bodyOf(ctx));
    const outcome = await backups.restore(ctx.state.principal, ctx.params.file, { parts: input.parts, overwrite: input.overwrite ?? undefined });
    ctx.body = { data: presentRestore(outcome) };
  });

  router.delete('/backups/:file', async (ctx) => {
    await backups.remove(ctx.state.principal, ctx.params.file);
    ctx.body = { data: { ok: true } };
  });
  return router;
}
