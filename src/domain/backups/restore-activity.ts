// The one activity line of a backup restore. The events its commit and its
// media files tell carry `fromBackup`, and the log records none of them
// (activity-feeds.ts): a restore of 500 entries is one line, with who
// restored it, which parts and how many records of each.
import type { ActivityInput } from '../activity/activity-log.ts';
import { actorIdOf } from '../auth/principal.ts';
import type { RestoreOutcome, RestoreRequest } from './backup-restore.ts';

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

/**
 * `backup.restored` "Restored the backup "x.zip": 500 entries, 2 media
 * files; 3 kept as they were.", by the restoring principal, with details
 * `{ backup, parts, overwrite, commit, history, restored, kept, skipped }`
 * (counts by part, never names).
 */
export function restoreActivity(request: RestoreRequest, outcome: RestoreOutcome): ActivityInput {
  const restored = Object.entries(outcome.restored).filter(([, count]) => count > 0).map(([part, count]) => counted(part, count));
  const kept = Object.values(outcome.kept).reduce((sum, count) => sum + count, 0);
  const message = `Restored the backup "${outcome.name}": ${restored.length > 0 ? restored.join(', ') : 'nothing'}${kept > 0 ? `; ${kept} kept as they were` : ''}.`;
  const { name: backup, parts, overwrite, commit, history } = outcome;
  const details = { backup, parts, overwrite, commit, history, restored: outcome.restored, kept: outcome.kept, skipped: outcome.skipped };
  return { type: 'backup.restored', message, user_id: actorIdOf(request.principal) ?? null, details };
}

function counted(part: string, count: number): string {
  const [one, many] = COUNTED[part] ?? [part, part];
  return `${count} ${count === 1 ? one : many}`;
}
