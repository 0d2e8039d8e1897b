// The shapes of backups in admin responses: a listed archive, an inspected
// one (API.md: counts per part), and the outcome of a restore.
import type { BackupDetail, BackupSummary } from '../../domain/backups/backup-service.ts';
import type { RestoreOutcome } from '../../domain/backups/backup-restore.ts';

/** A listed backup. */
export function presentBackupSummary(backup: BackupSummary): BackupSummary {
  return { name: backup.name, size: backup.size, created_at: backup.created_at, parts: backup.parts };
}

/** An inspected backup: `parts` holds the counts API.md names. */
export function presentBackupDetail(backup: BackupDetail): BackupDetail {
  return {
    name: backup.name,
    created_at: backup.created_at,
    version: backup.version,
    size: backup.size,
    parts: { ...backup.parts },
    includes: backup.includes,
    includes_secrets: backup.includes_secrets,
  };
}

/** What a restore did. */
export function presentRestore(outcome: RestoreOutcome): RestoreOutcome {
  return {
    name: outcome.name,
    parts: outcome.parts,
    overwrite: outcome.overwrite,
    commit: outcome.commit,
    history: outcome.history,
    restored: outcome.restored,
    kept: outcome.kept,
    skipped: outcome.skipped,
    notes: outcome.notes,
  };
}
