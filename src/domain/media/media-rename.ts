// Renaming a media file: the binary and its thumbnail move on disk, the
// metadata moves in the repo, and every active entry that names the file is
// rewritten, all in one commit; if the commit fails the files move back.
import { AppError } from '../../errors/app-error.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import { actorIdOf, type Principal } from '../auth/principal.ts';
import type { ContentIndex } from '../content/content-index.ts';
import type { ContentTransaction } from '../content/content-writer.ts';
import { extensionOf, isValidMediaFilename } from './file-names.ts';
import type { MediaLibrary } from './media-library.ts';
import type { MediaRecord } from './media-record.ts';
import { rewriteMediaReferences } from './media-references.ts';
import { extensionsOf } from './media-types.ts';
import type { MediaWriter } from './media-writer.ts';

/** What a rename works with. */
export interface RenameContext {
  store: MediaStore;
  library: MediaLibrary;
  content: ContentIndex;
  writer: MediaWriter;
  tx: ContentTransaction;
  /** The time recorded as the rewritten entries' `updated_at`. */
  now: string;
}

/**
 * Renames `current` to `newName` in `workspace`, committing through
 * `context.tx`. Returns the renamed record (the same one when the name is
 * unchanged). Throws validation_failed for a name that is not a valid media
 * file name with an extension of the file's type, conflict when it is taken.
 */
export async function renameMedia(context: RenameContext, principal: Principal, workspace: string, current: MediaRecord, newName: string): Promise<MediaRecord> {
  const { store, library, writer } = context;
  const filename = current.filename;
  checkNewName(current, newName);
  if (newName === filename) return current;
  if (library.find(workspace, newName) || (await store.exists('file', workspace, newName))) {
    throw new AppError('conflict', `A media file "${newName}" exists already.`);
  }
  // A stale thumbnail under the new name would otherwise block the move.
  await store.remove('thumb', workspace, newName);
  const movedFile = await store.move('file', workspace, filename, newName);
  const movedThumb = await store.move('thumb', workspace, filename, newName);
  const rewrites = rewriteMediaReferences(context.content, workspace, filename, newName, { actor: actorIdOf(principal), now: context.now });
  const renamed = { ...current, filename: newName };
  try {
    await writer.apply(context.tx, principal, workspace, {
      message: `Rename media ${filename} to ${newName}`,
      remove: [filename],
      put: [renamed],
      extra: rewrites.flatMap((rewrite) => rewrite.changes),
      applyExtra: () => rewrites.forEach(({ indexed, after }) => indexed.index.upsert(after)),
      events: [
        { type: 'media.updated', data: { filename: newName, previous_filename: filename } },
        ...rewrites.map(({ after }) => ({ type: 'content.updated' as const, data: { type: after.type, id: after.id, slug: after.slug } })),
      ],
    });
  } catch (error) {
    if (movedFile) await store.move('file', workspace, newName, filename);
    if (movedThumb) await store.move('thumb', workspace, newName, filename);
    throw error;
  }
  return renamed;
}

// The new name must be a valid stored name with an extension of the file's type.
function checkNewName(record: MediaRecord, newName: string): void {
  const extension = extensionOf(newName);
  const allowed = extensionsOf(record.mime);
  const accepted = allowed.length > 0 ? allowed : [extensionOf(record.filename)];
  if (!isValidMediaFilename(newName) || extension === undefined || !accepted.includes(extension)) {
    throw new AppError('validation_failed', `"${newName.slice(0, 200)}" is not a valid new name for "${record.filename}".`, {
      fields: { filename: `Use lowercase letters, digits, ".", "_" and "-" (at most 200 characters) and the extension ${accepted.map((ext) => `.${ext}`).join(' or ')}.` },
    });
  }
}
