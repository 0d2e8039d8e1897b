// Who holds a git lock file the server created: the first line of its own
// `index.lock` names the process (pid, its start time, the host), so a server
// starting after a kill -9 can tell its dead predecessor's lock from one a
// live git command holds. Git never reads a lock file's content.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { errnoCode } from '../../lib/errno.ts';

/** The process that created a lock. */
export interface LockOwner {
  pid: number;
  /** The process's start time in clock ticks after boot (Linux), '' where unknown. */
  start: string;
  host: string;
}

const OWNER_LINE = /^git-cms pid=(\d+) start=(\d*) host=(\S*)$/;

let ownLine: string | undefined;

/** The owner line this process writes into its locks (ends in a newline). */
export function ownerLine(): string {
  ownLine ??= `git-cms pid=${process.pid} start=${startTimeOf(process.pid)} host=${hostLabel()}\n`;
  return ownLine;
}

/** The owner named by a lock file's first line; undefined for a lock git or another tool made. */
export function parseOwnerLine(line: string): LockOwner | undefined {
  const match = OWNER_LINE.exec(line);
  return match ? { pid: Number(match[1]), start: match[2], host: match[3] } : undefined;
}

/**
 * Whether the owner may still be running. Only a process on this host that
 * is gone, or whose pid now belongs to a process started at another time, is
 * known to be dead; anything uncertain counts as running.
 */
export function isOwnerRunning(owner: LockOwner): boolean {
  if (owner.host !== hostLabel()) return true;
  if (owner.pid === process.pid) return owner.start === startTimeOf(process.pid);
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
  const start = startTimeOf(owner.pid);
  return owner.start === '' || start === '' || start === owner.start;
}

// Field 22 of /proc/<pid>/stat; the command name before it may hold spaces and parentheses.
function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function hostLabel(): string {
  return os.hostname().replace(/\s+/g, '_');
}
