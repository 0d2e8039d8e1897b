// A snapshot file in the data folder's cache/: derived data that spares a
// start some work, used only by the very code that wrote it. Frames of a
// 4-byte length and that many bytes: a header (what wrote it), then batches
// of values in V8's serialization (which reads back in about half the CPU
// of JSON, whose escapes in long markdown bodies are slow to parse), then an
// empty frame and the SHA-256 of all before it (hashed by the CPU's own
// instructions: five times faster than SHA-1 here). Read and written a
// batch at a time, so a hundred-megabyte snapshot is never one buffer.
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { isNotFound } from '../lib/errno.ts';
import { findPackageRoot } from '../lib/package-root.ts';
import { tempSuffix } from '../lib/temp-suffix.ts';
import { isAtomicWriteTemp } from './atomic-write.ts';

/** What read() found: the values, or why the file is not used (`missing` when there is none). */
export type SnapshotRead = { values: unknown[] } | { unusable: string };

// Values per batch: about a megabyte of entries, a few milliseconds to write between turns of the event loop.
const BATCH = 500;
const LENGTH_BYTES = 4;
const SUM_BYTES = 32;

/** One snapshot file; `stamp` (what the values depend on besides the code) is the caller's. */
export class SnapshotFile {
  /**
   * `code` is the running code's fingerprint (codeFingerprint(), taken now);
   * tests pass another to stand for another build.
   */
  constructor(
    readonly file: string,
    private readonly code = codeFingerprint(),
  ) {}

  /**
   * The values of the file when the running code wrote it with `stamp`, it
   * is complete and its hash matches; otherwise why not. Throws nothing: a
   * snapshot is only ever a shortcut.
   */
  async read(stamp: string): Promise<SnapshotRead> {
    let handle: FileHandle | undefined;
    try {
      handle = await open(this.file, 'r');
      const hash = createHash('sha256');
      const { size } = await handle.stat();
      const next = () => readFrame(handle as FileHandle, hash, size);
      const header = await next();
      if (header === undefined || !header.equals(Buffer.from(this.headerLine(stamp)))) return { unusable: 'another version or build of the server wrote it' };
      const values: unknown[] = [];
      for (let batch = await next(); batch !== undefined && batch.length > 0; batch = await next()) {
        values.push(...(deserialize(batch) as unknown[]));
      }
      const sum = await readExactly(handle, SUM_BYTES + 1);
      if (sum.length !== SUM_BYTES || !sum.equals(hash.digest())) return { unusable: 'it is incomplete or damaged' };
      return { values };
    } catch (error) {
      if (isNotFound(error)) return { unusable: 'missing' };
      return { unusable: `it cannot be read: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      await handle?.close();
    }
  }

  /**
   * Replaces the file with one of `values` and `stamp`: written aside, a
   * batch at a time, then renamed into place, so a reader (or a kill) sees
   * the old file or the new one. Not flushed to disk: a torn file fails its
   * hash and is ignored. Returns how many values it holds; throws what the
   * file system throws.
   */
  async write(stamp: string, values: Iterable<unknown>): Promise<number> {
    const folder = path.dirname(this.file);
    await mkdir(folder, { recursive: true });
    await this.removeTemps();
    const temp = path.join(folder, `.${path.basename(this.file)}.${tempSuffix()}.tmp`);
    const handle = await open(temp, 'wx');
    try {
      const hash = createHash('sha256');
      const writeFrame = (bytes: Uint8Array) => {
        const length = Buffer.alloc(LENGTH_BYTES);
        length.writeUInt32BE(bytes.length);
        hash.update(length).update(bytes);
        return handle.writev([length, bytes]);
      };
      await writeFrame(Buffer.from(this.headerLine(stamp)));
      let count = 0;
      let batch: unknown[] = [];
      for (const value of values) {
        batch.push(value);
        count += 1;
        if (batch.length < BATCH) continue;
        await writeFrame(serialize(batch));
        batch = [];
      }
      if (batch.length > 0) await writeFrame(serialize(batch));
      await writeFrame(Buffer.alloc(0));
      await handle.write(hash.digest());
      await handle.close();
      await rename(temp, this.file);
      return count;
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  private headerLine(stamp: string): string {
    return JSON.stringify({ stamp, code: this.code });
  }

  // What a killed write left beside the file.
  private async removeTemps(): Promise<void> {
    const prefix = `.${path.basename(this.file)}.`;
    for (const name of await readdir(path.dirname(this.file))) {
      if (name.startsWith(prefix) && isAtomicWriteTemp(name)) await unlink(path.join(path.dirname(this.file), name)).catch(() => undefined);
    }
  }
}

// What runs: not source maps, styles or the admin app's pages.
const CODE_FILE = /\.(?:js|mjs|ts|json)$/;

/**
 * The running server's code: Node's version, and the size and modification
 * time of every file of the build it runs from (dist/server/ once built,
 * src/ under tsx; or `codeFolder`) and of the installed packages' lock
 * files. Any rebuild, edit or install changes it. Stats only: ~300 files, a few milliseconds.
 */
export function codeFingerprint(codeFolder = path.dirname(path.dirname(fileURLToPath(import.meta.url)))): string {
  const root = findPackageRoot(import.meta.url);
  const hash = createHash('sha256').update(process.version);
  const files = readdirSync(codeFolder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && CODE_FILE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const locks = [path.join(root, 'package-lock.json'), path.join(root, 'node_modules', '.package-lock.json')].filter((file) => existsSync(file));
  for (const file of [...files, ...locks]) {
    // mtimeMs keeps microseconds; the bigint stats' nanoseconds cost twice the time.
    const { size, mtimeMs } = statSync(file);
    hash.update(`\n${path.relative(root, file)} ${size} ${mtimeMs}`);
  }
  return hash.digest('base64url');
}

// The next frame's bytes (hashed with its length); undefined when the file
// (of `size` bytes) ends short of a whole frame, or a damaged length would
// run past its end.
async function readFrame(handle: FileHandle, hash: Hash, size: number): Promise<Buffer | undefined> {
  const length = await readExactly(handle, LENGTH_BYTES);
  if (length.length !== LENGTH_BYTES || length.readUInt32BE() > size) return undefined;
  const bytes = await readExactly(handle, length.readUInt32BE());
  if (bytes.length !== length.readUInt32BE()) return undefined;
  hash.update(length).update(bytes);
  return bytes;
}

// Up to `size` bytes from the current position (fewer at the end of the file).
async function readExactly(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(buffer, filled, size - filled, null);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
