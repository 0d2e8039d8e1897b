// Folders of whole files that are not content: backup archives, downloaded
// release archives, unpacked releases. Files arrive as drafts (a dot-file or
// dot-folder beside their final place) and appear under their name only by
// a rename once complete, so nobody ever sees half a file. Names are single
// safe segments; paths inside a folder draft go through safe-path.ts.
import { randomBytes } from 'node:crypto';
import { createWriteStream, constants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';
import { AppError } from '../errors/app-error.ts';
import { errnoCode, isNotFound } from '../lib/errno.ts';
import { resolveInside, isSafeSegment } from './safe-path.ts';

/** A complete file of a folder. */
export interface FolderFile {
  name: string;
  size: number;
  modifiedAt: Date;
}

/** A file being written; it gets its name with publish(). */
export interface FileDraft {
  /** Absolute path of the draft (for libraries that open files themselves). */
  readonly path: string;
  /** Writes the draft; the file exists once the stream opened. */
  readonly stream: Writable;
  /** Renames the finished draft to `name`. Throws conflict when `name` exists. */
  publish(name: string): Promise<void>;
  /** Deletes the draft; a missing one is fine. */
  discard(): Promise<void>;
}

const DRAFT_PREFIX = '.draft-';
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;

/** One flat folder of files addressed by name. */
export class FileFolder {
  private constructor(readonly dir: string) {}

  /** Opens (creating, 0700) the folder and removes drafts a crash left behind. */
  static async open(dir: string): Promise<FileFolder> {
    const root = path.resolve(dir);
    await mkdir(root, { recursive: true, mode: FOLDER_MODE });
    for (const name of await readdir(root)) {
      if (name.startsWith(DRAFT_PREFIX)) await rm(path.join(root, name), { recursive: true, force: true });
    }
    return new FileFolder(root);
  }

  /** The complete regular files, by name (drafts and other dot-files left out). */
  async list(): Promise<FolderFile[]> {
    const entries = await readdir(this.dir, { withFileTypes: true });
    const files: FolderFile[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.startsWith('.')) continue;
      const info = await this.stat(entry.name);
      if (info) files.push(info);
    }
    return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Size and time of a regular file, or undefined when missing (symlinks count as missing). Throws invalid_request for an unsafe name. */
  async stat(name: string): Promise<FolderFile | undefined> {
    try {
      const info = await lstat(this.pathOf(name));
      return info.isFile() ? { name, size: info.size, modifiedAt: info.mtime } : undefined;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** The absolute path of `name` in this folder. Throws invalid_request for an unsafe name. */
  pathOf(name: string): string {
    if (!isSafeSegment(name)) throw new AppError('invalid_request', `The file name "${String(name).slice(0, 100)}" is not allowed.`);
    return resolveInside(this.dir, name);
  }

  /** Starts a new file as a draft. */
  createDraft(): FileDraft {
    const draft = path.join(this.dir, `${DRAFT_PREFIX}${randomBytes(8).toString('hex')}`);
    const stream = createWriteStream(draft, { flags: 'wx', mode: FILE_MODE });
    return {
      path: draft,
      stream,
      publish: async (name) => {
        const target = this.pathOf(name);
        if (await this.stat(name)) throw new AppError('conflict', `A file named "${name}" already exists.`);
        await rename(draft, target);
      },
      discard: async () => {
        stream.destroy();
        await unlink(draft).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
        });
      },
    };
  }

  /** Writes a whole stream into a draft, which the caller then publishes or discards. */
  async draftFrom(input: Readable): Promise<FileDraft> {
    const draft = this.createDraft();
    try {
      await pipeline(input, draft.stream);
      return draft;
    } catch (error) {
      await draft.discard();
      throw error;
    }
  }

  /** A stream of a file's bytes, or undefined when it is missing. */
  async openRead(name: string): Promise<Readable | undefined> {
    try {
      const handle = await open(this.pathOf(name), constants.O_RDONLY | constants.O_NOFOLLOW);
      return handle.createReadStream({ autoClose: true });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Deletes a file; returns false when it was missing. */
  async remove(name: string): Promise<boolean> {
    try {
      await unlink(this.pathOf(name));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** Starts a new sub-folder as a draft, filled file by file. */
  async createFolderDraft(): Promise<FolderDraft> {
    const draft = path.join(this.dir, `${DRAFT_PREFIX}${randomBytes(8).toString('hex')}`);
    await mkdir(draft, { mode: FOLDER_MODE });
    return new FolderDraft(this, draft);
  }

  /** Whether a sub-folder (or file) called `name` exists. */
  async hasEntry(name: string): Promise<boolean> {
    try {
      await lstat(this.pathOf(name));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}

/** A folder being filled; it appears under its name with publish(). */
export class FolderDraft {
  constructor(
    private readonly folder: FileFolder,
    readonly path: string,
  ) {}

  /**
   * Writes one file at a relative posix path, creating its folders. Throws
   * invalid_request for an unsafe path and conflict when the file exists.
   */
  async writeFile(relative: string, input: Readable): Promise<void> {
    const target = resolveInside(this.path, relative);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    try {
      await pipeline(input, createWriteStream(target, { flags: 'wx', mode: 0o644 }));
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') throw new AppError('conflict', `The path "${relative}" appears twice.`);
      throw error;
    }
  }

  /** Renames the draft to `name` in its folder. Throws conflict when `name` exists. */
  async publish(name: string): Promise<void> {
    if (await this.folder.hasEntry(name)) throw new AppError('conflict', `"${name}" already exists.`);
    await rename(this.path, this.folder.pathOf(name));
  }

  /** Deletes the draft and everything in it. */
  async discard(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}
