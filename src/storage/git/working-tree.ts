// The working tree of the content repository: applying a commit's file
// changes while remembering what was there before, so a failed commit puts
// every file (and every folder it created or emptied) back exactly as it was;
// and reading files and folders without following symbolic links.
import type { BigIntStats } from 'node:fs';
import { constants, lstatSync, mkdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, open, readdir, rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error.ts';
import { errnoCode, isNotFound } from '../../lib/errno.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { resolveInside } from '../safe-path.ts';

/** A validated change: repo-relative posix path and new bytes, or null to delete. */
export interface FileWrite {
  path: string;
  data: Buffer | null;
}

type Previous = { kind: 'missing' } | { kind: 'file'; data: Buffer } | { kind: 'link'; target: string };

type UndoRecord = { file: string; previous: Previous; createdFolder?: string };

// Creating files dominates the cost of a write, so they overlap in the thread pool.
const PARALLEL_WRITES = 16;

/** One commit's working-tree changes, undoable until the commit is final. */
export class WorkingTreeChange {
  private readonly undo: UndoRecord[] = [];

  constructor(private readonly root: string) {}

  /**
   * Writes or deletes each file (atomically, several at a time) and returns
   * the new files' stats for the index. Throws `conflict` when a path runs
   * through a symbolic link or names a folder; on any error call restore().
   */
  async apply(writes: FileWrite[]): Promise<Map<string, BigIntStats>> {
    const stats = new Map<string, BigIntStats>();
    const emptied = new Set<string>();
    const one = async ({ path: relative, data }: FileWrite): Promise<void> => {
      const file = resolveInside(this.root, relative);
      await this.assertNoLinkedFolders(relative);
      const record: UndoRecord = { file, previous: readPrevious(file, relative) };
      this.undo.push(record);
      if (data === null) {
        await unlink(file).catch(ignoreMissing);
        emptied.add(path.dirname(file));
        return;
      }
      record.createdFolder = mkdirSync(path.dirname(file), { recursive: true });
      // Git does not fsync working-tree files either; the rename keeps them whole.
      await writeFileAtomic(file, data, { fsync: false });
      stats.set(relative, lstatSync(file, { bigint: true }));
    };
    for (let i = 0; i < writes.length; i += PARALLEL_WRITES) {
      const settled = await Promise.allSettled(writes.slice(i, i + PARALLEL_WRITES).map(one));
      const failure = settled.find((result) => result.status === 'rejected');
      if (failure !== undefined) throw failure.reason;
    }
    // Pruned only after every write, so a write into the same folder cannot race the prune.
    for (const folder of [...emptied].sort((a, b) => b.length - a.length)) await this.pruneEmptyFolders(folder);
    return stats;
  }

  /** Puts every touched file back as it was; best effort, never throws. */
  async restore(): Promise<void> {
    for (const { file, previous } of this.undo) {
      try {
        await unlink(file).catch(ignoreMissing);
        if (previous.kind !== 'missing') await mkdir(path.dirname(file), { recursive: true });
        if (previous.kind === 'file') await writeFileAtomic(file, previous.data, { fsync: false });
        if (previous.kind === 'link') await symlink(previous.target, file);
      } catch {
        // Keep restoring the other files; the caller rethrows the original error.
      }
    }
    for (const { file, createdFolder } of this.undo) {
      if (createdFolder !== undefined) await this.pruneEmptyFolders(path.dirname(file), createdFolder);
    }
    this.undo.length = 0;
  }

  // A committed symlink must not let a write land outside the repository.
  private async assertNoLinkedFolders(relative: string): Promise<void> {
    const parts = relative.split('/').slice(0, -1);
    let current = this.root;
    for (const part of parts) {
      current = path.join(current, part);
      try {
        if (lstatSync(current).isSymbolicLink()) {
          throw new AppError('conflict', `Cannot write "${relative}": it runs through a symbolic link.`);
        }
      } catch (error) {
        if (isNotFound(error)) return;
        throw error;
      }
    }
  }

  // Removes folders left empty, up to `stopAt` (inclusive) or the repository root (exclusive).
  private async pruneEmptyFolders(folder: string, stopAt?: string): Promise<void> {
    for (let current = folder; current !== this.root && current.startsWith(this.root + path.sep); current = path.dirname(current)) {
      try {
        await rmdir(current);
      } catch {
        return;
      }
      if (current === stopAt) return;
    }
  }
}

/** A working-tree file as utf8, or undefined when it is missing, a folder or a symbolic link. */
export async function readWorkingFile(absolute: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
    return await handle.readFile('utf8');
  } catch (error) {
    if (isNotFound(error) || errnoCode(error) === 'ELOOP' || errnoCode(error) === 'EISDIR') return undefined;
    throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Every regular file under the checked repo-relative `folder` ('' for all,
 * `.git` excluded), repo-relative and sorted; [] when the folder is missing.
 */
export async function listWorkingFiles(root: string, folder: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (absolute: string, relative: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(absolute, { withFileTypes: true });
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isFile()) found.push(child);
      else if (entry.isDirectory() && !(relative === '' && entry.name === '.git')) await visit(path.join(absolute, entry.name), child);
    }
  };
  await visit(folder === '' ? root : resolveInside(root, folder), folder);
  return found.sort();
}

/** The names of the folders directly inside `folder` (never `.git`), sorted; [] when it is missing. */
export async function listWorkingFolders(root: string, folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder === '' ? root : resolveInside(root, folder), { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && entry.name !== '.git').map((entry) => entry.name).sort();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

function ignoreMissing(error: unknown): void {
  if (!isNotFound(error)) throw error;
}

// Metadata calls and small reads are synchronous on purpose: they take
// microseconds, while each thread-pool round trip adds latency to every commit.
function readPrevious(file: string, relative: string): Previous {
  let info;
  try {
    info = lstatSync(file);
  } catch (error) {
    if (isNotFound(error)) return { kind: 'missing' };
    throw error;
  }
  if (info.isSymbolicLink()) return { kind: 'link', target: readlinkSync(file) };
  if (info.isDirectory()) throw new AppError('conflict', `Cannot write "${relative}": it is a folder in the working tree.`);
  return { kind: 'file', data: readFileSync(file) };
}
