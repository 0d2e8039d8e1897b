// Crash-safe file replacement: readers see the old file or the new one, never
// a half-written one. Used for working-tree files, git refs and state files.
import { closeSync, constants, fchmodSync, linkSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync, writevSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../lib/errno.ts';
import { tempSuffix } from '../lib/temp-suffix.ts';

/** Options of writeFileAtomic(). */
export interface AtomicWriteOptions {
  /** Permission bits of the new file (before umask); 0o666 when omitted. */
  mode?: number;
  /** Flush the file and its folder to disk before returning; true when omitted. */
  fsync?: boolean;
}

// The temp file beside the target: `.name.<12 hex>.tmp`.
const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/** Whether a file name is one of writeFileAtomic's temp files (a crash may leave one behind). */
export function isAtomicWriteTemp(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Writes `data` to a temp file in the same folder, flushes it, then renames it
 * over `filePath`, so a crash leaves either the old or the new content. The
 * folder must exist. Rethrows the file system error after removing the temp file.
 */
export async function writeFileAtomic(
  filePath: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const durable = options.fsync ?? true;
  const dir = path.dirname(filePath);
  const temp = tempPathFor(filePath);
  const handle = await open(temp, 'wx', options.mode ?? 0o666);
  try {
    await handle.writeFile(data);
    if (durable) await handle.sync();
    await handle.close();
    await rename(temp, filePath);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (durable) await syncFolder(dir);
}

/**
 * writeFileAtomic without the flush to disk, in synchronous calls: for
 * files a process crash must not tear but a power cut may lose (git's own
 * working-tree files), where a thread-pool round trip per call costs more
 * than the write.
 */
export function replaceFileSync(filePath: string, data: string | Uint8Array, mode = 0o666): void {
  const temp = tempPathFor(filePath);
  try {
    writeFileSync(temp, data, { flag: 'wx', mode });
    renameSync(temp, filePath);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
}

// writev takes at most IOV_MAX (1024 on Linux) buffers per call.
const BUFFERS_PER_WRITE = 1024;

/**
 * Creates `file` (it must not exist) holding `chunks`, in vectored writes.
 * A write the disk takes only part of is continued, so a full disk fails
 * with its own error (ENOSPC, EFBIG) and a short file is never renamed into place.
 */
export function createFileFromChunks(file: string, chunks: Uint8Array[], mode: number): void {
  const fd = openSync(file, 'wx', mode);
  try {
    writeChunks(fd, chunks, file);
  } finally {
    closeSync(fd);
  }
}

/**
 * Like createFileFromChunks, into `file` that exists already and is empty,
 * which then gets `mode`. Not truncated: on ext4 a file truncated and written
 * has its blocks allocated and its writeback started at close (auto_da_alloc),
 * ~0.1 ms more.
 */
export function fillFileFromChunks(file: string, chunks: Uint8Array[], mode: number): void {
  const fd = openSync(file, constants.O_WRONLY);
  try {
    writeChunks(fd, chunks, file);
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

function writeChunks(fd: number, chunks: Uint8Array[], file: string): void {
  let pending = chunks;
  while (pending.length > 0) {
    const written = writevSync(fd, pending.slice(0, BUFFERS_PER_WRITE));
    if (written === 0) throw new Error(`The disk took nothing more of ${path.basename(file)}.`);
    pending = dropWritten(pending, written);
  }
}

// The chunks left after the first `bytes` bytes were written.
function dropWritten(chunks: Uint8Array[], bytes: number): Uint8Array[] {
  let rest = bytes;
  let i = 0;
  while (i < chunks.length && rest >= chunks[i].length) {
    rest -= chunks[i].length;
    i += 1;
  }
  return rest === 0 ? chunks.slice(i) : [chunks[i].subarray(rest), ...chunks.slice(i + 1)];
}

/**
 * The files in `folder` whose names `isTemp` accepts, last written at least
 * `minAgeMs` before `now`: what a killed writer left (a live one's temp
 * file is younger). None when the folder cannot be read; a file gone or
 * unreadable meanwhile is passed over.
 */
export function staleFiles(folder: string, isTemp: (name: string) => boolean, minAgeMs: number, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter(isTemp)
    .map((name) => path.join(folder, name))
    .filter((file) => {
      const modified = modifiedAt(file);
      return modified !== undefined && now - modified >= minAgeMs;
    });
}

function modifiedAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Deletes a file if it is there; never throws (already gone, or an unwritable folder). */
export function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or the folder is unwritable: nothing more to do.
  }
}

/** Adds the name `link` for `existing`; false when that fails (no such file, a name already there, no hard links here). */
export function linkQuietly(existing: string, link: string): boolean {
  try {
    linkSync(existing, link);
    return true;
  } catch {
    return false;
  }
}

function tempPathFor(filePath: string): string {
  return path.join(path.dirname(filePath), `.${path.basename(filePath)}.${tempSuffix()}.tmp`);
}

/**
 * Flushes a folder's entry list so a rename inside it survives a crash. Some
 * platforms cannot open or fsync folders; there the call is a no-op.
 */
export async function syncFolder(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!isUnsupportedFolderSync(error)) throw error;
  } finally {
    await handle?.close();
  }
}

function isUnsupportedFolderSync(error: unknown): boolean {
  const code = errnoCode(error);
  return code === 'EISDIR' || code === 'EPERM' || code === 'EINVAL' || code === 'EACCES' || code === 'ENOTSUP';
}
