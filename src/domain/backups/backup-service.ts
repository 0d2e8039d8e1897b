// Backups (API.md "Backups"): ZIP archives in the state folder's backups/
// folder — create, list, upload, inspect, download, delete and restore, each
// guarded by backups.*. What an archive holds is backup-format.ts; writing it
// backup-writer.ts; reading it back backup-reader.ts; restoring it
// backup-restore.ts. Every archive that is read is treated as hostile.
import type { Readable, Writable } from 'node:stream';
import type { BackupLimits } from '../../config/config.ts';
import type { ActivityLog } from '../activity/activity-log.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import type { FileDraft, FileFolder } from '../../storage/file-folder.ts';
import { authorize } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import { BACKUP_NAME, backupNameAt, DEFAULT_PARTS, parseParts, type BackupCounts, type BackupPart } from './backup-format.ts';
import { countBackup, openBackup, type OpenedBackup } from './backup-reader.ts';
import { restoreBackup, startRestore, type RestoreOutcome, type RestoreTargets } from './backup-restore.ts';
import { restoreActivity, restoreFailedActivity } from './restore-activity.ts';
import { backupSources, type StateRecords } from './backup-writer.ts';
import { writeZip } from './zip-writer.ts';

/** A backup as listed. */
export interface BackupSummary {
  name: string;
  size: number;
  created_at: string;
  /** The parts the archive holds (from its manifest); empty when it cannot be read. */
  parts: BackupPart[];
}

/** A backup as inspected (API.md: counts of what it holds). */
export interface BackupDetail {
  name: string;
  created_at: string;
  version: string;
  size: number;
  parts: BackupCounts;
  includes: BackupPart[];
  includes_secrets: boolean;
}

/** What BackupService needs; services.ts builds it from config and the other services. */
export interface BackupServiceOptions extends RestoreTargets {
  folder: FileFolder;
  state: StateRecords;
  version: string;
  includeSecrets: boolean;
  limits: BackupLimits;
  /** Where a restore records its one line. */
  activity: Pick<ActivityLog, 'record'>;
  now?: () => number;
}

/** Backup archives and their restore; created once by services.ts. */
export class BackupService {
  private creating = false;
  private readonly uploads = new Map<string, FileDraft>();
  private readonly now: () => number;

  constructor(private readonly options: BackupServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The saved backups, newest first. Throws forbidden without `backups.read`. */
  async list(principal: Principal): Promise<BackupSummary[]> {
    this.authorize(principal, 'backups.read', '*');
    const files = (await this.options.folder.list()).filter((file) => BACKUP_NAME.test(file.name));
    const summaries = await Promise.all(
      files.map(async (file): Promise<BackupSummary> => {
        const manifest = await this.withBackup(file.name, async (backup) => backup.manifest).catch(() => undefined);
        return { name: file.name, size: file.size, created_at: manifest?.created_at ?? file.modifiedAt.toISOString(), parts: manifest?.parts ?? [] };
      }),
    );
    return summaries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  }

  /**
   * Writes a new archive of `parts` (default: all but users), streamed to
   * disk, and returns it inspected. Throws forbidden, validation_failed for
   * unknown parts, conflict while another backup is being written.
   */
  async create(principal: Principal, parts: readonly string[] | undefined): Promise<BackupDetail> {
    this.authorize(principal, 'backups.create', '*');
    const chosen = parts === undefined ? [...DEFAULT_PARTS] : parseParts(parts);
    if (this.creating) throw new AppError('conflict', 'A backup is being created; try again when it is done.');
    this.creating = true;
    try {
      const now = this.now();
      const name = backupNameAt(now);
      if (await this.options.folder.stat(name)) throw new AppError('conflict', `A backup named "${name}" exists already; try again in a second.`);
      const draft = this.options.folder.createDraft();
      try {
        const snapshot = { name, createdAt: new Date(now).toISOString(), version: this.options.version, parts: chosen, includeSecrets: this.options.includeSecrets, repo: this.options.repo, media: this.options.media, state: this.options.state };
        await writeZip(draft.stream, backupSources(snapshot), new Date(now));
        await draft.publish(name);
      } catch (error) {
        await draft.discard();
        throw error;
      }
      return await this.inspectFile(name);
    } finally {
      this.creating = false;
    }
  }

  /** What a backup holds, counted from its contents. Throws forbidden, not_found, validation_failed for an unusable archive. */
  async inspect(principal: Principal, name: string): Promise<BackupDetail> {
    this.authorize(principal, 'backups.read', name);
    return this.inspectFile(name);
  }

  /** Checks that `principal` may upload; call it before reading the request body. Throws forbidden. */
  assertCanUpload(principal: Principal): void {
    this.authorize(principal, 'backups.create', '*');
  }

  /** Opens a sink an upload streams into (see http/multipart.ts). */
  openUploadSink(): { id: string; stream: Writable } {
    const draft = this.options.folder.createDraft();
    const id = draft.path.slice(draft.path.lastIndexOf('-') + 1);
    this.uploads.set(id, draft);
    return { id, stream: draft.stream };
  }

  /** Deletes an upload that will not be kept. */
  async discardUpload(id: string): Promise<void> {
    await this.uploads.get(id)?.discard();
    this.uploads.delete(id);
  }

  /**
   * Checks an uploaded archive and keeps it under its own name when that is
   * a backup name, else under one for now. Throws validation_failed for a
   * hostile or unreadable archive (the upload is deleted) and conflict when the name is taken.
   */
  async finishUpload(principal: Principal, id: string, originalName: string): Promise<BackupDetail> {
    this.authorize(principal, 'backups.create', '*');
    const draft = this.uploads.get(id);
    if (draft === undefined) throw new AppError('validation_failed', 'No backup file was sent.', { fields: { backup: 'A file is required.' } });
    try {
      const opened = await openBackup(draft.path, this.options.limits);
      try {
        await countBackup(opened, this.options.repo, this.maxObjectBytes());
      } finally {
        opened.zip.close();
      }
      const name = BACKUP_NAME.test(originalName) ? originalName : backupNameAt(this.now());
      await draft.publish(name);
      return await this.inspectFile(name);
    } finally {
      await this.discardUpload(id);
    }
  }

  /** A stream of an archive's bytes and its size. Throws forbidden, not_found. */
  async download(principal: Principal, name: string): Promise<{ stream: Readable; size: number }> {
    this.authorize(principal, 'backups.read', name);
    const file = await this.find(name);
    const stream = await this.options.folder.openRead(name);
    if (stream === undefined) throw this.missing(name);
    return { stream, size: file.size };
  }

  /** Deletes an archive. Throws forbidden, not_found. */
  async remove(principal: Principal, name: string): Promise<void> {
    this.authorize(principal, 'backups.delete', name);
    await this.find(name);
    await this.options.folder.remove(name);
  }

  /**
   * Restores parts of an archive (see backup-restore.ts), with the content
   * repo's writes held back until it is done, and records it in one activity
   * line (restore-activity.ts), also when it fails once the request is
   * allowed and its parts are known. Throws forbidden, not_found,
   * validation_failed (unknown or missing parts, an unusable archive) and conflict.
   */
  async restore(principal: Principal, name: string, input: { parts: readonly string[]; overwrite?: boolean }): Promise<RestoreOutcome> {
    this.authorize(principal, 'backups.restore', name);
    const request = { principal, name: name.slice(0, 100), parts: parseParts(input.parts), overwrite: input.overwrite ?? false };
    const progress = startRestore(request);
    try {
      await this.find(name);
      const outcome = await this.withBackup(name, (backup) => restoreBackup(this.options, backup, request, progress));
      void this.options.activity.record(restoreActivity(request, progress));
      return outcome;
    } catch (error) {
      void this.options.activity.record(restoreFailedActivity(request, progress, error));
      throw error;
    }
  }

  private async inspectFile(name: string): Promise<BackupDetail> {
    const file = await this.find(name);
    return this.withBackup(name, async (backup) => ({
      name,
      created_at: backup.manifest.created_at,
      version: backup.manifest.version,
      size: file.size,
      parts: await countBackup(backup, this.options.repo, this.maxObjectBytes()),
      includes: backup.manifest.parts,
      includes_secrets: backup.manifest.include_secrets,
    }));
  }

  private async withBackup<T>(name: string, use: (backup: OpenedBackup) => Promise<T>): Promise<T> {
    const backup = await openBackup(this.options.folder.pathOf(name), this.options.limits);
    try {
      return await use(backup);
    } finally {
      backup.zip.close();
    }
  }

  private async find(name: string): Promise<{ size: number }> {
    if (!BACKUP_NAME.test(name)) throw this.missing(name);
    const file = await this.options.folder.stat(name);
    if (file === undefined) throw this.missing(name);
    return file;
  }

  private missing(name: string): AppError {
    return notFound(`No backup "${name.slice(0, 100)}".`);
  }

  private maxObjectBytes(): number {
    return Math.min(this.options.limits.maxBytes, 2 ** 31 - 1);
  }

  private authorize(principal: Principal, action: string, name: string): void {
    authorize(principal, { action, resource: `backups:${name}`, workspace: ALL_WORKSPACES });
  }
}
