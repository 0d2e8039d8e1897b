// A content repository as the files in its folder (its working tree), for
// `cms check`: the same listFiles/readFile/listFolders reads the server makes
// of HEAD, but of what is on disk, so a file can be checked before it is
// committed. Only regular files count (symlinks read as absent, like the
// server's reads); `.git` is never listed.
import { existsSync, statSync } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isNotFound } from '../lib/errno.ts';
import { GitRunner, type GitRunnerOptions } from './git-cli/git-runner.ts';
import { resolveInside } from './safe-path.ts';

/** The working tree of the content repository in `dir`. */
export class WorkingFolder {
  private constructor(readonly dir: string) {}

  /**
   * The content repository at `dir`: its `content/` folder when `dir` is a
   * data root (content/ holds a .git), otherwise `dir` itself (a clone).
   * Returns why it cannot be read, in words that follow its name, when `dir` is missing or a file.
   */
  static locate(dir: string): WorkingFolder | string {
    const root = path.resolve(dir);
    if (!existsSync(root)) return 'does not exist';
    if (!statSync(root).isDirectory()) return 'is a file, not a folder';
    const inner = path.join(root, 'content');
    return new WorkingFolder(existsSync(path.join(inner, '.git')) ? inner : root);
  }

  /** A regular file as utf8; undefined when there is none at `file`. Throws `invalid_request` for unsafe paths. */
  async readFile(file: string): Promise<string | undefined> {
    const absolute = resolveInside(this.dir, file);
    try {
      if (!(await lstat(absolute)).isFile()) return undefined;
      return await readFile(absolute, 'utf8');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Like readFile for each of `files`, in order. */
  async readFiles(files: string[]): Promise<(string | undefined)[]> {
    return Promise.all(files.map((file) => this.readFile(file)));
  }

  /** listFiles() as a commit's tree lists them, without blob ids: the files are read as they are. */
  async listFileIds(prefix: string): Promise<{ path: string }[]> {
    return (await this.listFiles(prefix)).map((file) => ({ path: file }));
  }

  /** readFiles() of what listFileIds() listed. */
  async readListed(files: readonly { path: string }[]): Promise<(string | undefined)[]> {
    return this.readFiles(files.map(({ path: file }) => file));
  }

  /** Every regular file under the folder `prefix` ('' for all): repo-relative, sorted; [] when missing. */
  async listFiles(prefix: string): Promise<string[]> {
    const entries = await this.entriesOf(prefix, true);
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(this.dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .filter((file) => file !== '.git' && !file.startsWith('.git/'))
      .sort();
  }

  /** The regular files directly in the folder `prefix`, not in its subfolders: repo-relative, sorted; [] when missing. */
  async listFilesIn(prefix: string): Promise<string[]> {
    const entries = await this.entriesOf(prefix, false);
    return entries.filter((entry) => entry.isFile()).map((entry) => (prefix === '' ? entry.name : `${prefix}/${entry.name}`)).sort();
  }

  /** The folders directly under `prefix` (names only, sorted; `.git` left out). */
  async listFolders(prefix: string): Promise<string[]> {
    const entries = await this.entriesOf(prefix, false);
    return entries.filter((entry) => entry.isDirectory() && entry.name !== '.git').map((entry) => entry.name).sort();
  }

  private async entriesOf(prefix: string, recursive: boolean) {
    try {
      return await readdir(resolveInside(this.dir, prefix), { withFileTypes: true, recursive });
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
  }
}

/** Why `since` cannot be compared with, for a message: no git, not a repository, or no such commit. */
export class UnknownCommitError extends Error {}

/**
 * The repo-relative paths that differ between commit `since` and the working
 * tree of the repository in `dir`: changed, added (untracked but not ignored)
 * and deleted ones. Throws UnknownCommitError when `since` names no commit there.
 */
export async function changedSince(options: GitRunnerOptions, dir: string, since: string): Promise<Set<string>> {
  const git = new GitRunner(options);
  const verify = await git.run(['-C', dir, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${since}^{commit}`], { okCodes: [1, 128] }).catch(() => undefined);
  if (verify === undefined) throw new UnknownCommitError('the git command could not be run');
  if (verify.code !== 0) throw new UnknownCommitError(`no commit "${since}" in ${dir}`);
  const commit = verify.stdout.toString('utf8').trim();
  const diff = await git.run(['-C', dir, 'diff', '--name-only', '--no-renames', '-z', commit, '--']);
  const untracked = await git.run(['-C', dir, 'ls-files', '--others', '--exclude-standard', '-z']);
  const names = `${diff.stdout.toString('utf8')}${untracked.stdout.toString('utf8')}`.split('\0');
  return new Set(names.filter((name) => name !== ''));
}
