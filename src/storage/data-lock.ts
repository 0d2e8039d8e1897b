// The data root's owner lock: `state/cms.lock` names the process (the owner
// line of git/lock-owner.ts) that may change the state folder. A server holds
// it from start to exit, because it keeps users and tokens in memory and
// writes them whole; the `cms user` and `cms token` commands hold it while
// they write. A lock whose owner is known to be dead (kill -9) is taken over.
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { StartupError } from '../errors/startup-error.ts';
import { errnoCode } from '../lib/errno.ts';
import { isOwnerRunning, ownerLine, parseOwnerLine, type LockOwner } from './git/lock-owner.ts';

/** The lock of one data root, held by this process until release(). */
export interface DataLock {
  release(): Promise<void>;
}

/** Another live process holds the lock: its owner line, or undefined when the file names none. */
interface HeldElsewhere {
  heldBy: LockOwner | undefined;
  file: string;
}

const LOCK_FILE = 'cms.lock';

/**
 * Takes the lock of the data root `dataDir` (creating `state/` when missing).
 * Returns the lock, or who holds it. This process counts as its own owner, so
 * tests may start servers one after another in one process. Throws file system errors.
 */
async function acquireDataLock(dataDir: string): Promise<DataLock | HeldElsewhere> {
  const folder = path.join(dataDir, 'state');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (await createExclusive(file)) return { release: () => releaseLock(file) };
    const text = await readFile(file, 'utf8').catch(() => '');
    const owner = parseOwnerLine(text.split('\n')[0]);
    const stale = owner !== undefined && (owner.pid === process.pid || !isOwnerRunning(owner));
    if (!stale) return { heldBy: owner, file };
    await unlink(file).catch(() => undefined);
  }
  return { heldBy: undefined, file };
}

/**
 * Creates the data root `dir` when missing. Returns why it cannot be one, in
 * words that follow its name ("is a file, not a folder"), or undefined when it can.
 */
async function prepareDataRoot(dir: string): Promise<string | undefined> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') return 'is a file, not a folder';
    if (code === 'ENOTDIR') return 'lies inside a file, not a folder';
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'is read-only for this user; the server needs write access to it';
    throw error;
  }
}

/**
 * Creates the data root `dataDir` when missing and takes its lock. Throws
 * StartupError naming the setting (`--data` or `CMS_DATA_DIR`) when it cannot
 * be a data root, or, when another live process holds it, naming the
 * process and then `whenHeld`: what the user can do (a command may say why
 * it needs the data root to itself).
 */
export async function lockDataRoot(dataDir: string, setting: string, whenHeld = 'stop it first, or delete that file if no git-cms runs there.'): Promise<DataLock> {
  const problem = await prepareDataRoot(dataDir);
  if (problem) throw new StartupError(`${setting} ${dataDir} ${problem}.`);
  const lock = await acquireDataLock(dataDir);
  if (isDataLock(lock)) return lock;
  const who = lock.heldBy ? `process ${lock.heldBy.pid} on ${lock.heldBy.host}` : 'another process';
  throw new StartupError(`${setting} ${dataDir} is in use by ${who} (${lock.file}): ${whenHeld}`);
}

/** Whether acquireDataLock() answered with the lock. */
function isDataLock(result: DataLock | HeldElsewhere): result is DataLock {
  return 'release' in result;
}

async function createExclusive(file: string): Promise<boolean> {
  try {
    const handle = await open(file, 'wx', 0o600);
    try {
      await handle.writeFile(ownerLine());
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
}

// Removed only while it still names this process: a successor may have taken over a lock we lost.
async function releaseLock(file: string): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => '');
  if (text === ownerLine()) await unlink(file).catch(() => undefined);
}
