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
  store: Pick<MediaStore, 'remove' | 'move' | 'exists' | 'removeEmptyFolder'>;
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

/** A media file by workspace and name. */
interface RecordName {
  workspace: string;
  filename: string;
}

/**
 * Deletes the thumbnail and the variants of every file whose record the
 * changes removed, and its original unless the node keeps originals. On a
 * node that keeps them, a record the changes renamed (the same bytes' hash
 * under a new name, or in another workspace folder, whose original is
 * missing) takes its original and thumbnail along first. Runs once the
 * changes are in memory (ContentWriter.onReceive), so no request started
 * after it finds the old record. Failures are logged, never thrown.
 */
export async function dropFilesOfRemovedRecords(deps: MediaRemovalDeps, changes: readonly ChangedPath[]): Promise<void> {
  // Only files the library no longer serves lose their files.
  const removed = recordNames(changes, 'deleted').filter(({ workspace, filename }) => !deps.library.find(workspace, filename));
  const moved = deps.keepsOriginals ? await followRenamedRecords(deps, changes, removed) : new Map<RecordName, string>();
  for (const name of removed) {
    const { workspace, filename } = name;
    try {
      if (!deps.keepsOriginals) await deps.store.remove('file', workspace, filename);
      else if (!moved.has(name)) deps.logger.info('a media record was removed by a commit from outside; its file stays on disk, its thumbnail and resized images are deleted', { workspace, filename });
      await deps.store.remove('thumb', workspace, filename);
      await deps.variants.dropFile(workspace, filename);
    } catch (error) {
      deps.logger.error('could not delete the local files of a removed media record', { workspace, filename, error });
    }
  }
  await removeEmptiedFolders(deps, moved);
}

// A `git mv` of a record, or of its whole workspace folder, is a removal and
// an addition; the original (which is in no repo) follows it when the new
// record's sha256 is the removed one's bytes. Candidates in the record's
// own workspace come first, then those of its name. Returns the removed
// records whose original moved, with the workspace it moved to.
async function followRenamedRecords(deps: MediaRemovalDeps, changes: readonly ChangedPath[], removed: readonly RecordName[]): Promise<Map<RecordName, string>> {
  const moved = new Map<RecordName, string>();
  for (const { workspace, filename } of recordNames(changes, 'added')) {
    const sha256 = deps.library.find(workspace, filename)?.sha256;
    if (!sha256) continue;
    try {
      if (await deps.store.exists('file', workspace, filename)) continue;
      const rank = (name: RecordName) => (name.workspace === workspace ? 0 : name.filename === filename ? 1 : 2);
      const candidates = removed.filter((name) => !moved.has(name)).sort((a, b) => rank(a) - rank(b));
      const source = await findCopy(deps, sha256, candidates);
      if (source === undefined) continue;
      await deps.store.move('file', source.workspace, source.filename, filename, workspace);
      // A stale thumbnail under the new name would otherwise block the move (media-rename.ts).
      await deps.store.remove('thumb', workspace, filename);
      await deps.store.move('thumb', source.workspace, source.filename, filename, workspace);
      moved.set(source, workspace);
      deps.logger.info('a media record was renamed by a commit from outside; its file follows it', { from: `${source.workspace}/${source.filename}`, to: `${workspace}/${filename}` });
    } catch (error) {
      deps.logger.error('could not move the file of a media record renamed by a commit from outside', { workspace, filename, error });
    }
  }
  return moved;
}

async function findCopy(deps: MediaRemovalDeps, sha256: string, candidates: readonly RecordName[]): Promise<RecordName | undefined> {
  for (const candidate of candidates) {
    if ((await deps.hashes.ofCopy(candidate.workspace, candidate.filename)) === sha256) return candidate;
  }
  return undefined;
}

// A workspace folder renamed whole leaves no empty folder of originals or thumbnails behind.
async function removeEmptiedFolders(deps: MediaRemovalDeps, moved: Map<RecordName, string>): Promise<void> {
  const left = [...moved].filter(([source, to]) => source.workspace !== to);
  for (const workspace of new Set(left.map(([source]) => source.workspace))) {
    try {
      for (const kind of ['file', 'thumb'] as const) await deps.store.removeEmptyFolder(kind, workspace);
    } catch (error) {
      deps.logger.error('could not remove the emptied media folder of a workspace', { workspace, error });
    }
  }
}

function recordNames(changes: readonly ChangedPath[], change: ChangedPath['change']): RecordName[] {
  return [...groupByWorkspace(changes)].flatMap(([workspace, paths]) =>
    paths.flatMap((path) => {
      const filename = path.change === change ? filenameOfRecordPath(workspace, path.path) : undefined;
      return filename === undefined ? [] : [{ workspace, filename }];
    }),
  );
}
