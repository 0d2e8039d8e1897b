// The copies of public media files in the content repo (docs/static-sites.md)
// that a restore writes, as an upload does: in its own commit, next to the
// records, so the repo never holds a restored public record without its copy
// (nor a copy the restore did not commit). The staged binaries are already
// checked against their records then; the copies are read from them.
import type { FileChange } from '../../storage/content-repo.ts';
import { mediaCopyPath } from '../media/media-record.ts';
import type { MediaFiles } from './backup-writer.ts';
import type { PlannedMedia } from './restore-plan.ts';

/** A media binary staged for a restore, placed once the commit landed. */
export interface StagedMedia {
  id: string;
  workspace: string;
  filename: string;
}

/**
 * The repo changes for the copies of the files whose records a restore
 * writes: a public file's copy holds the bytes it has once the binaries are
 * placed, a private (or unreadable) one's copy is removed. Holds the copies
 * in memory until the commit, as an upload does. Throws what reading a binary throws.
 */
export async function restoredCopies(media: MediaFiles, planned: PlannedMedia[], staged: StagedMedia[], overwrite: boolean): Promise<FileChange[]> {
  const stagedFor = new Map(staged.map((item) => [mediaCopyPath(item.workspace, item.filename), item]));
  const changes: FileChange[] = [];
  for (const file of planned) {
    const path = mediaCopyPath(file.workspace, file.filename);
    if (!file.public) {
      changes.push({ path, content: null });
      continue;
    }
    const bytes = await bytesOnceRestored(media, file, stagedFor.get(path), overwrite);
    if (bytes) changes.push({ path, content: bytes });
  }
  return changes;
}

/** Whether a restore leaves a stored binary as it is rather than placing the staged one (placeOne() in backup-restore.ts, and the copies here). */
export function keepsStoredFile(existed: boolean, overwrite: boolean): boolean {
  return existed && !overwrite;
}

// The bytes the file holds once the binaries are placed: the staged ones, or what is stored when it is kept.
async function bytesOnceRestored(media: MediaFiles, file: PlannedMedia, item: StagedMedia | undefined, overwrite: boolean): Promise<Uint8Array | undefined> {
  if (item && !keepsStoredFile(await media.exists('file', file.workspace, file.filename), overwrite)) return media.readStaged(item.id);
  return media.read('file', file.workspace, file.filename);
}
