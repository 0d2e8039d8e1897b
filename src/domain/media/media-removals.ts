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
  library: Pick<MediaLibrary, 'find' | 'all'>;
  store: Pick<MediaStore, 'remove' | 'move' | 'exists' | 'sizeOf' | 'removeEmptyFolder'>;
  variants: Pick<ImageVariants, 'dropFile' | 'removeEmptyFolder'>;
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
 * under a new name, or the same name in another workspace folder, whose
 * original is missing) takes its original and thumbnail along first. A
 * workspace left without records loses its emptied media folders. Runs once the
 * changes are in memory (ContentWriter.onReceive), so no request started
 * after it finds the old record. Failures are logged, never thrown.
 */
export async function dropFilesOfRemovedRecords(deps: MediaRemovalDeps, changes: readonly ChangedPath[]): Promise<void> {
  // Only files the library no longer serves lose their files.
  const removed = recordNames(changes, 'deleted').filter(({ workspace, filename }) => !deps.library.find(workspace, filename));
  const moved = deps.keepsOriginals ? await followRenamedRecords(deps, changes, removed) : new Set<RecordName>();
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
  await removeEmptiedFolders(deps, removed);
}

// A `git mv` of a record, or of its whole workspace folder, is a removal and
// an addition; the original (which is in no repo) follows it when the new
// name has none yet and a removed record's original is found to be its
// bytes: by the new record's sha256 (candidates in its own workspace first,
// then those of its name), or, for a record without one, by its name alone
// (pairRecordWithoutHash). Returns the removed records whose original moved.
async function followRenamedRecords(deps: MediaRemovalDeps, changes: readonly ChangedPath[], removed: readonly RecordName[]): Promise<Set<RecordName>> {
  const moved = new Set<RecordName>();
  for (const { workspace, filename } of recordNames(changes, 'added')) {
    const record = deps.library.find(workspace, filename);
    if (!record) continue;
    try {
      if (await deps.store.exists('file', workspace, filename)) continue;
      const candidates = removed.filter((name) => !moved.has(name));
      const source = record.sha256 === null ? await pairRecordWithoutHash(deps, { workspace, filename }, record.size, candidates) : await findCopy(deps, record.sha256, ranked(candidates, workspace, filename));
      if (source === undefined) continue;
      await deps.store.move('file', source.workspace, source.filename, filename, workspace);
      // A stale thumbnail under the new name would otherwise block the move (media-rename.ts).
      await deps.store.remove('thumb', workspace, filename);
      await deps.store.move('thumb', source.workspace, source.filename, filename, workspace);
      moved.add(source);
      deps.logger.info('a media record was renamed by a commit from outside; its file follows it', { from: `${source.workspace}/${source.filename}`, to: `${workspace}/${filename}` });
    } catch (error) {
      deps.logger.error('could not move the file of a media record renamed by a commit from outside', { workspace, filename, error });
    }
  }
  return moved;
}

function ranked(candidates: readonly RecordName[], workspace: string, filename: string): RecordName[] {
  const rank = (name: RecordName) => (name.workspace === workspace ? 0 : name.filename === filename ? 1 : 2);
  return [...candidates].sort((a, b) => rank(a) - rank(b));
}

async function findCopy(deps: MediaRemovalDeps, sha256: string, candidates: readonly RecordName[]): Promise<RecordName | undefined> {
  for (const candidate of candidates) {
    if ((await deps.hashes.ofCopy(candidate.workspace, candidate.filename)) === sha256) return candidate;
  }
  return undefined;
}

// A record without sha256 has no hash to compare the removed originals
// with (hashing them would tell nothing), so it is paired by what a
// workspace folder's move keeps: the file name. It takes the original of
// the one record of its name removed from another workspace whose original
// is on disk, with the size the record names when it names one; none or
// several such, and it is not paired. A rename within a workspace changes
// the name, so it needs the sha256 (docs/media.md).
async function pairRecordWithoutHash(deps: MediaRemovalDeps, added: RecordName, size: number, candidates: readonly RecordName[]): Promise<RecordName | undefined> {
  const found: RecordName[] = [];
  for (const candidate of candidates) {
    if (candidate.filename !== added.filename || candidate.workspace === added.workspace) continue;
    const stored = await deps.store.sizeOf('file', candidate.workspace, candidate.filename);
    if (stored !== undefined && (size === 0 || stored === size)) found.push(candidate);
  }
  return found.length === 1 ? found[0] : undefined;
}

// A workspace whose records all went (a folder moved or removed with git)
// leaves no empty folder of originals, thumbnails or resized images behind.
// One that still has records keeps its folders: a thumbnail or variant may
// be being written into them.
async function removeEmptiedFolders(deps: MediaRemovalDeps, removed: readonly RecordName[]): Promise<void> {
  for (const workspace of new Set(removed.map((name) => name.workspace))) {
    if (deps.library.all(workspace).length > 0) continue;
    try {
      for (const kind of ['file', 'thumb'] as const) await deps.store.removeEmptyFolder(kind, workspace);
      await deps.variants.removeEmptyFolder(workspace);
    } catch (error) {
      deps.logger.error('could not remove the emptied media folders of a workspace', { workspace, error });
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
