// Reading ZIP archives that came from outside (uploads, restores) as hostile
// input, with yauzl. The whole central directory is checked before a single
// byte is extracted: entry count, names (no absolute paths, no `..`, no
// backslashes or control characters, no duplicates), no links, no encryption,
// and the declared sizes against a total limit. yauzl then enforces the
// declared sizes while inflating, so they cannot lie. There is no limit on
// how much one file may expand: deflate reaches ~1000:1 on repetitive data,
// which the server's own archives hold when the repository does, and every
// archive the server writes must be one it can read back.
import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { isAppError } from '../../errors/app-error.ts';
import { relativePathProblem } from '../../storage/safe-path.ts';
import { unreadable } from './backup-format.ts';

/** Limits an archive must stay within. */
export interface ZipLimits {
  /** Most entries (files and folders). */
  maxFiles: number;
  /** Most bytes all entries may inflate to. */
  maxBytes: number;
}

/** One file of a checked archive. */
export interface ZipFileInfo {
  name: string;
  size: number;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const DEFLATE = 8;
const STORE = 0;

/** A ZIP archive whose directory passed every check; read its files by name. */
export class CheckedZip {
  private constructor(
    private readonly zip: ZipFile,
    private readonly byName: Map<string, Entry>,
  ) {}

  /**
   * Opens the archive at `file` and checks its directory against `limits`
   * and `isAllowedName`. Throws validation_failed (fields.backup says why)
   * for anything unsafe or unreadable; nothing has been extracted then.
   */
  static async open(file: string, limits: ZipLimits, isAllowedName: (name: string) => boolean): Promise<CheckedZip> {
    // Imported on first use, like every library that no start-up step needs.
    const { default: yauzl } = await import('yauzl');
    let zip: ZipFile;
    try {
      zip = await yauzl.openPromise(file, { autoClose: false, strictFileNames: true, validateEntrySizes: true });
    } catch (error) {
      throw unreadable(`It is not a readable ZIP archive (${describe(error)}).`);
    }
    try {
      return new CheckedZip(zip, await checkDirectory(zip, limits, isAllowedName));
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** The files (folders left out), in archive order. */
  files(): ZipFileInfo[] {
    return [...this.byName.values()].filter((entry) => !entry.fileName.endsWith('/')).map((entry) => ({ name: entry.fileName, size: entry.uncompressedSize }));
  }

  /** Whether the archive holds a file of that name. */
  has(name: string): boolean {
    return this.byName.has(name) && !name.endsWith('/');
  }

  /** A stream of one file's bytes; it errors if the data does not match the directory. Throws validation_failed for a missing file. */
  async stream(name: string): Promise<Readable> {
    const entry = this.byName.get(name);
    if (entry === undefined) throw unreadable(`The file "${name}" is missing.`);
    try {
      return await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw unreadable(`The file "${name}" cannot be read (${describe(error)}).`);
    }
  }

  /** One file as text, read whole (the directory already bounds its size). */
  async text(name: string): Promise<string> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.stream(name)) chunks.push(Buffer.from(chunk as Uint8Array));
    } catch (error) {
      throw unreadable(`The file "${name}" is damaged (${describe(error)}).`);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Releases the file. */
  close(): void {
    this.zip.close();
  }
}

async function checkDirectory(zip: ZipFile, limits: ZipLimits, isAllowedName: (name: string) => boolean): Promise<Map<string, Entry>> {
  if (zip.entryCount > limits.maxFiles) throw unreadable(`It holds ${zip.entryCount} entries; at most ${limits.maxFiles} are allowed.`);
  const byName = new Map<string, Entry>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      checkEntry(entry, isAllowedName);
      if (byName.has(entry.fileName)) throw unreadable(`The name "${entry.fileName}" appears twice.`);
      byName.set(entry.fileName, entry);
      total += entry.uncompressedSize;
      if (total > limits.maxBytes) throw unreadable(`It expands to more than ${limits.maxBytes} bytes.`);
      if (byName.size > limits.maxFiles) throw unreadable(`It holds more than ${limits.maxFiles} entries.`);
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw unreadable(`Its directory is unsafe or damaged (${describe(error)}).`);
  }
  return byName;
}

function checkEntry(entry: Entry, isAllowedName: (name: string) => boolean): void {
  const name = entry.fileName;
  const isFolder = name.endsWith('/');
  const problem = relativePathProblem(isFolder ? name.slice(0, -1) : name);
  if (problem !== undefined) throw unreadable(`The name ${JSON.stringify(name.slice(0, 200))} is not allowed: ${problem}.`);
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw unreadable(`The entry "${name}" is a link or special file.`);
  if (entry.isEncrypted()) throw unreadable(`The entry "${name}" is encrypted.`);
  if (entry.compressionMethod !== DEFLATE && entry.compressionMethod !== STORE) throw unreadable(`The entry "${name}" uses an unsupported compression method.`);
  if (!isAllowedName(name)) throw unreadable(`The entry "${name.slice(0, 200)}" does not belong in a backup.`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
}
