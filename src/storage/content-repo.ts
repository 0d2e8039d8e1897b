// The content repository: the one place that reads and writes the git repo
// holding workspaces, types, entries and media metadata. Every domain write
// runs through serialize() and becomes exactly one commit via commitChanges();
// history, diffs and the watch for commits made outside the server live here
// too. Low-level git formats live in storage/git/; this file owns isomorphic-git.
import fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import git from 'isomorphic-git';
import { AppError } from '../errors/app-error.ts';
import { createLimiter } from '../lib/limiter.ts';
import { composeMessage, describeCommit, identityNow } from './git/commit-object.ts';
import type { CommitInfo, CommitObject } from './git/commit-object.ts';
import { CommitWriter } from './git/commit-writer.ts';
import { History } from './git/history.ts';
import type { ContentLogOptions, LoggedCommit, PathLogOptions } from './git/history.ts';
import { ObjectReader } from './git/object-reader.ts';
import { isObjectId } from './git/objects.ts';
import { encodeObjects, importObjects, isHistoryComplete, reachableObjects, type ExportStats, type ObjectStreamLimits } from './git/object-transfer.ts';
import { readHead } from './git/refs.ts';
import { checkRepoPath, toFileWrites, type FileChange } from './git/repo-paths.ts';
import { TreeWriter } from './git/tree-writer.ts';
import type { ChangedPath } from './git/tree-writer.ts';
import { listWorkingFiles, listWorkingFolders, readWorkingFile } from './git/working-tree.ts';
import { HeadWatcher } from './head-watcher.ts';
import type { HeadChangeHandler, WatchOptions } from './head-watcher.ts';
import { resolveInside } from './safe-path.ts';
import { WriteQueue } from './write-queue.ts';

export type { CommitInfo } from './git/commit-object.ts';
export type { ContentLogOptions, PathLogOptions as LogOptions } from './git/history.ts';
export { MalformedObjectStream } from './git/object-transfer.ts';
export type { FileChange } from './git/repo-paths.ts';
export type { ChangedPath } from './git/tree-writer.ts';
export type { HeadChangeHandler, WatchOptions } from './head-watcher.ts';

/** The name and email a commit is authored by: the acting user or token, or the system. */
export interface GitAuthor {
  name: string;
  email: string;
}

/** One commit for commitChanges(): its file changes, message, author, trailers and extra parents. */
export interface CommitRequest {
  changes: FileChange[];
  message: string;
  author: GitAuthor;
  /** Appended as `Key: value` lines after a blank line (git trailers); keys are letters, digits and hyphens. */
  trailers?: Record<string, string>;
  /**
   * Commits to record as further parents (a merge), e.g. the head of a
   * restored backup, so its history stays reachable. Each must be present
   * with its whole history (see hasCompleteHistory()).
   */
  mergeParents?: string[];
}

/** Options of ContentRepo.open(). */
export interface ContentRepoOptions {
  /** How long a commit waits for a lock held by another git process before failing with `conflict` (ms, default 3000). */
  lockWaitMs?: number;
  /**
   * Keep `.git/index` as a split index (default true): each commit rewrites a
   * few kilobytes instead of ~100 bytes per file. git reads it natively;
   * set false when libgit2-based tools must read the server's own index.
   */
  splitIndex?: boolean;
}

// Callers load thousands of files with Promise.all; each open file holds a descriptor.
const OPEN_FILES = 64;
const SYSTEM_AUTHOR: GitAuthor = { name: 'git-cms', email: 'git-cms@localhost' };
const README = '# Content\n\nThis repository holds the content of a git-cms server: one folder per workspace.\n';

/** A git repository of content files with a single FIFO write queue. */
export class ContentRepo {
  readonly dir: string;
  private readonly gitdir: string;
  private readonly queue = new WriteQueue();
  private readonly fileReads = createLimiter(OPEN_FILES);
  private readonly objects: ObjectReader;
  private readonly writer: CommitWriter;
  private readonly history: History;
  private readonly watcher: HeadWatcher;

  private constructor(dir: string, options: ContentRepoOptions) {
    this.dir = dir;
    this.gitdir = path.join(dir, '.git');
    const objects = new ObjectReader(dir, path.join(this.gitdir, 'objects'));
    this.objects = objects;
    const reads = { readCommit: (oid: string) => objects.readCommit(oid), readTree: (oid: string) => objects.readTree(oid) };
    this.writer = new CommitWriter(dir, this.gitdir, objects.store, new TreeWriter(reads.readTree), reads, options);
    this.history = new History({ ...reads, readBlob: (oid: string) => objects.readBlob(oid) });
    this.watcher = new HeadWatcher(this.gitdir, (fn) => this.serialize(fn), async (oid) => (await objects.readCommit(oid))?.parents[0]);
  }

  /**
   * Opens the repository in `dir`, creating the folder, `git init` (branch
   * main) and a first commit when there is no repository or no commit yet.
   */
  static async open(dir: string, options: ContentRepoOptions = {}): Promise<ContentRepo> {
    const root = path.resolve(dir);
    await mkdir(root, { recursive: true });
    const repo = new ContentRepo(root, options);
    if (!(await fileExists(path.join(repo.gitdir, 'HEAD')))) await repo.initialize();
    let head = (await readHead(repo.gitdir)).oid;
    if (head === undefined) {
      const first = await repo.serialize(() =>
        repo.commitChanges({ changes: [{ path: 'README.md', content: README }], message: 'Initialize content repository', author: SYSTEM_AUTHOR }),
      );
      head = first.oid;
    }
    repo.watcher.setBaseline(head);
    return repo;
  }

  /**
   * Runs `fn` after every earlier queued task: the one write queue of this
   * repository (FIFO). Not re-entrant: calling serialize() from inside `fn`
   * (or from a watchHead handler, which already runs inside it) deadlocks.
   */
  serialize<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run(fn);
  }

  /**
   * Writes the changes to the working tree and index and commits them on
   * HEAD's branch as one commit; call it inside serialize(). Throws
   * `invalid_request` for unsafe or duplicate paths and `conflict` when git is
   * busy or a path collides; on failure working tree, index and HEAD are unchanged.
   */
  async commitChanges(request: CommitRequest): Promise<CommitInfo> {
    if (!this.queue.isRunning) throw new AppError('internal_error', 'commitChanges() must run inside serialize().');
    const writes = toFileWrites(request.changes);
    const message = composeMessage(request.message, request.trailers);
    for (const parent of request.mergeParents ?? []) await this.getCommit(parent);
    const author = identityNow(request.author.name, request.author.email);
    const written = await this.writer.write({ writes, message, author, extraParents: request.mergeParents });
    this.history.remember(written.oid, written.changes);
    this.objects.rememberCommit(written.oid, written.commit);
    this.watcher.recordOwnCommit(written.oid, written.commit.parents[0]);
    return describeCommit(written.oid, written.commit);
  }

  /** The commit HEAD points to. */
  async head(): Promise<string> {
    const { oid } = await readHead(this.gitdir);
    if (oid === undefined) throw new AppError('internal_error', 'The content repository has no commit yet.');
    return oid;
  }

  /** The branch HEAD is on (`main`), or null when HEAD is detached. */
  async currentBranch(): Promise<string | null> {
    const { ref } = await readHead(this.gitdir);
    return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  }

  /** A working-tree file as utf8, or undefined when missing. Symlinks are not followed. Throws `invalid_request` for unsafe paths. */
  async readFile(file: string): Promise<string | undefined> {
    const absolute = resolveInside(this.dir, checkRepoPath(file));
    return this.fileReads(() => readWorkingFile(absolute));
  }

  /** Every regular file under the folder `prefix` ('' for all, `.git` excluded): repo-relative, sorted; [] when missing. */
  async listFiles(prefix: string): Promise<string[]> {
    return listWorkingFiles(this.dir, checkFolder(prefix));
  }

  /** The folders directly under `prefix` in the working tree (names only, sorted; never `.git`). */
  async listFolders(prefix: string): Promise<string[]> {
    return listWorkingFolders(this.dir, checkFolder(prefix));
  }

  /** A file's utf8 content at a commit, or undefined when absent there. Throws `not_found` for an unknown commit. */
  async readAt(oid: string, file: string): Promise<string | undefined> {
    const commit = await this.getCommit(oid);
    return this.history.readText(commit.tree, checkRepoPath(file));
  }

  /**
   * Commits (newest first, first-parent walk of HEAD) that changed any of
   * `paths`. With `follow`, a followed path added by a commit is traced to the
   * paths that commit deleted whose old content `follow` accepts (entries: same
   * `id:`), which follows slug renames and moves to and from trash.
   */
  async log(options: PathLogOptions): Promise<CommitInfo[]> {
    options.paths.forEach(checkRepoPath);
    return this.describe(await this.history.log(await this.head(), options));
  }

  /**
   * Commits (newest first) that added, modified or deleted a file under
   * `prefix` whose content (new, or old when deleted) satisfies `match`. Walks
   * the whole first-parent history but reads only the changed files' blobs;
   * finds an entry's history across any rename when `match` tests its `id:`.
   */
  async logByContent(options: ContentLogOptions): Promise<CommitInfo[]> {
    return this.describe(await this.history.logByContent(await this.head(), options));
  }

  /** Files that differ between two commits under `prefix`, sorted; descends only into changed subtrees. Throws `not_found` for unknown commits. */
  async changedPaths(fromOid: string, toOid: string, prefix = ''): Promise<ChangedPath[]> {
    const [from, to] = await Promise.all([this.getCommit(fromOid), this.getCommit(toOid)]);
    return this.history.diff(from.tree, to.tree, checkFolder(prefix));
  }

  /** Every file path in the tree of commit `oid` under the folder `prefix` ('' for all), sorted. Throws `not_found` for an unknown commit. */
  async listFilesAt(oid: string, prefix = ''): Promise<string[]> {
    const commit = await this.getCommit(oid);
    return this.history.listFiles(commit.tree, checkFolder(prefix));
  }

  /**
   * The whole history reachable from commit `oid` (HEAD by default) as one
   * byte stream of objects, for backups; importObjects() reads it back.
   * `stats` resolves once the stream has ended. Does not block writes:
   * objects never change once written.
   */
  exportObjects(oid?: string): { stream: Readable; stats: Promise<ExportStats> } {
    const objects = this.objects;
    const head = oid === undefined ? this.head() : Promise.resolve(oid);
    return encodeObjects(
      (async function* () {
        yield* reachableObjects(objects, await head);
      })(),
    );
  }

  /**
   * Reads a stream written by exportObjects() and stores its objects (ids
   * computed from content), or with `dryRun` only checks it. Returns how many
   * objects and commits it holds. Throws MalformedObjectStream for a bad stream;
   * objects stored before the error stay as unreachable objects, which git ignores.
   */
  importObjects(input: AsyncIterable<Buffer | string>, options: ObjectStreamLimits & { dryRun?: boolean }): Promise<{ objects: number; commits: number }> {
    return importObjects(this.objects.store, input, options);
  }

  /** Whether `oid` is a commit present with every commit, tree and blob it reaches. */
  async hasCompleteHistory(oid: string): Promise<boolean> {
    return isObjectId(oid) && isHistoryComplete(this.objects, oid);
  }

  /**
   * Polls HEAD every `intervalMs` (two small file reads) and, inside
   * serialize(), calls `onChange(from, to)` when HEAD moved to commits this
   * process did not write, once per run of such commits. The handler must not
   * call serialize() (it already runs inside it). Returns stop().
   */
  watchHead(onChange: HeadChangeHandler, intervalMs: number, options: WatchOptions = {}): () => void {
    return this.watcher.watch(onChange, intervalMs, options);
  }

  /**
   * Records that HEAD moved from `from` to `to` by a hand the server steered
   * (a push, an upstream sync) and that those commits are being taken in
   * already: the watch for outside commits reports them no more.
   */
  markReceived(from: string, to: string): void {
    this.watcher.recordOwnCommit(to, from);
  }

  /** Stops every watch and waits for queued writes to finish. */
  async close(): Promise<void> {
    this.watcher.stopAll();
    await this.queue.drain();
  }

  private async initialize(): Promise<void> {
    await git.init({ fs, dir: this.dir, defaultBranch: 'main' });
    // isomorphic-git writes browser-minded defaults; the git CLI must see the real platform.
    const caseInsensitive = await fileExists(path.join(this.gitdir, 'head'));
    const native = process.platform !== 'win32';
    await git.setConfig({ fs, dir: this.dir, path: 'core.ignorecase', value: caseInsensitive });
    await git.setConfig({ fs, dir: this.dir, path: 'core.filemode', value: native });
    await git.setConfig({ fs, dir: this.dir, path: 'core.symlinks', value: native });
  }

  private describe(found: LoggedCommit[]): CommitInfo[] {
    return found.map(({ oid, commit }) => describeCommit(oid, commit));
  }

  private async getCommit(oid: string): Promise<CommitObject> {
    const commit = isObjectId(oid) ? await this.objects.readCommit(oid).catch(() => undefined) : undefined;
    if (commit === undefined) throw new AppError('not_found', `No revision "${String(oid).slice(0, 64)}" in the content repository.`);
    return commit;
  }
}

// A folder prefix as callers pass it (`blog/`, `blog` or '' for all), without
// trailing slashes and checked. Throws invalid_request.
function checkFolder(prefix: string): string {
  const folder = prefix.replace(/\/+$/, '');
  return folder === '' ? '' : checkRepoPath(folder);
}

async function fileExists(file: string): Promise<boolean> {
  try {
    await fs.promises.access(file);
    return true;
  } catch {
    return false;
  }
}
