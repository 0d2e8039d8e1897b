// Copies of public media files in the content repo (docs/static-sites.md).
// MediaWriter keeps them with every media write; this brings in the public
// files that have none (uploaded before copies were kept, or while
// CMS_MEDIA_IN_REPO was 0), at start, in commits of at most 64 MB each.
import type { FileChange } from '../../storage/content-repo.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import type { ContentFiles, ContentWriter } from '../content/content-writer.ts';
import type { MediaLibrary } from './media-library.ts';
import { mediaCopyDir, mediaCopyPath } from './media-record.ts';
import { counted } from '../../lib/counted.ts';

const COMMIT_BYTES = 64 * 1024 * 1024;

/** What copyMissingPublicFiles() reads and writes with. */
export interface MediaCopyDeps {
  writer: Pick<ContentWriter, 'transaction'>;
  files: Pick<ContentFiles, 'listFiles'>;
  library: Pick<MediaLibrary, 'all'>;
  store: Pick<MediaStore, 'read'>;
}

/** Commits a copy of every public file of `workspace` the repo lacks; returns how many. Throws what the commit throws. */
export async function copyMissingPublicFiles(deps: MediaCopyDeps, workspace: string): Promise<number> {
  return deps.writer.transaction(async (tx) => {
    const present = new Set(await deps.files.listFiles(mediaCopyDir(workspace)));
    const missing = deps.library.all(workspace).filter((record) => record.visibility === 'public' && !present.has(mediaCopyPath(workspace, record.filename)));
    let copied = 0;
    let batch: FileChange[] = [];
    let bytes = 0;
    const commit = async () => {
      if (batch.length === 0) return;
      const message = `Copy ${counted(batch.length, 'public media file', 'public media files')} into the repo`;
      await tx.commit({ by: 'system', message, changes: batch, trailers: { Workspace: workspace } });
      copied += batch.length;
      batch = [];
      bytes = 0;
    };
    for (const record of missing) {
      const data = await deps.store.read('file', workspace, record.filename);
      if (data === undefined) continue;
      batch.push({ path: mediaCopyPath(workspace, record.filename), content: data });
      bytes += data.length;
      if (bytes >= COMMIT_BYTES) await commit();
    }
    await commit();
    return copied;
  });
}
