// Finishing a branch move that a kill interrupted after the branch moved
// (BranchMoves.recover()). The content folder is a developer's checkout, so
// only the paths that differ between the move's two commits are brought to
// the new one, as git's own checkout would: everything else a developer has
// not committed stays. Where the developer's bytes on such a path are neither
// the old commit's nor the new one's (their uncommitted edit, or a file the
// killed move left half written), they are kept aside under
// `.git/cms-recovered/<time>/` before the path is set to the new commit:
// the server never throws away bytes it did not write.
import { lstat, mkdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { isNotFound } from '../../lib/errno.ts';
import { gitTempPath } from '../git/refs.ts';

/** Runs git on the repository with the listed exit codes as answers; `env` adds to its environment. */
export type RunGit = (args: string[], options?: { okCodes?: number[]; env?: Record<string, string>; input?: string }) => Promise<{ stdout: string; code: number }>;

/** A developer's file on a path the move changed, moved aside: both relative to the content folder. */
export interface KeptAside {
  path: string;
  copy: string;
}

// One path the move changed: its entry in each commit (undefined where the commit lacks it).
interface Change {
  path: string;
  from?: TreeEntry;
  to?: TreeEntry;
}

interface TreeEntry {
  mode: string;
  oid: string;
}

/**
 * Sets the paths that differ between `from` and `to` to `to`'s content, in
 * the working tree and the index (.git/index); the branch already points at
 * `to`. Returns the developer's files it kept aside.
 */
export async function finishInterruptedMove(git: RunGit, root: string, from: string, to: string): Promise<KeptAside[]> {
  const changes = await changedPaths(git, from, to);
  if (changes.length === 0) return [];
  const gitdir = path.join(root, '.git');
  const fromIndex = await indexOf(git, gitdir, changes, (change) => change.from);
  const toIndex = await indexOf(git, gitdir, changes, (change) => change.to);
  try {
    const notFrom = await differing(git, root, changes, fromIndex, (change) => change.from);
    const notTo = await differing(git, root, changes, toIndex, (change) => change.to);
    const kept: KeptAside[] = [];
    const stamp = new Date().toISOString().replace(/:/g, '-');
    for (const change of changes.filter((change) => notTo.has(change.path))) {
      // A file still at `from` is the move's to replace; anything else is the developer's (or a half-written file) and is kept.
      if (notFrom.has(change.path) && (await kindAt(root, change.path)) !== 'none') kept.push(await keepAside(root, change.path, stamp));
      if (change.to === undefined) await removeFile(root, change.path);
    }
    const toWrite = changes.filter((change) => change.to !== undefined && notTo.has(change.path)).map((change) => change.path);
    // A folder where `to` has a file would go with everything in it (checkout-index -f): what is left in it after the removals is the developer's.
    for (const file of toWrite) if ((await kindAt(root, file)) === 'folder') kept.push(await keepAside(root, file, stamp));
    if (toWrite.length > 0) await git(['checkout-index', '-f', '-z', '--stdin'], { env: { GIT_INDEX_FILE: toIndex }, input: nulJoined(toWrite) });
    // The index takes `to`'s entries for these paths only: whatever the developer staged elsewhere stays staged. (No --no-refresh: it needs git 2.35; pathspec files need 2.26.)
    await git(['reset', '-q', to, '--pathspec-from-file=-', '--pathspec-file-nul'], { env: { GIT_LITERAL_PATHSPECS: '1' }, input: nulJoined(changes.map((change) => change.path)) });
    await git(['update-index', '-q', '--refresh'], { okCodes: [1] });
    return kept;
  } finally {
    await rm(fromIndex, { force: true });
    await rm(toIndex, { force: true });
  }
}

async function changedPaths(git: RunGit, from: string, to: string): Promise<Change[]> {
  const fields = (await git(['diff-tree', '-r', '-z', '--no-renames', from, to])).stdout.split('\0');
  const changes: Change[] = [];
  // Each change is ":<mode> <mode> <oid> <oid> <status>" then its path.
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [fromMode, toMode, fromOid, toOid] = fields[i].slice(1).split(' ');
    const entry = (mode: string, oid: string) => (/^0+$/.test(mode) ? undefined : { mode, oid });
    changes.push({ path: fields[i + 1], from: entry(fromMode, fromOid), to: entry(toMode, toOid) });
  }
  return changes;
}

// A temp index holding only the changed paths as one side has them, for git to compare with the working tree and to write from.
async function indexOf(git: RunGit, gitdir: string, changes: Change[], side: (change: Change) => TreeEntry | undefined): Promise<string> {
  const file = gitTempPath(gitdir);
  const lines = changes.flatMap((change) => {
    const entry = side(change);
    return entry === undefined ? [] : [`${entry.mode} ${entry.oid}\t${change.path}`];
  });
  await git(['update-index', '-z', '--index-info'], { env: { GIT_INDEX_FILE: file }, input: nulJoined(lines) });
  return file;
}

// The changed paths whose working tree differs from one side: git compares the files it has entries for (content, not stats); where the side has no file, any file but a directory differs.
async function differing(git: RunGit, root: string, changes: Change[], index: string, side: (change: Change) => TreeEntry | undefined): Promise<Set<string>> {
  const out = (await git(['diff', '--no-ext-diff', '--no-renames', '--name-only', '-z'], { env: { GIT_INDEX_FILE: index } })).stdout;
  const paths = new Set(out.split('\0').filter(Boolean));
  for (const change of changes) if (side(change) === undefined && (await kindAt(root, change.path)) === 'file') paths.add(change.path);
  return paths;
}

// What is at `file` in the working tree: a folder, a file (or link, or anything else), or nothing (also when a parent is a file).
async function kindAt(root: string, file: string): Promise<'none' | 'folder' | 'file'> {
  try {
    return (await lstat(path.join(root, file))).isDirectory() ? 'folder' : 'file';
  } catch (error) {
    if (isNotFound(error)) return 'none';
    throw error;
  }
}

// Moves what is at `file` (the developer's file or folder) under .git/cms-recovered/<stamp>/, keeping its path.
async function keepAside(root: string, file: string, stamp: string): Promise<KeptAside> {
  const copy = path.join('.git', 'cms-recovered', stamp, file);
  await mkdir(path.dirname(path.join(root, copy)), { recursive: true });
  await rename(path.join(root, file), path.join(root, copy));
  return { path: file, copy };
}

// Removes a file the move deletes, and the folders it leaves empty, as git does.
async function removeFile(root: string, file: string): Promise<void> {
  if ((await kindAt(root, file)) !== 'file') return;
  await rm(path.join(root, file), { force: true });
  for (let folder = path.dirname(file); folder !== '.'; folder = path.dirname(folder)) {
    if (!(await rmdir(path.join(root, folder)).then(() => true, () => false))) return;
  }
}

function nulJoined(items: string[]): string {
  return items.map((item) => `${item}\0`).join('');
}
