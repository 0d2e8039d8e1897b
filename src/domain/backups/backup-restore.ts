// Restoring an archive: everything is read and checked first (content lines,
// history, state records, media names); then media binaries are staged (each
// checked against its record's SHA-256 on the way) and the folders they go to
// made ready, the history is imported, and the content parts become one
// commit — a merge whose second parent is the backup's HEAD, so restored
// entries keep their revisions, holding the repo copies of the public files
// restored too (restore-copies.ts). Only after that commit are binaries placed
// and state written. Nothing staged outlives the restore, whatever fails.
import { pipeline } from 'node:stream/promises';
import { validationFailed } from '../../errors/app-error.ts';
import { nameList } from '../../lib/name-list.ts';
import { sha256PassThrough } from '../../lib/sha256.ts';
import type { AccountStore } from '../auth/account-store.ts';
import type { Principal } from '../auth/principal.ts';
import type { TokenService } from '../auth/token-service.ts';
import type { ContentIndex } from '../content/content-index.ts';
import type { ContentReader, ContentTransaction, ContentWriter } from '../content/content-writer.ts';
import type { FileChange } from '../../storage/content-repo.ts';
import type { DomainEvent, EventBus, WorkspaceChange } from '../model/events.ts';
import type { WebhookService } from '../webhooks/webhook-service.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import { HISTORY_FILE, mediaArchiveName, type BackupPart } from './backup-format.ts';
import { checkHistory, contentFiles, stateRecords, type ContentFile, type OpenedBackup } from './backup-reader.ts';
import type { MediaFiles } from './backup-writer.ts';
import { keepsStoredFile, restoredCopies, type StagedMedia } from './restore-copies.ts';
import { planContent, type ContentPlan } from './restore-plan.ts';
import { checkUsersPart, checkWebhooks, restoreUsersPart, restoreWebhooks, type StateTally } from './restore-state.ts';

/** The services a restore writes through. */
export interface RestoreTargets {
  repo: ContentReader;
  writer: ContentWriter;
  content: ContentIndex;
  workspaces: WorkspaceService;
  /** Told about media binaries placed after the commit, in one group (with `fromBackup`, as the commit's events). */
  events: EventBus;
  media: MediaFiles | undefined;
  /** Whether public media files have copies in the content repo (CMS_MEDIA_IN_REPO). */
  copiesInRepo: boolean;
  accounts: AccountStore;
  tokens: Pick<TokenService, 'all' | 'restore'>;
  webhooks: WebhookService;
  maxObjectBytes: number;
  maxMediaBytes: number;
}

/** What a restore did (the `data` of the restore response). */
export interface RestoreOutcome {
  name: string;
  parts: BackupPart[];
  overwrite: boolean;
  /** The restore commit, or null when no content changed. */
  commit: string | null;
  /** Whether the backup's revision history is reachable from the restore commit. */
  history: boolean;
  restored: Record<string, number>;
  kept: Record<string, number>;
  skipped: Record<string, number>;
  notes: string[];
}

/** The steps of a restore, in order: everything is checked before the first write (`staging_media`). */
export type RestoreStep = 'checking' | 'staging_media' | 'preparing_media' | 'committing' | 'placing_media' | 'webhooks' | 'users';

/**
 * How far a restore got: the step it is at (the one it failed in), what it
 * did so far (the whole outcome once it is done), and the workspaces its
 * commit archived or brought back. Its caller keeps it, so that a restore
 * that fails can still say what it had done (restore-activity.ts).
 */
export interface RestoreProgress {
  step: RestoreStep;
  outcome: RestoreOutcome;
  workspaces: Omit<WorkspaceChange, 'actor'>[];
}

/** The progress of a restore that has not started. */
export function startRestore(request: RestoreRequest): RestoreProgress {
  const outcome: RestoreOutcome = { name: request.name, parts: request.parts, overwrite: request.overwrite, commit: null, history: false, restored: {}, kept: {}, skipped: {}, notes: [] };
  return { step: 'checking', outcome, workspaces: [] };
}

const CONTENT_PARTS: readonly BackupPart[] = ['content_types', 'entries', 'media'];
// The files a note names at most; the rest are counted.
const NAMED_FILES = 20;

/**
 * Restores `parts` of an opened archive, holding the content repo's write
 * lock throughout so no write lands between the plan and the commit, and
 * keeping `progress` up to date. Throws validation_failed (parts not in the
 * archive, anything malformed) before anything is written, and conflict when git is busy.
 */
export function restoreBackup(targets: RestoreTargets, backup: OpenedBackup, request: RestoreRequest, progress: RestoreProgress): Promise<RestoreOutcome> {
  return targets.writer.transaction((tx) => restoreHeld(targets, tx, { backup, request, progress }));
}

/** Who restores which archive, which parts, and whether existing data is overwritten. */
export interface RestoreRequest {
  principal: Principal;
  name: string;
  parts: BackupPart[];
  overwrite: boolean;
}

async function restoreHeld(targets: RestoreTargets, tx: ContentTransaction, restore: { backup: OpenedBackup; request: RestoreRequest; progress: RestoreProgress }): Promise<RestoreOutcome> {
  const { backup, request, progress } = restore;
  const { outcome } = progress;
  const missing = request.parts.filter((part) => !backup.manifest.parts.includes(part));
  if (missing.length > 0) throw validationFailed({ parts: `The backup does not hold the part "${missing[0]}".` }, 'The backup does not hold every requested part.');
  const checked = await checkEverything(targets, backup, request.parts);
  const plan = checked.files.length > 0 ? await planContent(checked.files, targets, request.overwrite) : undefined;
  progress.step = 'staging_media';
  const staged = plan ? await stageMedia(targets, backup, plan, outcome) : [];
  try {
    await prepareAndCommit(targets, tx, { backup, plan, request, progress }, staged);
    progress.step = 'placing_media';
    await placeMedia(targets, staged, request);
  } finally {
    // A file placed is no longer staged, so this drops only what was not placed.
    await Promise.all(staged.map((item) => targets.media?.discardStaged(item.id)));
  }
  progress.step = 'webhooks';
  if (checked.webhooks) {
    const tally = await restoreWebhooks(targets.webhooks, checked.webhooks, request.overwrite);
    tallyInto(outcome, 'webhooks', tally);
    if (tally.restored > 0 && !backup.manifest.include_secrets) {
      outcome.notes.push('Webhook secrets are not in this backup (CMS_BACKUP_INCLUDE_SECRETS was off): restored webhooks keep the secret they had, or have none until it is set again.');
    }
  }
  progress.step = 'users';
  if (checked.users) await restoreUsers(targets, checked.users, request.overwrite, outcome);
  if (request.parts.includes('users') && !backup.manifest.include_secrets) {
    outcome.skipped.users = backup.manifest.counts.users;
    outcome.skipped.tokens = backup.manifest.counts.tokens;
    outcome.notes.push('Users and tokens were not restored: the backup holds no password or token hashes (CMS_BACKUP_INCLUDE_SECRETS was off when it was made). Roles were restored.');
  }
  return outcome;
}

async function checkEverything(targets: RestoreTargets, backup: OpenedBackup, parts: BackupPart[]) {
  const files: ContentFile[] = [];
  if (parts.some((part) => CONTENT_PARTS.includes(part))) {
    for await (const file of contentFiles(backup)) if (parts.includes(file.part)) files.push(file);
  }
  if (parts.includes('entries')) await checkHistory(backup, targets.repo, targets.maxObjectBytes);
  const webhooks = parts.includes('webhooks') ? checkWebhooks((await stateRecords(backup, 'webhooks')) ?? [], targets.webhooks.all()) : undefined;
  let users: ReturnType<typeof checkUsersPart> | undefined;
  if (parts.includes('users')) {
    const [userRecords, roleRecords, tokenRecords] = await Promise.all([stateRecords(backup, 'users'), stateRecords(backup, 'roles'), stateRecords(backup, 'tokens')]);
    users = checkUsersPart(userRecords ?? [], roleRecords ?? [], tokenRecords ?? [], backup.manifest.include_secrets);
  }
  return { files, webhooks, users };
}

// Each binary is hashed as it is staged (read once) and checked against the
// SHA-256 its record names: one that differs (a damaged or altered archive,
// or a file replaced by hand before the backup) is not placed, like a
// missing one, and the outcome names it. Records without a hash are taken as they are.
async function stageMedia(targets: RestoreTargets, backup: OpenedBackup, plan: ContentPlan, outcome: RestoreOutcome): Promise<StagedMedia[]> {
  const staged: StagedMedia[] = [];
  const differing: string[] = [];
  let missing = 0;
  try {
    for (const { workspace, filename, sha256 } of plan.media) {
      const name = mediaArchiveName(workspace, filename);
      if (!targets.media || !backup.zip.has(name)) {
        missing += 1;
        continue;
      }
      const upload = targets.media.createStaged(targets.maxMediaBytes);
      staged.push({ id: upload.id, workspace, filename });
      const hashing = sha256PassThrough();
      await pipeline(await backup.zip.stream(name), hashing.stream, upload.stream);
      if (sha256 === null || hashing.digest() === sha256) continue;
      staged.pop();
      await targets.media.discardStaged(upload.id);
      differing.push(`${workspace}/${filename}`);
    }
  } catch (error) {
    await Promise.all(staged.map((item) => targets.media?.discardStaged(item.id)));
    throw error;
  }
  if (missing > 0) outcome.notes.push(`${missing} media files had metadata but no file in the backup; their metadata was restored without the file.`);
  if (differing.length > 0) {
    outcome.notes.push(
      `${differing.length} media files in the backup are not the bytes their metadata names (their SHA-256 differs): ${nameList(differing, NAMED_FILES)}. The archive is damaged or was altered, or the files were replaced by hand before the backup; their metadata was restored without the file, so upload them again.`,
    );
  }
  return staged;
}

// The media folders are made ready before the commit, so a folder that
// cannot take the files (not a folder, not writable) fails the restore with
// nothing written; a folder made for it is removed again when it fails.
async function prepareAndCommit(targets: RestoreTargets, tx: ContentTransaction, restore: { backup: OpenedBackup; plan: ContentPlan | undefined; request: RestoreRequest; progress: RestoreProgress }, staged: StagedMedia[]): Promise<void> {
  const { media } = targets;
  const made: string[] = [];
  try {
    restore.progress.step = 'preparing_media';
    for (const workspace of new Set(staged.map((item) => item.workspace))) if (await media?.prepareFolder(workspace)) made.push(workspace);
    const copies = media && targets.copiesInRepo && restore.plan ? await restoredCopies(media, restore.plan.media, staged, restore.request.overwrite) : [];
    restore.progress.step = 'committing';
    if (restore.plan) await commitContent(targets, tx, { ...restore, plan: restore.plan }, copies);
  } catch (error) {
    await Promise.all(made.map((workspace) => media?.removeEmptyFolder('file', workspace)));
    throw error;
  }
}

async function commitContent(targets: RestoreTargets, tx: ContentTransaction, restore: { backup: OpenedBackup; plan: ContentPlan; request: RestoreRequest; progress: RestoreProgress }, copies: FileChange[]): Promise<void> {
  const { repo } = targets;
  const { backup, plan, request, progress } = restore;
  const { outcome } = progress;
  const head = backup.manifest.head;
  let mergeParents: string[] = [];
  if (request.parts.includes('entries') && head !== null && backup.zip.has(HISTORY_FILE)) {
    await repo.importObjects(await backup.zip.stream(HISTORY_FILE), { maxObjectBytes: targets.maxObjectBytes });
    if (await repo.hasCompleteHistory(head)) mergeParents = [head];
    else outcome.notes.push('The backup history is incomplete, so restored entries start a new revision history.');
  }
  Object.assign(outcome.restored, plan.restored);
  Object.assign(outcome.kept, plan.kept);
  Object.assign(outcome.skipped, plan.skipped);
  outcome.notes.push(...plan.notes);
  if (plan.changes.length === 0) return;
  // The restored files are re-read like an outside commit, which tells what they changed.
  const commit = await tx.commit({
    by: request.principal,
    message: `Restore backup ${request.name}`,
    changes: [...plan.changes, ...copies],
    trailers: { Backup: request.name, Parts: request.parts.join(', ') },
    mergeParents,
    reread: true,
    fromBackup: request.name,
    onWorkspaces: (workspaces) => progress.workspaces.push(...workspaces),
  });
  outcome.commit = commit.oid;
  outcome.history = mergeParents.length > 0;
}

// The files placed are told in one group, as a commit's events are: one
// enqueue of webhook deliveries (and one write of their queue) for the
// whole restore rather than one per file.
async function placeMedia(targets: RestoreTargets, staged: StagedMedia[], request: RestoreRequest): Promise<void> {
  const media = targets.media;
  if (!media) return;
  const occurredAt = new Date().toISOString();
  const placed: DomainEvent[] = [];
  try {
    for (const item of staged) {
      const type = await placeOne(media, item, request.overwrite);
      if (type) placed.push({ type, workspace: item.workspace, occurredAt, data: { filename: item.filename }, fromBackup: request.name });
    }
  } finally {
    // Files placed before a failure are in place: they are told all the same.
    targets.events.emitGroup(placed);
  }
}

// Places one staged binary; the event it tells, or undefined when an existing file is kept.
async function placeOne(media: MediaFiles, { id, workspace, filename }: StagedMedia, overwrite: boolean): Promise<'media.updated' | 'media.uploaded' | undefined> {
  const existed = await media.exists('file', workspace, filename);
  if (keepsStoredFile(existed, overwrite)) {
    await media.discardStaged(id);
    return undefined;
  }
  // The cached thumbnail belongs to the replaced file; it is made again on demand.
  if (existed) await Promise.all([media.remove('file', workspace, filename), media.remove('thumb', workspace, filename)]);
  await media.placeStaged(id, workspace, filename);
  return existed ? 'media.updated' : 'media.uploaded';
}

async function restoreUsers(targets: RestoreTargets, part: ReturnType<typeof checkUsersPart>, overwrite: boolean, outcome: RestoreOutcome): Promise<void> {
  const result = await restoreUsersPart({ accounts: targets.accounts, tokens: targets.tokens }, part, overwrite);
  tallyInto(outcome, 'roles', result.roles);
  tallyInto(outcome, 'users', result.users);
  tallyInto(outcome, 'tokens', result.tokens);
  outcome.notes.push(...result.notes);
}

function tallyInto(outcome: RestoreOutcome, key: string, tally: StateTally): void {
  outcome.restored[key] = tally.restored;
  outcome.kept[key] = tally.kept;
}
