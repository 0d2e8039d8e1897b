// The server's `index.lock` is its commit journal: line 1 names the process
// that holds it (lock-owner.ts); each further line, written before the first
// file of its commit changes, says what that commit is doing. There are
// several when a burst of commits keeps the lock while their index write is
// pending (commit-writer.ts). A server killed meanwhile leaves them behind,
// and the next start reads them to finish or undo the last commit and bring
// the index up to date for the files of all of them (recover()). Git never
// reads a lock file's content.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { isNotFound } from '../../lib/errno.ts';
import { isOwnerRunning, parseOwnerLine } from './lock-owner.ts';
import type { LockOwner } from './lock-owner.ts';
import { isObjectId } from './objects.ts';
import { checkRepoPath } from './repo-paths.ts';

/** What an interrupted commit was doing. */
export interface CommitJournal {
  /** The branch ref it moves (`refs/heads/main`), or `HEAD` when detached. */
  ref: string;
  /** The commit the ref pointed to before; null on an unborn branch. */
  base: string | null;
  commit: string;
  /** Every path the commit writes: its new blob id, or null when it deletes the file. */
  files: Map<string, string | null>;
}

/** An `index.lock` as found at start: who made it, how old it is and, for the server's own, its journal. */
export type FoundLock =
  | { kind: 'none' }
  | { kind: 'foreign'; ageMs: number }
  /** `journals` in commit order; the last may be unfinished. */
  | { kind: 'own'; owner: LockOwner; journals: CommitJournal[] };

/** The journal line (ends in a newline). */
export function encodeJournal(journal: CommitJournal): string {
  const { files, ...rest } = journal;
  return `${JSON.stringify({ ...rest, files: Object.fromEntries(files) })}\n`;
}

/** Reads `index.lock`: absent, made by git or another tool, or the server's own with its journals (a line cut short is left out). */
export function readLockFile(lockPath: string, now = Date.now()): FoundLock {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return { kind: 'none' };
    throw error;
  }
  const [first, ...rest] = text.split('\n');
  const owner = parseOwnerLine(first);
  if (owner === undefined) return { kind: 'foreign', ageMs: now - statSync(lockPath).mtimeMs };
  return { kind: 'own', owner, journals: rest.flatMap((line) => decodeJournal(line) ?? []) };
}

/**
 * Removes an `index.lock` that a server which is gone held for a branch
 * move (its owner line and no journal), as CommitWriter.recover() would:
 * the recovery of the move runs first and needs the lock (git-cli/branch-moves.ts).
 */
export function removeDeadMoveLock(lockPath: string): void {
  const found = readLockFile(lockPath);
  if (found.kind === 'own' && found.journals.length === 0 && !isOwnerRunning(found.owner)) rmSync(lockPath, { force: true });
}

// A journal line cut short by the kill, or otherwise malformed, reads as
// none: it is written before the commit touches any file.
function decodeJournal(line: string): CommitJournal | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  // Journals of older versions also name a temp index; recovery no longer needs it.
  const { ref, base, commit, files } = value as Record<string, unknown>;
  if (typeof ref !== 'string' || !(ref === 'HEAD' || /^refs\/heads\/[^\0]+$/.test(ref)) || ref.includes('..')) return undefined;
  if (!(base === null || (typeof base === 'string' && isObjectId(base))) || typeof commit !== 'string' || !isObjectId(commit)) return undefined;
  if (typeof files !== 'object' || files === null) return undefined;
  const written = new Map<string, string | null>();
  for (const [file, oid] of Object.entries(files)) {
    if (!(oid === null || (typeof oid === 'string' && isObjectId(oid)))) return undefined;
    try {
      written.set(checkRepoPath(file), oid);
    } catch {
      return undefined;
    }
  }
  return { ref, base, commit, files: written };
}
