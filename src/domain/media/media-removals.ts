// What a node does with a media file's local files when its record goes away
// in commits the node did not write itself (docs/media.md "Records removed
// by a commit"): a replica taking in its primary's delete or rename, or a
// developer's `git rm` of a record on a primary. The API's own deletes clean
// up in MediaService.remove(); this covers every other way a record leaves.
import type { Logger } from '../../lib/logger.ts';
import type { ChangedPath } from '../../storage/content-repo.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import { groupByWorkspace } from '../model/workspace-file.ts';
import type { ImageVariants } from './image-variants.ts';
import type { MediaLibrary } from './media-library.ts';
import { filenameOfRecordPath } from './media-record.ts';

/** What dropFilesOfRemovedRecords() reads and deletes with (services.ts). */
export interface MediaRemovalDeps {
  library: Pick<MediaLibrary, 'find'>;
  store: Pick<MediaStore, 'remove'>;
  variants: Pick<ImageVariants, 'dropFile'>;
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
 * changes removed, and its original unless the node keeps originals. Runs
 * once the removal is in memory (ContentWriter.onReceive), so no request
 * started after it finds the record. Failures are logged, never thrown.
 */
export async function dropFilesOfRemovedRecords(deps: MediaRemovalDeps, changes: readonly ChangedPath[]): Promise<void> {
  for (const [workspace, paths] of groupByWorkspace(changes)) {
    for (const { path, change } of paths) {
      const filename = change === 'deleted' ? filenameOfRecordPath(workspace, path) : undefined;
      // Only files the library no longer serves lose their files.
      if (filename === undefined || deps.library.find(workspace, filename)) continue;
      try {
        if (deps.keepsOriginals) deps.logger.info('a media record was removed by a commit from outside; its file stays on disk, its thumbnail and resized images are deleted', { workspace, filename });
        else await deps.store.remove('file', workspace, filename);
        await deps.store.remove('thumb', workspace, filename);
        await deps.variants.dropFile(workspace, filename);
      } catch (error) {
        deps.logger.error('could not delete the local files of a removed media record', { workspace, filename, error });
      }
    }
  }
}
