// Media binaries and thumbnails on disk, outside git: originals in
// media/{ws}/{filename}, thumbnails in cache/thumbs/{ws}/{filename}, uploads
// in progress in media/.staging/ (same file system, so placing one is a
// rename). Every path goes through safe-path.ts; symlinks are never followed.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { AppError } from '../errors/app-error.ts';
import { errnoCode, isNotFound } from '../lib/errno.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { isSafeSegment, resolveInside } from './safe-path.ts';

/** Which tree a file lives in: the originals, or the rebuildable thumbnails. */
export type MediaFileKind = 'file' | 'thumb';

/** An upload being received: its id in the staging folder and the stream that writes it. */
export interface StagedUpload {
  id: string;
  stream: Writable;
}

/** An open file ready to serve; close() it unless a stream was taken (streams close it themselves). */
export interface OpenedMediaFile {
  size: number;
  /** This copy's modification time: it tells when this node's copy changed, not when the content did. */
  modifiedAt: Date;
  /** A stream of bytes `start`..`end` (inclusive), or of the whole file. */
  stream(range?: { start: number; end: number }): Readable;
  /** The whole file, leaving it open: to read it (hash it) before serving it from the same open file. */
  bytes(): Readable;
  close(): Promise<void>;
}

const STAGING = '.staging';
const STAGED_ID = /^[0-9a-f]{32}$/;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;

/** Media binaries, thumbnails and staged uploads under one data root. */
export class MediaStore {
  private constructor(
    private readonly mediaRoot: string,
    private readonly thumbRoot: string,
  ) {}

  /** Opens (creating) media/ and cache/thumbs/ under `dataDir`, and clears uploads a crash left in staging. */
  static async open(dataDir: string): Promise<MediaStore> {
    const store = new MediaStore(path.join(path.resolve(dataDir), 'media'), path.join(path.resolve(dataDir), 'cache', 'thumbs'));
    await rm(store.stagingDir, { recursive: true, force: true });
    await mkdir(store.stagingDir, { recursive: true });
    await mkdir(store.thumbRoot, { recursive: true });
    return store;
  }

  /**
   * Starts receiving an upload into the staging folder. The stream fails with
   * payload_too_large (413) once more than `maxBytes` are written.
   */
  createStaged(maxBytes: number): StagedUpload {
    const id = randomBytes(16).toString('hex');
    return { id, stream: new LimitedFileWriter(this.stagedPath(id), maxBytes) };
  }

  /** The size of a staged upload in bytes. Throws not_found when it is gone. */
  async stagedSize(id: string): Promise<number> {
    const handle = await this.openOrThrow(this.stagedPath(id));
    try {
      return (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  }

  /** Up to `bytes` first bytes of a staged upload. */
  async readStagedHead(id: string, bytes: number): Promise<Uint8Array> {
    const handle = await this.openOrThrow(this.stagedPath(id));
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** A stream of a staged upload's bytes (it closes the file when it ends or is destroyed). */
  async streamStaged(id: string): Promise<Readable> {
    const handle = await this.openOrThrow(this.stagedPath(id));
    return handle.createReadStream({ autoClose: true });
  }

  /** A staged upload's whole content. */
  async readStaged(id: string): Promise<Buffer> {
    const handle = await this.openOrThrow(this.stagedPath(id));
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /** Deletes a staged upload; a missing one is fine (already placed or never written). */
  async discardStaged(id: string): Promise<void> {
    await unlink(this.stagedPath(id)).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  }

  /** Moves a staged upload to media/{ws}/{filename}. Throws conflict when that file exists. */
  async placeStaged(id: string, workspace: string, filename: string): Promise<void> {
    const target = this.pathOf('file', workspace, filename);
    if (await this.exists('file', workspace, filename)) throw new AppError('conflict', `The media file "${filename}" already exists.`);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(this.stagedPath(id), target);
  }

  /**
   * Moves a staged upload over media/{ws}/{filename} in one rename: a reader
   * sees the old file or the new one, and a stream already open keeps the old.
   */
  async replaceWithStaged(id: string, workspace: string, filename: string): Promise<void> {
    const target = this.pathOf('file', workspace, filename);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(this.stagedPath(id), target);
  }

  /**
   * Makes media/{ws}/ ready for files to be placed in it before anything
   * that needs them is committed (a restore): creates it and checks that it
   * may be written. Returns whether it made the folder (removeEmptyFolder
   * undoes that); throws the file system's error when it cannot be used.
   */
  async prepareFolder(workspace: string): Promise<boolean> {
    const folder = this.folderOf('file', workspace);
    const made = await mkdir(folder, { recursive: true });
    await access(folder, constants.W_OK);
    return made !== undefined;
  }

  /** Whether a file exists (a symlink counts, so it is never overwritten). */
  async exists(kind: MediaFileKind, workspace: string, filename: string): Promise<boolean> {
    try {
      const handle = await open(this.pathOf(kind, workspace, filename), READ_FLAGS);
      await handle.close();
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      if (errnoCode(error) === 'ELOOP') return true;
      throw error;
    }
  }

  /** Opens a file for serving, or undefined when it is missing (or a symlink). */
  async open(kind: MediaFileKind, workspace: string, filename: string): Promise<OpenedMediaFile | undefined> {
    return openServable(this.pathOf(kind, workspace, filename));
  }

  /** A file's size in bytes, or undefined when it is missing (or a symlink). */
  async sizeOf(kind: MediaFileKind, workspace: string, filename: string): Promise<number | undefined> {
    const opened = await this.open(kind, workspace, filename);
    if (!opened) return undefined;
    await opened.close();
    return opened.size;
  }

  /** A file's whole content, or undefined when it is missing. */
  async read(kind: MediaFileKind, workspace: string, filename: string): Promise<Buffer | undefined> {
    const opened = await this.open(kind, workspace, filename);
    if (!opened) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream()) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  /** Writes a file atomically (thumbnails). */
  async write(kind: MediaFileKind, workspace: string, filename: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(kind, workspace, filename);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomic(target, bytes, { fsync: false });
  }

  /**
   * Renames a file, into `toWorkspace`'s folder when given (a workspace
   * folder renamed with git); returns false when the source is missing.
   * Throws conflict when the target exists.
   */
  async move(kind: MediaFileKind, workspace: string, from: string, to: string, toWorkspace = workspace): Promise<boolean> {
    const source = this.pathOf(kind, workspace, from);
    const target = this.pathOf(kind, toWorkspace, to);
    if (await this.exists(kind, toWorkspace, to)) throw new AppError('conflict', `The media file "${to}" already exists.`);
    try {
      if (toWorkspace !== workspace) await mkdir(path.dirname(target), { recursive: true });
      await rename(source, target);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** Deletes a file; a missing one is fine. */
  async remove(kind: MediaFileKind, workspace: string, filename: string): Promise<void> {
    await unlink(this.pathOf(kind, workspace, filename)).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  }

  /** Removes a workspace's folder if it is empty (its files all moved away); a missing or non-empty one is left as it is. */
  async removeEmptyFolder(kind: MediaFileKind, workspace: string): Promise<void> {
    await removeFolderIfEmpty(this.folderOf(kind, workspace));
  }

  /** The names of the files in a workspace's folder (for tests and repairs); [] when there is none. */
  async list(kind: MediaFileKind, workspace: string): Promise<string[]> {
    try {
      const entries = await readdir(this.folderOf(kind, workspace), { withFileTypes: true });
      return entries.filter((entry) => entry.isFile() && !entry.name.startsWith('.')).map((entry) => entry.name).sort();
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  }

  private get stagingDir(): string {
    return path.join(this.mediaRoot, STAGING);
  }

  private stagedPath(id: string): string {
    if (!STAGED_ID.test(id)) throw new AppError('invalid_request', 'Unknown upload.');
    return path.join(this.stagingDir, id);
  }

  private folderOf(kind: MediaFileKind, workspace: string): string {
    if (!isSafeSegment(workspace) || workspace.startsWith('.')) throw new AppError('invalid_request', 'The workspace name is not allowed.');
    return resolveInside(kind === 'file' ? this.mediaRoot : this.thumbRoot, workspace);
  }

  // Both parts must be single safe segments, so nothing can reach another
  // workspace, the staging folder or anything outside the data root.
  private pathOf(kind: MediaFileKind, workspace: string, filename: string): string {
    if (!isSafeSegment(filename)) throw new AppError('invalid_request', 'The media file name is not allowed.');
    return resolveInside(this.folderOf(kind, workspace), filename);
  }

  private async openOrThrow(file: string): Promise<FileHandle> {
    try {
      return await open(file, READ_FLAGS);
    } catch (error) {
      if (isNotFound(error)) throw new AppError('not_found', 'The upload is gone.');
      throw error;
    }
  }
}

/**
 * Opens a regular file for serving without following a symlink, or gives
 * undefined when it is missing, a symlink or not a file. For the media
 * trees (this file and variant-store.ts) only: `file` must be a checked path.
 */
export async function openServable(file: string): Promise<OpenedMediaFile | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, READ_FLAGS);
  } catch (error) {
    if (isNotFound(error) || errnoCode(error) === 'ELOOP') return undefined;
    throw error;
  }
  const info = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (!info.isFile()) {
    await handle.close();
    return undefined;
  }
  return {
    size: info.size,
    modifiedAt: info.mtime,
    stream: (range) => handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true }),
    bytes: () => handle.createReadStream({ start: 0, autoClose: false }),
    close: () => handle.close(),
  };
}

/** Removes `folder` if it is empty; a missing or non-empty one is left as it is. For the media trees (this file and variant-store.ts) only. */
export async function removeFolderIfEmpty(folder: string): Promise<void> {
  await rmdir(folder).catch((error: unknown) => {
    if (!isNotFound(error) && errnoCode(error) !== 'ENOTEMPTY' && errnoCode(error) !== 'EEXIST') throw error;
  });
}

/** Serves bytes held in memory like an opened file (a variant just made, so modified now). */
export function bufferedFile(bytes: Uint8Array): OpenedMediaFile {
  const stream = (range?: { start: number; end: number }) => Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).subarray(range?.start ?? 0, range === undefined ? undefined : range.end + 1)]);
  return {
    size: bytes.length,
    modifiedAt: new Date(),
    stream,
    bytes: () => stream(),
    close: () => Promise.resolve(),
  };
}

// Writes an upload to a new file (never over an existing one) and fails as
// soon as it grows past the limit, so an oversized upload is never stored whole.
class LimitedFileWriter extends Writable {
  private handle: FileHandle | undefined;
  private written = 0;

  constructor(private readonly file: string, private readonly maxBytes: number) {
    super();
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.file, 'wx', 0o644).then((handle) => {
      this.handle = handle;
      callback();
    }, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.written += chunk.length;
    if (this.written > this.maxBytes) {
      callback(new AppError('payload_too_large', `A file may be at most ${this.maxBytes} bytes.`));
      return;
    }
    if (!this.handle) {
      callback(new Error('The upload file is not open.'));
      return;
    }
    this.handle.write(chunk).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    (handle ? handle.close() : Promise.resolve()).then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    (handle ? handle.close() : Promise.resolve()).then(() => callback(error), () => callback(error));
  }
}
