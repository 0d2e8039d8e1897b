// Transformed images on disk (docs/media.md "Image transformations"):
// cache/variants/{ws}/{filename}/{variant name}, rebuildable like the
// thumbnails. This file only reads, writes, lists and deletes them; which
// variants exist and which are evicted is decided in domain/media/.
// Every path goes through safe-path.ts; symlinks are never followed.
import { lstat, mkdir, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors/app-error.ts';
import { isNotFound } from '../lib/errno.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { openServable, removeFolderIfEmpty, type OpenedMediaFile } from './media-store.ts';
import { isSafeSegment, resolveInside } from './safe-path.ts';

/** Where one variant lives: the media file it was made from and its own name. */
export interface VariantAddress {
  workspace: string;
  filename: string;
  name: string;
}

/** A variant found on disk, with what eviction needs. */
export interface StoredVariant extends VariantAddress {
  size: number;
  modifiedAt: Date;
}

/** The variants folder under one data root. */
export class VariantStore {
  private constructor(private readonly root: string) {}

  /** Opens (creating) cache/variants/ under `dataDir`. */
  static async open(dataDir: string): Promise<VariantStore> {
    const store = new VariantStore(path.join(path.resolve(dataDir), 'cache', 'variants'));
    await mkdir(store.root, { recursive: true });
    return store;
  }

  /** Opens a variant for serving, or undefined when it is not there. */
  open(address: VariantAddress): Promise<OpenedMediaFile | undefined> {
    return openServable(this.pathOf(address));
  }

  /** Writes a variant atomically (no fsync: it can always be made again). */
  async write(address: VariantAddress, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(address);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomic(target, bytes, { fsync: false });
  }

  /** Deletes a variant, and its media file's folder once it is empty; a missing one is fine. */
  async remove(address: VariantAddress): Promise<void> {
    const target = this.pathOf(address);
    await unlink(target).catch(ignoreMissing);
    await rmdir(path.dirname(target)).catch(() => undefined);
  }

  /** Deletes every variant of one media file. */
  async removeAll(workspace: string, filename: string): Promise<void> {
    await rm(this.folderOf(workspace, filename), { recursive: true, force: true });
  }

  /** Removes a workspace's folder once it is empty (the workspace and its media went away); a missing or non-empty one is left as it is. */
  async removeEmptyFolder(workspace: string): Promise<void> {
    if (!isSafeSegment(workspace)) throw new AppError('invalid_request', 'The workspace name is not allowed.');
    await removeFolderIfEmpty(resolveInside(this.root, workspace));
  }

  /**
   * Every variant on disk (for rebuilding the eviction order at start).
   * Names that are not safe segments and interrupted writes are left out.
   */
  async list(): Promise<StoredVariant[]> {
    const found: StoredVariant[] = [];
    for (const workspace of await safeNames(this.root)) {
      for (const filename of await safeNames(path.join(this.root, workspace))) {
        const folder = path.join(this.root, workspace, filename);
        for (const name of await safeNames(folder)) {
          const info = await lstat(path.join(folder, name)).catch(() => undefined);
          if (info?.isFile()) found.push({ workspace, filename, name, size: info.size, modifiedAt: info.mtime });
        }
      }
    }
    return found;
  }

  private folderOf(workspace: string, filename: string): string {
    for (const segment of [workspace, filename]) {
      if (!isSafeSegment(segment)) throw new AppError('invalid_request', 'The media file name is not allowed.');
    }
    return resolveInside(this.root, `${workspace}/${filename}`);
  }

  // Every part must be a single safe segment, so nothing reaches outside cache/variants/.
  private pathOf(address: VariantAddress): string {
    if (!isSafeSegment(address.name)) throw new AppError('invalid_request', 'The variant name is not allowed.');
    return resolveInside(this.folderOf(address.workspace, address.filename), address.name);
  }
}

async function safeNames(folder: string): Promise<string[]> {
  try {
    // Interrupted writes leave `.name….tmp` files, which no safe segment is (leading dot).
    return (await readdir(folder)).filter((name) => isSafeSegment(name));
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

function ignoreMissing(error: unknown): void {
  if (!isNotFound(error)) throw error;
}
