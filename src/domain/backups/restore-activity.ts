// The one activity line of a backup restore. The events its commit and its
// media files tell carry `fromBackup`, and the log records none of them
// (activity-feeds.ts): a restore of 500 entries is one line, with who
// restored it, which parts, how many records of each and which workspaces
// it archived or brought back. A restore that fails is one line too, saying
// in which step and why, and what it had done by then.
import { isAppError } from '../../errors/app-error.ts';
import { errnoCode } from '../../lib/errno.ts';
import type { ActivityInput } from '../activity/activity-log.ts';
import { actorIdOf } from '../auth/principal.ts';
import type { WorkspaceMove } from '../model/events.ts';
import type { RestoreProgress, RestoreRequest, RestoreStep } from './backup-restore.ts';
import { counted } from '../../lib/counted.ts';

// What the counts of RestoreOutcome.restored count, one and many.
const COUNTED: Record<string, [string, string]> = {
  content_types: ['content type', 'content types'],
  entries: ['entry', 'entries'],
  trash: ['entry in the trash', 'entries in the trash'],
  media: ['media file', 'media files'],
  webhooks: ['webhook', 'webhooks'],
  roles: ['role', 'roles'],
  users: ['user', 'users'],
  tokens: ['token', 'tokens'],
};

const MOVED: Record<WorkspaceMove, string> = { archived: 'archived', restored: 'brought back', removed: 'removed' };

const STEPS: Record<RestoreStep, string> = {
  checking: 'checking the backup',
  staging_media: 'reading its media files',
  preparing_media: 'preparing the folders of its media files',
  committing: 'committing its content',
  placing_media: 'placing its media files',
  webhooks: 'restoring its webhooks',
  users: 'restoring its users, roles and tokens',
};

// A reason comes from the archive or the request at most; a record keeps a bounded piece.
const MAX_REASON = 300;

/**
 * `backup.restored` "Restored the backup "x.zip": 500 entries, 2 media
 * files; 3 kept as they were; archived the workspace "blog".", by the
 * restoring principal, with details `{ backup, parts, overwrite, commit,
 * history, restored, kept, skipped, workspaces }` (counts by part, never
 * names; `workspaces`: `{ workspace, change: "archived" | "restored" }`
 * for each workspace the restored workspace.yaml archived or brought back).
 */
export function restoreActivity(request: RestoreRequest, progress: RestoreProgress): ActivityInput {
  const { outcome, workspaces } = progress;
  const restored = Object.entries(outcome.restored).filter(([, count]) => count > 0).map(([part, count]) => countedPart(part, count));
  const kept = Object.values(outcome.kept).reduce((sum, count) => sum + count, 0);
  const moved = workspaces.map(({ workspace, change }) => `; ${MOVED[change]} the workspace "${workspace}"`).join('');
  const message = `Restored the backup "${outcome.name}": ${restored.length > 0 ? restored.join(', ') : 'nothing'}${kept > 0 ? `; ${kept} kept as they were` : ''}${moved}.`;
  const { name: backup, parts, overwrite, commit, history } = outcome;
  const details = { backup, parts, overwrite, commit, history, restored: outcome.restored, kept: outcome.kept, skipped: outcome.skipped, workspaces };
  return { type: 'backup.restored', message, user_id: actorIdOf(request.principal) ?? null, details };
}

/**
 * `backup.restore_failed` (level error) "Restoring the backup "x.zip"
 * failed while placing its media files, after its content was committed:
 * …", by the restoring principal, with details `{ backup, parts, overwrite,
 * step, code, reason, fields?, commit, restored, workspaces }`: the step it
 * failed in (RestoreStep), the error code the client was answered with, and
 * what it had done by then. The reason is the message the client was told
 * for an error it was told; for an unexpected one only the system error code
 * (ENOSPC), never a message that may name a path of the server or a secret.
 */
export function restoreFailedActivity(request: RestoreRequest, progress: RestoreProgress, error: unknown): ActivityInput {
  const { outcome, workspaces, step } = progress;
  const told = isAppError(error) && error.code !== 'internal_error' ? error : undefined;
  const system = errnoCode(error);
  const reason = told ? told.message.slice(0, MAX_REASON) : `An unexpected error occurred${system ? ` (${system})` : ''}.`;
  const after = outcome.commit === null ? '' : `, after its content was committed (${outcome.commit.slice(0, 7)})`;
  const message = `Restoring the backup "${request.name}" failed while ${STEPS[step]}${after}: ${reason}`;
  const details = {
    backup: request.name,
    parts: request.parts,
    overwrite: request.overwrite,
    step,
    code: told?.code ?? 'internal_error',
    reason,
    ...(told?.fields && { fields: told.fields }),
    commit: outcome.commit,
    restored: outcome.restored,
    workspaces,
  };
  return { level: 'error', type: 'backup.restore_failed', message, user_id: actorIdOf(request.principal) ?? null, details };
}

function countedPart(part: string, count: number): string {
  const [one, many] = COUNTED[part] ?? [part, part];
  return counted(count, one, many);
}
