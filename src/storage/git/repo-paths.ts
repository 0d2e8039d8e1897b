// The path rules of the content repository: which repo-relative paths a
// commit may write or a read may name, and how one commit's changes are
// checked together. Nothing here touches the disk or git.
import path from 'node:path';
import { AppError } from '../../errors/app-error.ts';
import { relativePathProblem } from '../safe-path.ts';
import type { FileWrite } from './working-tree.ts';

/** One file to write (`content`) or delete (`null`); `path` is posix and relative to the repo root. */
export interface FileChange {
  path: string;
  content: string | Uint8Array | null;
}

// Segments of ASCII letters, digits, `_`, `-` and `.` that do not start
// with a dot: what nearly every path is, and safe by every rule below (no
// dot segment, nothing unicode folds, not `.git` nor `git~1`), so such a
// path takes one test instead of them all.
const PLAIN_PATH = /^[\w-][\w.-]{0,254}(?:\/[\w-][\w.-]{0,254})*$/;

/** A repo-relative path that checkRepoPath() has passed. */
export type RepoPath = string & { readonly checkedRepoPath: unique symbol };

/**
 * Returns `file` when it is a safe repo-relative path outside `.git`.
 * Throws invalid_request otherwise.
 */
export function checkRepoPath(file: string): RepoPath {
  if (PLAIN_PATH.test(file)) return file as RepoPath;
  const problem = relativePathProblem(file);
  if (problem !== undefined) throw new AppError('invalid_request', `The path ${JSON.stringify(String(file).slice(0, 200))} is not allowed: ${problem}.`);
  if (file.split('/').some(isGitFolder)) {
    throw new AppError('invalid_request', `The path "${file}" is inside the repository's .git folder.`);
  }
  return file as RepoPath;
}

/**
 * Where a checked path lies under the repository's root (absolute and
 * resolved): what resolveInside() answers for it, without checking it a
 * second time. A start reads a hundred thousand paths this way. A checked
 * path has no `.`, `..` or empty segment, so on posix nothing needs
 * normalizing.
 */
export function pathInRepo(root: string, file: RepoPath): string {
  return path.sep === '/' && root !== '/' ? `${root}/${file}` : path.join(root, file);
}

/**
 * Checks one commit's changes (each path safe, none twice, none both a file
 * and another's folder) and returns them as bytes to write. Throws invalid_request.
 */
export function toFileWrites(changes: FileChange[]): FileWrite[] {
  const paths = new Set<string>();
  for (const change of changes) {
    checkRepoPath(change.path);
    if (paths.has(change.path)) throw new AppError('invalid_request', `The path "${change.path}" appears twice in one commit.`);
    paths.add(change.path);
  }
  for (const file of paths) {
    for (let slash = file.indexOf('/'); slash >= 0; slash = file.indexOf('/', slash + 1)) {
      if (paths.has(file.slice(0, slash))) {
        throw new AppError('invalid_request', `The paths "${file.slice(0, slash)}" and "${file}" cannot both be files.`);
      }
    }
  }
  return changes.map(({ path: file, content }) => ({
    path: file,
    data: content === null ? null : typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content),
  }));
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// Repo paths must never reach into .git (any case, as case-insensitive file
// systems and git itself treat `.GIT` like `.git`, and Windows its 8.3 name).
function isGitFolder(segment: string): boolean {
  // NFKC leaves ASCII as it is: a printable ASCII name that starts with neither `.` nor `g` cannot fold to either.
  if (PRINTABLE_ASCII.test(segment) && !/^[.gG]/.test(segment)) return false;
  const folded = segment.normalize('NFKC').toLowerCase().replace(/[. ]+$/, '');
  return folded === '.git' || folded === 'git~1';
}
