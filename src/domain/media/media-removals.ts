// What a node does with a media file's local files when its record goes away
// in commits the node did not write itself (docs/media.md "Records removed
// by a commit"): a replica taking in its primary's delete or rename, or a
// developer's `git rm` or `git mv` of a record on a primary. The API's own
// deletes and renames move or clean up in MediaService; this covers every
// other way a record leaves.
import type { Logger } from '../../lib/logger.ts';
import type { ChangedPath } from '../../storage/content-repo.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import { groupByWorkspace } from '../model/workspace-file.ts';
import type { ContentHashes } from './content-hashes.ts';
import type { ImageVariants } from './image-variants.ts';
import type { MediaLibrary } from './media-library.ts';
import { filenameOfRecordPath } from './media-record.ts';

/** What dropFilesOfRemovedRecords() reads, moves and deletes with (services.ts). */
export interface MediaRemovalDeps {
  library: Pick<MediaLibrary, 'find'>;
  store: Pick<MediaStore, 'remove' | 'move' | 'exists'>;
  variants: Pick<ImageVariants, 'dropFile'>;
  /** Tells which removed record's original a renamed record names (by its bytes' hash). */
  hashes: Pick<ContentHashes, 'ofCopy'>;
  /**
   * Whether the original is this node's only copy (a primary: media binaries
   * are not in git, so a `git revert` of the removal brings the file back
   * only if its bytes are still there). A replica's copy is fetched again
   * from its primary when a record names the file again.
   */
  keepsOriginals: boolean;
  logger: Logger;
}

/**
 * Deletes the thumbnail and the variants of every file whose record the
 * changes removed, and its original unless the node keeps originals. On a
 * node that keeps them, a record the changes renamed (the same bytes' hash
 * under a new name whose original is missing) takes its original and
 * thumbnail along first. Runs once the changes are in memory
 * (ContentWriter.onReceive), so no request started after it finds the old
 * record. Failures are logged, never thrown.
 */
export async function dropFilesOfRemovedRecords(deps: MediaRemovalDeps, changes: readonly ChangedPath[]): Promise<void> {
  for (const [workspace, paths] of groupByWorkspace(changes)) {
    // Only files the library no longer serves lose their files.
    const removed = recordNames(workspace, paths, 'deleted').filter((filename) => !deps.library.find(workspace, filename));
    const moved = deps.keepsOriginals ? await followRenamedRecords(deps, workspace, paths, removed) : new Set<string>();
    for (const filename of removed) {
      try {
        if (!deps.keepsOriginals) await deps.store.remove('file', workspace, filename);
        else if (!moved.has(filename)) deps.logger.info('a media record was removed by a commit from outside; its file stays on disk, its thumbnail and resized images are deleted', { workspace, filename });
        await deps.store.remove('thumb', workspace, filename);
        await deps.variants.dropFile(workspace, filename);
      } catch (error) {
        deps.logger.error('could not delete the local files of a removed media record', { workspace, filename, error });
      }
    }
  }
}

// A `git mv` of a record is a removal and an addition; the original (which is
// in no repo) follows it when the new record's sha256 is the removed one's
// bytes. Returns the old names whose original moved.
async function followRenamedRecords(deps: MediaRemovalDeps, workspace: string, paths: readonly ChangedPath[], removed: readonly string[]): Promise<Set<string>> {
  const moved = new Set<string>();
  for (const filename of recordNames(workspace, paths, 'added')) {
    const sha256 = deps.library.find(workspace, filename)?.sha256;
    if (!sha256) continue;
    try {
      if (await deps.store.exists('file', workspace, filename)) continue;
      const source = await findCopy(deps, workspace, sha256, removed.filter((name) => !moved.has(name)));
      if (source === undefined) continue;
      await deps.store.move('file', workspace, source, filename);
      // A stale thumbnail under the new name would otherwise block the move (media-rename.ts).
      await deps.store.remove('thumb', workspace, filename);
      await deps.store.move('thumb', workspace, source, filename);
      moved.add(source);
      deps.logger.info('a media record was renamed by a commit from outside; its file follows it', { workspace, from: source, to: filename });
    } catch (error) {
      deps.logger.error('could not move the file of a media record renamed by a commit from outside', { workspace, filename, error });
    }
  }
  return moved;
}

async function findCopy(deps: MediaRemovalDeps, workspace: string, sha256: string, candidates: readonly string[]): Promise<string | undefined> {
  for (const candidate of candidates) {
    if ((await deps.hashes.ofCopy(workspace, candidate)) === sha256) return candidate;
  }
  return undefined;
}

function recordNames(workspace: string, paths: readonly ChangedPath[], change: ChangedPath['change']): string[] {
  return paths.flatMap((path) => {
    const filename = path.change === change ? filenameOfRecordPath(workspace, path.path) : undefined;
    return filename === undefined ? [] : [filename];
  });
}
