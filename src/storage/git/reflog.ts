// Reflogs (`.git/logs/HEAD`, `.git/logs/refs/heads/<branch>`): one line per
// ref update, as git writes them, so `git reflog` and `HEAD@{1}` work on the
// server's commits and a developer can find any commit the branch pointed to.
import { appendFileSync, existsSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { isNotFound } from '../../lib/errno.ts';
import { formatIdentity } from './commit-object.ts';
import type { Identity } from './commit-object.ts';

/** One ref update to record. */
export interface ReflogEntry {
  /** The commit the ref pointed to before; undefined when it was created. */
  from: string | undefined;
  to: string;
  /** Who made the update (the committer). */
  identity: Identity;
  /** What happened, e.g. `commit: Update posts/hello` (one line). */
  message: string;
}

const ZERO_OID = '0'.repeat(40);

/**
 * Appends `entry` to the reflog of each ref in `refs` (e.g. the branch and
 * HEAD). With `create` false, only reflogs that already exist are extended
 * (git's core.logAllRefUpdates = false). Call it while holding the ref's lock,
 * before the lock is renamed into place, as git does.
 */
export function appendReflogs(gitdir: string, refs: string[], entry: ReflogEntry, create: boolean): void {
  const message = entry.message.replace(/\s+/g, ' ').trim();
  const line = `${entry.from ?? ZERO_OID} ${entry.to} ${formatIdentity(entry.identity)}\t${message}\n`;
  for (const ref of refs) {
    const file = logFileOf(gitdir, ref);
    if (!create && !existsSync(file)) continue;
    try {
      appendFileSync(file, line);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(file, line);
    }
  }
}

/**
 * Removes the last line of each reflog when it records a move to `oid`: the
 * trace of an update whose ref was never renamed into place (a kill between
 * the two). Anything else is left as it is.
 */
export function dropLastReflogEntry(gitdir: string, refs: string[], oid: string): void {
  for (const ref of refs) {
    const file = logFileOf(gitdir, ref);
    let text: string;
    try {
      text = readFileSync(file, 'latin1');
    } catch (error) {
      if (isNotFound(error)) continue;
      throw error;
    }
    const start = text.lastIndexOf('\n', text.length - 2) + 1;
    if (text.slice(start + 41, start + 81) === oid) truncateSync(file, start);
  }
}

/** The reflogs an update of HEAD's `ref` extends: the branch's and HEAD's (only HEAD's when detached). */
export function headReflogs(ref: string): string[] {
  return ref === 'HEAD' ? ['HEAD'] : [ref, 'HEAD'];
}

function logFileOf(gitdir: string, ref: string): string {
  return path.join(gitdir, 'logs', ref);
}
