// The git CLI in a test's content repo: reading what the server committed
// (counts, authors, trailers, changed paths, status) and making commits "from
// outside" the way a developer would, with plain git commands.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { isOwnerRunning, parseOwnerLine } from '../../src/storage/git/lock-owner.ts';

const execFileAsync = promisify(execFile);

// Hermetic git: no user or system config, no optional locks (so that reading
// `git status` never rewrites the index the server also uses), no repository
// inherited from the environment. Also the environment tests give the server's own git runner.
export const GIT_ENV: NodeJS.ProcessEnv = (() => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_CEILING_DIRECTORIES']) delete env[key];
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
})();

/** The identity external commits are made with. */
export const EXTERNAL_AUTHOR = { name: 'dev', email: 'dev@example.com' };

/** The content repo of a data root (`<dataDir>/content`). */
export function contentRepoOf(dataDir: string): string {
  return path.join(dataDir, 'content');
}

/**
 * Runs `git <args>` in `repo` and returns its stdout; rejects with git's
 * stderr on a non-zero exit. Like a developer who retries, it first waits
 * for the index write a burst of server commits left pending (the server's
 * index.lock, storage/index-write-behind.ts); a lock git, a test or a killed
 * server left is not waited for.
 */
export async function git(repo: string, args: string[]): Promise<string> {
  await serverIndexSettled(repo);
  const { stdout } = await execFileAsync('git', args, { cwd: repo, env: GIT_ENV, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/**
 * Waits until no running server holds index.lock for a pending index write
 * (storage/index-write-behind.ts writes it within half a second of a burst).
 * A lock git or a test made, or one a killed server left for the next start
 * to settle, is not waited for: waiting would not make it go.
 * A lock still held after `timeoutMs` is a failure, not a settled repo: the
 * caller would otherwise read a stale index or have git refuse on the lock,
 * and a test about a settled repo could pass without the server settling it.
 * The deadline guards against a hang on a loaded machine; keep it generous.
 */
export async function serverIndexSettled(repo: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const lock = path.join(repo, '.git', 'index.lock');
  for (const deadline = Date.now() + timeoutMs; ; await sleep(5)) {
    const ownerText = (await readFile(lock, 'utf8').catch(() => '')).split('\n')[0];
    const owner = parseOwnerLine(ownerText);
    if (owner === undefined || !isOwnerRunning(owner)) return;
    if (Date.now() >= deadline) throw new Error(`serverIndexSettled gave up after ${timeoutMs} ms: the server still holds ${lock} (${ownerText})`);
  }
}

/** Number of commits reachable from HEAD. */
export async function commitCount(repo: string): Promise<number> {
  return Number((await git(repo, ['rev-list', '--count', 'HEAD'])).trim());
}

/** The commit HEAD points at. */
export async function headOid(repo: string): Promise<string> {
  return (await git(repo, ['rev-parse', 'HEAD'])).trim();
}

/** `git status --porcelain` including untracked files; '' when the tree and index match HEAD. */
export async function statusPorcelain(repo: string): Promise<string> {
  return git(repo, ['status', '--porcelain', '--untracked-files=all']);
}

export interface CommitInfo {
  oid: string;
  authorName: string;
  authorEmail: string;
  subject: string;
  /** Trailers by key (`Workspace: default` → { Workspace: 'default' }). */
  trailers: Record<string, string>;
}

/** Author, subject and trailers of one commit (HEAD by default). */
export async function commitInfo(repo: string, rev = 'HEAD'): Promise<CommitInfo> {
  const out = await git(repo, ['log', '-1', '--format=%H%x00%an%x00%ae%x00%s%x00%(trailers:only,unfold)', rev]);
  const [oid, authorName, authorEmail, subject, trailerText] = out.split('\0');
  const trailers: Record<string, string> = {};
  for (const line of trailerText.split('\n')) {
    const match = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line.trim());
    if (match) trailers[match[1]] = match[2];
  }
  return { oid, authorName, authorEmail, subject, trailers };
}

export interface ChangedFile {
  /** git's letter: A, M or D (renames are reported as D + A). */
  status: string;
  path: string;
}

/** The files one commit changed against its first parent, sorted by path. */
export async function changedFiles(repo: string, rev = 'HEAD'): Promise<ChangedFile[]> {
  const out = await git(repo, ['show', '--name-status', '--no-renames', '--format=', rev]);
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [status, file] = line.split('\t');
      return { status, path: file };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** Every path tracked at `rev`, sorted. */
export async function trackedFiles(repo: string, rev = 'HEAD'): Promise<string[]> {
  const out = await git(repo, ['ls-tree', '-r', '--name-only', rev]);
  return out.split('\n').filter((line) => line !== '').sort();
}

/** A file's content at `rev` (`git show rev:path`). */
export async function fileAt(repo: string, file: string, rev = 'HEAD'): Promise<string> {
  return git(repo, ['show', `${rev}:${file}`]);
}

/** A file's bytes at `rev` (binary files, which fileAt() would decode as text). */
export async function bytesAt(repo: string, file: string, rev = 'HEAD'): Promise<Buffer> {
  await serverIndexSettled(repo);
  const { stdout } = await execFileAsync('git', ['show', `${rev}:${file}`], { cwd: repo, env: GIT_ENV, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Runs `git commit <args>` in `repo` as the `dev` identity, like a developer; returns its stdout. */
export async function commitByHand(repo: string, args: string[]): Promise<string> {
  return git(repo, ['-c', `user.name=${EXTERNAL_AUTHOR.name}`, '-c', `user.email=${EXTERNAL_AUTHOR.email}`, 'commit', ...args]);
}

export interface ExternalChange {
  /** Files to write (path relative to the repo → text). */
  write?: Record<string, string>;
  /** Files to remove with `git rm`. */
  remove?: string[];
}

/**
 * Writes and removes files in the content repo and commits them with the git
 * CLI as the `dev` identity, like a developer working in a clone. Returns the new HEAD.
 */
export async function externalCommit(repo: string, change: ExternalChange, message: string): Promise<string> {
  const written = Object.entries(change.write ?? {});
  for (const [file, text] of written) {
    const target = path.join(repo, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  if (written.length > 0) await git(repo, ['add', '--', ...written.map(([file]) => file)]);
  if (change.remove?.length) await git(repo, ['rm', '-q', '--', ...change.remove]);
  await commitByHand(repo, ['-q', '-m', message]);
  return headOid(repo);
}
