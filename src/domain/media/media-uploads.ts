// The upload pipeline's two halves: preparing each received file (sniffing its
// type, checking the allow-list and extension, reading image facts and making
// the thumbnail) before the write queue, and placing the prepared files with
// unique names inside it. A request either stores every file or none.
import { AppError } from '../../errors/app-error.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import { safeNameParts, uniqueFilename, displayName } from './file-names.ts';
import { inspectImage, type ImageFacts } from './images.ts';
import type { MediaLibrary } from './media-library.ts';
import type { MediaRecord } from './media-record.ts';
import { extensionFor, sniffMediaType, type AllowedTypes, type MediaType } from './media-types.ts';

/** One file of an upload request, as received into the staging folder. */
export interface UploadedFile {
  /** The name the client gave the file (untrusted). */
  originalName: string;
  /** The staged upload's id (MediaStore.createStaged). */
  stagedId: string;
  /** The SHA-256 of the staged bytes, taken while they were received (so the file is not read again for it). */
  sha256: string;
}

/** A received file that passed every check and is ready to be placed. */
export interface PreparedUpload {
  stagedId: string;
  originalName: string;
  base: string;
  extension: string;
  type: MediaType;
  size: number;
  sha256: string;
  facts: ImageFacts;
}

/** Bytes read for text and SVG detection. */
const HEAD_BYTES = 64 * 1024;
const NO_FACTS: ImageFacts = { width: null, height: null, thumbnail: undefined };

/**
 * Checks one received file. Throws validation_failed (422) for an empty file
 * and file_type_not_allowed (422) when its bytes are of no allowed type or
 * do not match its extension.
 */
export async function prepareUpload(store: MediaStore, allowed: AllowedTypes, file: UploadedFile): Promise<PreparedUpload> {
  const shown = displayName(file.originalName) || 'file';
  const size = await store.stagedSize(file.stagedId);
  if (size === 0) {
    throw new AppError('validation_failed', `The file "${shown.slice(0, 80)}" is empty.`, { fields: { 'media[]': 'Empty files cannot be uploaded.' } });
  }
  const { base, extension } = await safeNameParts(file.originalName);
  const head = await store.readStagedHead(file.stagedId, HEAD_BYTES);
  const type = await sniffMediaType({ head, stream: () => store.streamStaged(file.stagedId) }, extension);
  if (!type || !allowed.has(type.mime)) {
    const what = type ? `${type.mime} files are` : 'Its type is';
    throw new AppError('file_type_not_allowed', `The file "${shown.slice(0, 80)}" cannot be uploaded: ${what} not allowed.`, {
      fields: { 'media[]': 'This type of file is not allowed.' },
    });
  }
  const finalExtension = extensionFor(type, extension, shown);
  const facts = type.group === 'image' ? await inspectImage(await store.readStaged(file.stagedId), type.mime) : NO_FACTS;
  return { stagedId: file.stagedId, originalName: shown, base, extension: finalExtension, type, size, sha256: file.sha256, facts };
}

/** Who uploads, when, and into which category. */
export interface PlacementContext {
  workspace: string;
  category: string;
  uploadedBy: string | null;
  uploadedAt: string;
}

/**
 * Gives each prepared file a name unique in the workspace (in the library,
 * in this batch and on disk), moves it out of staging and writes its
 * thumbnail. Call it inside the write queue; on failure every file placed so
 * far is removed again and the error is rethrown. Returns the new records.
 */
export async function placeUploads(store: MediaStore, library: MediaLibrary, prepared: PreparedUpload[], context: PlacementContext): Promise<{ records: MediaRecord[]; undo: () => Promise<void> }> {
  const { workspace } = context;
  const placed: string[] = [];
  const undo = async () => {
    for (const filename of placed) {
      await store.remove('file', workspace, filename);
      await store.remove('thumb', workspace, filename);
    }
  };
  const records: MediaRecord[] = [];
  try {
    for (const file of prepared) {
      const taken = new Set(placed);
      const filename = await uniqueFilename(file.base, file.extension, async (name) => taken.has(name) || library.find(workspace, name) !== undefined || (await store.exists('file', workspace, name)));
      await store.placeStaged(file.stagedId, workspace, filename);
      placed.push(filename);
      // A thumbnail left behind by an earlier file of this name must not show for this one.
      if (file.facts.thumbnail) await store.write('thumb', workspace, filename, file.facts.thumbnail);
      else await store.remove('thumb', workspace, filename);
      records.push(recordOf(file, filename, context));
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return { records, undo };
}

function recordOf(file: PreparedUpload, filename: string, context: PlacementContext): MediaRecord {
  return {
    filename,
    name: file.originalName,
    mime: file.type.mime,
    size: file.size,
    sha256: file.sha256,
    width: file.facts.width,
    height: file.facts.height,
    category: context.category,
    alt: '',
    title: '',
    visibility: 'public',
    uploaded_by: context.uploadedBy,
    uploaded_at: context.uploadedAt,
  };
}
