// HEAD and branch refs, read cheaply (one or two small files, no git
// command) and updated with git's own lock-file protocol, so the server and
// a developer's git CLI never overwrite each other's commits silently.
import { closeSync, fstatSync, ftruncateSync, linkSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../errors/app-error.ts';
import { errnoCode, isNotFound } from '../../lib/errno.ts';
import { filesNotOpen } from '../../lib/process-tree.ts';
import { tempSuffix } from '../../lib/temp-suffix.ts';
import { linkQuietly, removeQuietly, staleFiles } from '../atomic-write.ts';
import { appendReflogs, type ReflogEntry } from './reflog.ts';

/** Where HEAD points: a branch ref (`refs/heads/main`) or `HEAD` itself when detached. */
export interface HeadState {
  ref: string;
  /** The commit HEAD resolves to; undefined on an unborn branch. */
  oid: string | undefined;
}

/** Options of updateRef(). */
export interface RefUpdateOptions {
  /** How long to wait for a lock another git process holds (ms). */
  waitMs?: number;
  /** The reflog line to write for the update, and whether missing reflogs are created. */
  reflog?: { refs: string[]; entry: ReflogEntry; create: boolean };
}

const OID = /^[0-9a-f]{40}$/;
/** How long a writer waits for another git process's lock by default. */
export const LOCK_WAIT_MS = 3000;
const LOCK_POLL_MS = 15;
const SYMREF_DEPTH = 5;
const STALE_TEMP_AGE_MS = 60_000;
// Ref updates write the new value into this file and link it into place as
// the lock; the replaced ref file becomes the next spare (linkQuietly() before the rename). On
// ext4 (auto_da_alloc), renaming a freshly written file over another first
// forces the new file's block allocation and writeback, a millisecond or more
// on a busy disk, and each new file allocates an inode; two inodes taking
// turns cost neither. Readers never see a partial ref: the lock is complete
// before it is linked, and the rename replaces the ref whole.
const REF_SPARE = 'cms-ref-spare';
/** Temp files the server creates in `.git` (lock contents, a new index); a crash may leave them behind. */
export const GIT_TEMP_FILE = /^cms-[0-9a-f]{12}\.tmp$/;
// git's own lock on such a temp file: a copy of the index that a git command
// rewrites for the server (GIT_INDEX_FILE, CommitWriter.holdIndex()).
const GIT_TEMP_INDEX_LOCK = /^cms-[0-9a-f]{12}\.tmp\.lock$/;

// Refs are tiny files read on every commit and every watch tick: synchronous
// reads take microseconds, while a thread-pool round trip costs far more.

/** Reads HEAD and the commit it resolves to. Throws `internal_error` when HEAD or its ref is damaged. */
export async function readHead(gitdir: string): Promise<HeadState> {
  const head = readFileSync(path.join(gitdir, 'HEAD'), 'utf8').trim();
  if (OID.test(head)) return { ref: 'HEAD', oid: head };
  if (!/^ref: refs\/\S+$/.test(head)) throw new AppError('internal_error', 'The content repository is damaged: its HEAD names neither a branch nor a commit.');
  const ref = head.slice(5).trim();
  return { ref, oid: await readRef(gitdir, ref) };
}

/**
 * Resolves a full ref name (loose file first, then packed-refs); undefined
 * when absent. Throws `internal_error` naming the ref when its file holds
 * anything but a commit id or a symbolic ref: a damaged ref is never read as
 * a missing one, which would start a new history.
 */
export async function readRef(gitdir: string, ref: string, depth = 0): Promise<string | undefined> {
  let value: string;
  try {
    value = readFileSync(path.join(gitdir, ref), 'utf8').trim();
  } catch (error) {
    if (!isNotFound(error) && errnoCode(error) !== 'EISDIR') throw error;
    return readPackedRef(gitdir, ref);
  }
  if (OID.test(value)) return value;
  if (value.startsWith('ref: ') && depth < SYMREF_DEPTH) return readRef(gitdir, value.slice(5).trim(), depth + 1);
  throw new AppError('internal_error', `The content repository is damaged: the ref ${ref} does not hold a commit id.`);
}

/**
 * Moves `ref` from `expected` to `next` (compare-and-swap) under `<ref>.lock`,
 * writing the reflog line first as git does. The lock is born holding `next`,
 * so a crash leaves a lock that names the commit it was for. Throws
 * `conflict` when another process holds the lock or moved the ref.
 */
export async function updateRef(gitdir: string, ref: string, next: string, expected: string | undefined, options: RefUpdateOptions = {}): Promise<void> {
  const file = path.join(gitdir, ref);
  const spare = path.join(gitdir, REF_SPARE);
  writeSpare(spare, `${next}\n`);
  let lock: HeldLock;
  try {
    lock = (await placeLockPatiently(spare, `${file}.lock`, `${next}\n`, options.waitMs)).lock;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    // The ref's folder (refs/heads/<prefix>/) does not exist yet.
    mkdirSync(path.dirname(file), { recursive: true });
    lock = (await placeLockPatiently(spare, `${file}.lock`, `${next}\n`, options.waitMs)).lock;
  } finally {
    removeQuietly(spare);
  }
  try {
    if ((await readRef(gitdir, ref)) !== expected) {
      throw new AppError('conflict', 'The content repository changed while the server was writing; try again.');
    }
    if (options.reflog !== undefined) appendReflogs(gitdir, options.reflog.refs, options.reflog.entry, options.reflog.create);
    // The ref file about to be replaced stays linked as the next spare instead
    // of being freed; without a ref file or hard links, the next update creates one.
    linkQuietly(file, spare);
    renameSync(lock.path, file);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** A git `.lock` file this process created. */
export interface HeldLock {
  path: string;
  /** Removes the lock file without committing it; never throws. */
  release(): void;
  /**
   * Whether the lock file is still the one this process created: false once
   * it was deleted by hand (git's advice when a lock is in its way), also
   * when another process has created its own since.
   */
  isHeld(): boolean;
  /** Lets go of a lock that is not held any more (isHeld() false), leaving its path alone. */
  abandon(): void;
}

/**
 * Creates a git lock file (`index.lock`) exclusively with `content` already
 * in it (a temp file in `gitdir` hard-linked into place), waiting a while
 * (`waitMs`) when another git process holds it. Throws `conflict` when it
 * stays taken. The file stays open until release() or abandon(): its inode
 * number cannot be reused meanwhile, so isHeld() is one stat of the lock
 * path (the same inode), not a read of its content, on every commit that
 * keeps the lock.
 */
export async function acquireLock(gitdir: string, lockPath: string, content: string, waitMs = LOCK_WAIT_MS): Promise<HeldLock> {
  const temp = gitTempPath(gitdir);
  const fd = openSync(temp, 'wx', 0o644);
  let placed: { lock: HeldLock; linked: boolean };
  try {
    writeFileSync(fd, content);
    placed = await placeLockPatiently(temp, lockPath, content, waitMs);
  } catch (error) {
    closeSync(fd);
    throw error;
  } finally {
    removeQuietly(temp);
  }
  const { lock, linked } = placed;
  // Without hard links the file written is another one: its content tells.
  const ino = fstatSync(fd).ino;
  let open = true;
  const isHeld = () => open && (linked ? statSync(lockPath, { throwIfNoEntry: false })?.ino === ino : lock.isHeld());
  const abandon = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    path: lockPath,
    isHeld,
    release: () => {
      lock.release();
      abandon();
    },
    abandon,
  };
}

// Links `source` into place as the lock, retrying while another process holds it.
async function placeLockPatiently(source: string, lockPath: string, content: string, waitMs = LOCK_WAIT_MS): Promise<{ lock: HeldLock; linked: boolean }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const linked = placeLock(source, lockPath, content);
      return { lock: { path: lockPath, release: () => removeQuietly(lockPath), isHeld: () => beginsWith(lockPath, content), abandon: () => undefined }, linked };
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
      if (Date.now() > deadline) {
        throw new AppError('conflict', `The content repository is locked by another git process (${path.basename(lockPath)}); try again.`, {
          details: { retryAfter: 1 },
        });
      }
      await sleep(LOCK_POLL_MS);
    }
  }
}

// Writes a ref's next value into the spare file, whose disk block was
// allocated by an earlier update, creating it when there is none. A spare
// that is also linked elsewhere (a crash between keeping the ref aside and the rename
// left it as the ref itself) is never written into: it is replaced.
function writeSpare(spare: string, content: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(spare, 'r+');
    if (fstatSync(fd).nlink !== 1) {
      closeSync(fd);
      fd = undefined;
      unlinkSync(spare);
    }
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    if (!isNotFound(error)) throw error;
    fd = undefined;
  }
  fd ??= openSync(spare, 'wx', 0o644);
  try {
    const data = Buffer.from(content, 'latin1');
    if (writeSync(fd, data, 0, data.length, 0) !== data.length) throw new Error('The disk took only part of a ref.');
    if (fstatSync(fd).size > data.length) ftruncateSync(fd, data.length);
  } finally {
    closeSync(fd);
  }
}

/** A fresh temp file name in `.git` that start-up recovery recognises (GIT_TEMP_FILE). */
export function gitTempPath(gitdir: string): string {
  return path.join(gitdir, `cms-${tempSuffix()}.tmp`);
}

/**
 * Removes the server's temp files from `.git` (GIT_TEMP_FILE) older than
 * `minAgeMs`: leftovers of a process that died between creating and renaming
 * one. A younger file may belong to a commit in progress.
 */
export function removeStaleGitTemps(gitdir: string, minAgeMs = STALE_TEMP_AGE_MS, now = Date.now()): void {
  for (const file of staleFiles(gitdir, (name) => GIT_TEMP_FILE.test(name), minAgeMs, now)) removeQuietly(file);
}

/**
 * Removes git's locks on the server's temp index copies that no process has
 * open, with the copy each was on: leftovers of a git command killed while
 * it rewrote one (a push's read-tree). git holds a lock file open from its
 * creation until it renames it into place, so one that is open belongs to a
 * git still running and is left alone, as git's own rule says.
 */
export function removeDeadTempIndexLocks(gitdir: string): void {
  for (const lock of filesNotOpen(staleFiles(gitdir, (name) => GIT_TEMP_INDEX_LOCK.test(name), 0))) {
    removeQuietly(lock);
    removeQuietly(lock.slice(0, -'.lock'.length));
  }
}

// link() fails with EEXIST like an exclusive create, and the lock never
// exists without its content. File systems without hard links get an
// exclusive create followed by the write. Returns whether it linked.
function placeLock(temp: string, lockPath: string, content: string): boolean {
  try {
    linkSync(temp, lockPath);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    writeFileSync(lockPath, content, { flag: 'wx', mode: 0o644 });
    return false;
  }
}

function beginsWith(file: string, content: string): boolean {
  const expected = Buffer.from(content);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const found = Buffer.alloc(expected.length);
    return readSync(fd, found, 0, found.length, 0) === found.length && found.equals(expected);
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function readPackedRef(gitdir: string, ref: string): Promise<string | undefined> {
  let text: string;
  try {
    text = readFileSync(path.join(gitdir, 'packed-refs'), 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space === 40 && line.slice(41).trim() === ref) return line.slice(0, 40);
  }
  return undefined;
}
