// Files of any commit the git CLI can see, read in batches: the commits of a
// push while they are still in receive-pack's quarantine (its object folder
// is handed in as environment), fetched upstream commits and rebased ones.
// Push validation and upstream re-validation read through this; the server's
// own reads stay on storage/git/.
import type { ChangedPath } from '../git/tree-writer.ts';
import type { GitRunner } from './git-runner.ts';

/** Reads paths, listings and file contents at commits. */
export interface CommitFiles {
  /** Files that differ between two commits, sorted by path. Throws GitCommandError for unknown commits. */
  changedPaths(from: string, to: string): Promise<ChangedPath[]>;
  /** Every file path under the folder `prefix` at commit `oid` ('' for all), sorted. */
  listFilesAt(oid: string, prefix: string): Promise<string[]>;
  /** The utf8 contents of `paths` at commit `oid`; paths that are missing there (or not files) are left out. */
  readFilesAt(oid: string, paths: string[]): Promise<Map<string, string>>;
}

const STATUS: Record<string, ChangedPath['change']> = { A: 'added', D: 'deleted', M: 'modified', T: 'modified' };

/** CommitFiles over `git --git-dir`, optionally with a push's quarantined objects (`env`). */
export class GitCommitFiles implements CommitFiles {
  constructor(
    private readonly runner: GitRunner,
    private readonly gitdir: string,
    private readonly env: Record<string, string> = {},
  ) {}

  async changedPaths(from: string, to: string): Promise<ChangedPath[]> {
    const out = await this.git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to]);
    const fields = out.split('\0');
    const changes: ChangedPath[] = [];
    for (let at = 0; at + 1 < fields.length; at += 2) {
      const change = STATUS[fields[at].charAt(0)];
      if (change) changes.push({ path: fields[at + 1], change });
    }
    return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async listFilesAt(oid: string, prefix: string): Promise<string[]> {
    const folder = prefix.replace(/\/+$/, '');
    const out = await this.git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', oid, ...(folder === '' ? [] : ['--', `${folder}/`])]);
    return out.split('\0').filter((path) => path !== '').sort();
  }

  async readFilesAt(oid: string, paths: string[]): Promise<Map<string, string>> {
    // One `cat-file --batch` for all of them; a name with a line break cannot be asked for (and is no content path).
    const wanted = [...new Set(paths)].filter((path) => !/[\r\n]/.test(path));
    const files = new Map<string, string>();
    if (wanted.length === 0) return files;
    const { stdout } = await this.runner.run(['--git-dir', this.gitdir, 'cat-file', '--batch'], {
      input: wanted.map((path) => `${oid}:${path}\n`).join(''),
      env: this.env,
    });
    let at = 0;
    for (const path of wanted) {
      const lineEnd = stdout.indexOf(0x0a, at);
      if (lineEnd === -1) break;
      const header = stdout.subarray(at, lineEnd).toString('utf8').split(' ');
      at = lineEnd + 1;
      if (header.length !== 3) continue; // `<name> missing` (or ambiguous): not in that commit
      const size = Number(header[2]);
      if (header[1] === 'blob') files.set(path, stdout.subarray(at, at + size).toString('utf8'));
      at += size + 1;
    }
    return files;
  }

  private async git(args: string[]): Promise<string> {
    return (await this.runner.run(['--git-dir', this.gitdir, ...args], { env: this.env })).stdout.toString('utf8');
  }
}
