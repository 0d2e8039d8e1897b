// HEAD and branch refs, read cheaply (one or two small files, no git
// command) and updated with git's own lock-file protocol, so the server and
// a developer's git CLI never overwrite each other's commits silently.
import type { FileHandle } from 'node:fs/promises';
import { readFileSync, renameSync } from 'node:fs';
import { mkdir, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../errors/app-error.ts';
import { errnoCode, isNotFound } from '../../lib/errno.ts';

/** Where HEAD points: a branch ref (`refs/heads/main`) or `HEAD` itself when detached. */
export interface HeadState {
  ref: string;
  /** The commit HEAD resolves to; undefined on an unborn branch. */
  oid: string | undefined;
}

const OID = /^[0-9a-f]{40}$/;
/** How long a writer waits for another git process's lock by default. */
export const LOCK_WAIT_MS = 3000;
const LOCK_POLL_MS = 15;

// Refs are tiny files read on every commit and every watch tick: synchronous
// reads take microseconds, while a thread-pool round trip costs far more.

/** Reads HEAD and the commit it resolves to. Throws when HEAD is unreadable. */
export async function readHead(gitdir: string): Promise<HeadState> {
  const head = readFileSync(path.join(gitdir, 'HEAD'), 'utf8').trim();
  if (OID.test(head)) return { ref: 'HEAD', oid: head };
  if (!head.startsWith('ref: ')) throw new Error('The content repository has an unreadable HEAD.');
  const ref = head.slice(5).trim();
  return { ref, oid: await readRef(gitdir, ref) };
}

/** Resolves a full ref name (loose file first, then packed-refs); undefined when absent. */
export async function readRef(gitdir: string, ref: string): Promise<string | undefined> {
  try {
    const value = readFileSync(path.join(gitdir, ref), 'utf8').trim();
    if (OID.test(value)) return value;
    if (value.startsWith('ref: ')) return readRef(gitdir, value.slice(5).trim());
  } catch (error) {
    if (!isNotFound(error) && errnoCode(error) !== 'EISDIR') throw error;
  }
  return readPackedRef(gitdir, ref);
}

/**
 * Moves `ref` from `expected` to `next` (compare-and-swap) under `<ref>.lock`.
 * Throws `conflict` when another process holds the lock or moved the ref.
 */
export async function updateRef(gitdir: string, ref: string, next: string, expected: string | undefined, waitMs = LOCK_WAIT_MS): Promise<void> {
  const file = path.join(gitdir, ref);
  await mkdir(path.dirname(file), { recursive: true });
  const lock = await acquireLock(`${file}.lock`, waitMs);
  try {
    if ((await readRef(gitdir, ref)) !== expected) {
      throw new AppError('conflict', 'The content repository changed while the server was writing; try again.');
    }
    await lock.handle.writeFile(`${next}\n`);
    await lock.handle.close();
    renameSync(lock.path, file);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** A git `.lock` file this process created and holds open. */
export interface HeldLock {
  path: string;
  handle: FileHandle;
  /** Closes and removes the lock file without committing it. */
  release(): Promise<void>;
}

/**
 * Creates a git lock file (`index.lock`, `<ref>.lock`) exclusively, waiting a
 * while (`waitMs`) another git process holds it. Throws `conflict` when it
 * stays taken (a crashed git process leaves it behind: remove it by hand).
 */
export async function acquireLock(lockPath: string, waitMs = LOCK_WAIT_MS): Promise<HeldLock> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o644);
      const release = async (): Promise<void> => {
        await handle.close().catch(() => undefined);
        await unlink(lockPath).catch(() => undefined);
      };
      return { path: lockPath, handle, release };
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
