// The working tree of the content repository: applying a commit's file
// changes while remembering what was there before, so a failed commit puts
// every file (and every folder it created or emptied) back exactly as it was,
// refusing to replace work the server did not make, and undoing the writes of
// a commit a killed server left unfinished.
import { isAscii } from 'node:buffer';
import type { BigIntStats } from 'node:fs';
import { hash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, readlinkSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppError } from '../../errors/app-error.ts';
import { errnoCode, isNotFound } from '../../lib/errno.ts';
import { isAtomicWriteTemp, replaceFileSync, writeFileAtomic } from '../atomic-write.ts';
import { resolveInside } from '../safe-path.ts';
import { prepareObject } from './objects.ts';
import { EXECUTABLE_MODE, LINK_MODE } from './tree.ts';

/** A validated change: repo-relative posix path and new bytes, or null to delete. */
export interface FileWrite {
  path: string;
  data: Buffer | null;
}

type Previous = { kind: 'missing' } | { kind: 'file'; data: Buffer } | { kind: 'link'; target: string };

type UndoRecord = { file: string; previous: Previous; createdFolder?: string | undefined };

/** A commit of thousands of files lets requests in between batches of this many synchronous file calls. */
export const FILES_BETWEEN_YIELDS = 64;

/**
 * One commit's working-tree changes, undoable until the commit is final.
 * check() first refuses any path holding work the server did not make;
 * apply() then writes; restore() undoes.
 */
export class WorkingTreeChange {
  private readonly undo: UndoRecord[] = [];
  private planned: FileWrite[] = [];

  constructor(private readonly root: string) {}

  /**
   * Reads what each path holds now and refuses (`conflict`, naming the file)
   * to replace a file whose content is neither the committed one
   * (`committed(path)`, a blob id or undefined when HEAD has none) nor the
   * one being written: a developer's uncommitted edit, deletion or untracked
   * file. Also `conflict` when a path runs through a symbolic link or names a folder.
   */
  check(writes: FileWrite[], committed: (path: string) => string | undefined): void {
    for (const { path: relative, data } of writes) {
      const file = resolveInside(this.root, relative);
      this.assertFoldersOnPath(relative);
      const previous = readPrevious(file, relative);
      const current = previous.kind === 'missing' ? undefined : blobIdOf(previous);
      const target = data === null ? undefined : blobIdOf({ kind: 'file', data });
      if (current !== committed(relative) && current !== target) {
        throw new AppError(
          'conflict',
          `The file "${relative}" has changes in the content folder that are not committed; commit or discard them with git, then try again.`,
        );
      }
      this.undo.push({ file, previous });
    }
    this.planned = writes;
  }

  /** Writes or deletes each checked file (atomically). On any error call restore(). */
  async apply(): Promise<void> {
    const emptied = new Set<string>();
    for (let i = 0; i < this.planned.length; i += 1) {
      if (i > 0 && i % FILES_BETWEEN_YIELDS === 0) await yieldToEventLoop();
      const { data } = this.planned[i];
      const record = this.undo[i];
      if (data === null) {
        if (unlinkQuietly(record.file)) emptied.add(path.dirname(record.file));
        continue;
      }
      record.createdFolder = mkdirSync(path.dirname(record.file), { recursive: true });
      // Git does not fsync working-tree files either; the rename keeps them whole.
      replaceFileSync(record.file, data);
    }
    // Pruned only after every write, so a write into the same folder cannot race the prune.
    for (const folder of [...emptied].sort((a, b) => b.length - a.length)) await pruneEmptyFolders(this.root, folder);
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
      if (createdFolder !== undefined) await pruneEmptyFolders(this.root, path.dirname(file), createdFolder);
    }
    this.undo.length = 0;
  }

  // A committed symlink must not let a write land outside the repository,
  // and a file where a folder is needed (an untracked file) stays as it is.
  private assertFoldersOnPath(relative: string): void {
    const parts = relative.split('/').slice(0, -1);
    let current = this.root;
    for (const [i, part] of parts.entries()) {
      current = path.join(current, part);
      let info;
      try {
        info = lstatSync(current);
      } catch (error) {
        if (isNotFound(error)) return;
        throw error;
      }
      if (info.isSymbolicLink()) throw new AppError('conflict', `Cannot write "${relative}": it runs through a symbolic link.`);
      if (!info.isDirectory()) throw new AppError('conflict', `Cannot write "${relative}": "${parts.slice(0, i + 1).join('/')}" is a file in the content folder.`);
    }
  }
}

/** A committed file to put back: its blob id, mode and bytes (or link target). */
export interface CommittedFile {
  oid: string;
  mode: string;
  data: Buffer;
}

/** What rollBackInterruptedWrites() did: files put back, and files left alone because they hold someone else's work. */
export interface Rollback {
  restored: string[];
  kept: string[];
}

/**
 * Undoes the working-tree part of a commit that never reached its branch (the
 * server was killed): each path still holding what the commit wrote
 * (`written`: blob id, or null for a deletion) gets its committed version
 * back; a path holding anything else is someone else's work and stays. Temp
 * files of the interrupted writes are removed and emptied folders pruned.
 */
export async function rollBackInterruptedWrites(
  root: string,
  written: ReadonlyMap<string, string | null>,
  committed: (path: string) => Promise<CommittedFile | undefined>,
): Promise<Rollback> {
  const result: Rollback = { restored: [], kept: [] };
  for (const [relative, target] of written) {
    const file = resolveInside(root, relative);
    await removeWriteTemps(file);
    const previous = readPrevious(file, relative);
    const current = previous.kind === 'missing' ? undefined : blobIdOf(previous);
    const before = await committed(relative);
    if (current === before?.oid) continue;
    if (current !== (target ?? undefined)) {
      result.kept.push(relative);
      continue;
    }
    await unlink(file).catch(ignoreMissing);
    if (before === undefined) await pruneEmptyFolders(root, path.dirname(file));
    else await writeCommitted(file, before);
    result.restored.push(relative);
  }
  return result;
}

async function writeCommitted(file: string, committed: CommittedFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  if (committed.mode === LINK_MODE) await symlink(committed.data.toString('utf8'), file);
  else await writeFileAtomic(file, committed.data, { fsync: false, mode: committed.mode === EXECUTABLE_MODE ? 0o777 : 0o666 });
}

// writeFileAtomic's temp files for `file`: `.name.<12 hex>.tmp` beside it.
async function removeWriteTemps(file: string): Promise<void> {
  const prefix = `.${path.basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(path.dirname(file));
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && isAtomicWriteTemp(name)) await unlink(path.join(path.dirname(file), name)).catch(ignoreMissing);
  }
}

// Removes folders left empty, up to `stopAt` (inclusive) or the repository root (exclusive).
async function pruneEmptyFolders(root: string, folder: string, stopAt?: string): Promise<void> {
  for (let current = folder; current !== root && current.startsWith(root + path.sep); current = path.dirname(current)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
    if (current === stopAt) return;
  }
}

// The blob id git would record for what a path holds (a link's target is its content).
function blobIdOf(previous: Exclude<Previous, { kind: 'missing' }>): string {
  return prepareObject('blob', previous.kind === 'file' ? previous.data : Buffer.from(previous.target, 'utf8')).oid;
}

/**
 * The text of the committed file `oid` if the working tree holds exactly
 * its bytes at `absolute` (checked by hashing), else undefined. The server's
 * own files are clean, so reads come from the working tree, like a cache
 * the blob id verifies, and only what differs is read from the object store.
 * Synchronous like the other small reads here: a start-up reads a hundred
 * thousand files, and a thread-pool round trip for each open, read and
 * close cost ten times the reading.
 */
export function readCleanText(absolute: string, oid: string): string | undefined {
  return withOpenFile(absolute, (fd) => {
    const clean = readBlobBytes(fd, oid);
    return clean === undefined ? undefined : textOf(clean.buffer.subarray(HEADER_ROOM, clean.end));
  });
}

// Nearly every content file is ASCII, which reads the same as latin1, and
// decoding latin1 costs a fifth of utf8's validating decode (at a start, 20
// ms of 10,000 files).
function textOf(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * The stats for the git index entry of the committed file `oid` at
 * `absolute`: the file's own when it holds exactly that blob, else undefined
 * (an entry without stats, which git checks by content). Taken before the
 * bytes are hashed, so an edit in between is left to git's check too.
 */
export function indexStatsOf(absolute: string, oid: string): BigIntStats | undefined {
  return withOpenFile(absolute, (fd) => {
    const stats = fstatSync(fd, { bigint: true });
    return stats.isFile() && readBlobBytes(fd, oid) !== undefined ? stats : undefined;
  });
}

// Runs `use` on the file at `absolute` opened for reading; undefined when there is none (or a symlink, or a folder).
function withOpenFile<T>(absolute: string, use: (fd: number) => T | undefined): T | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
    return use(fd);
  } catch (error) {
    if (isNotFound(error) || errnoCode(error) === 'ELOOP' || errnoCode(error) === 'EISDIR') return undefined;
    throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// The bytes of the file open at `fd` (from HEADER_ROOM to `end`) when they are exactly blob `oid`.
function readBlobBytes(fd: number, oid: string): { buffer: Buffer; end: number } | undefined {
  const { buffer, end } = readAfterHeaderRoom(fd);
  // The header git hashes with the bytes goes right before them, so the blob id is one hash of one buffer.
  const header = `blob ${end - HEADER_ROOM}\0`;
  const start = HEADER_ROOM - header.length;
  buffer.write(header, start, 'latin1');
  return hash('sha1', buffer.subarray(start, end), 'hex') === oid ? { buffer, end } : undefined;
}

// Room for the longest blob header (`blob `, 20 digits, NUL) before a file's bytes.
const HEADER_ROOM = 32;
// The buffer every clean read goes through (they are synchronous, one at a
// time); a file that does not fit in it is read into a bigger one of its own.
const scratch = Buffer.allocUnsafeSlow(64 * 1024);

/**
 * Reads the file open at `fd` into a buffer from HEADER_ROOM on and says
 * where its bytes end. A read that fills less than it was offered ends it,
 * without a stat for the size first: should that be short of the file's
 * end, its blob id differs and the object store is read instead.
 */
function readAfterHeaderRoom(fd: number): { buffer: Buffer; end: number } {
  let buffer = scratch;
  let end = HEADER_ROOM;
  for (;;) {
    end += readSync(fd, buffer, end, buffer.length - end, null);
    if (end < buffer.length) return { buffer, end };
    const bigger = Buffer.allocUnsafe(buffer.length * 2);
    buffer.copy(bigger, 0, 0, end);
    buffer = bigger;
  }
}

function ignoreMissing(error: unknown): void {
  if (!isNotFound(error)) throw error;
}

// Whether there was a file to remove (deleting a path that has none is a no-op).
function unlinkQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch (error) {
    ignoreMissing(error);
    return false;
  }
}

// Metadata calls and small reads are synchronous on purpose: they take
// microseconds, while each thread-pool round trip adds latency to every commit.
function readPrevious(file: string, relative: string): Previous {
  // Without a throw: every create asks about a file that is not there, and an error with its stack costs more than the lstat.
  const info = lstatSync(file, { throwIfNoEntry: false });
  if (info === undefined) return { kind: 'missing' };
  if (info.isSymbolicLink()) return { kind: 'link', target: readlinkSync(file) };
  if (info.isDirectory()) throw new AppError('conflict', `Cannot write "${relative}": it is a folder in the working tree.`);
  return { kind: 'file', data: readFileSync(file) };
}
