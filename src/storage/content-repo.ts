// The content repository: the one place that reads and writes the git repo
// holding workspaces, types, entries and media metadata. Every domain write
// runs through serialize() and becomes exactly one commit via commitChanges();
// history, diffs and the watch for commits made outside the server live here
// too. Low-level git formats live in storage/git/; this file owns isomorphic-git.
import fs from 'node:fs';
import { constants } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import git from 'isomorphic-git';
import { AppError } from '../errors/app-error.ts';
import { errnoCode, isNotFound } from '../lib/errno.ts';
import { createLimiter } from '../lib/limiter.ts';
import { composeMessage, describeCommit, identityNow } from './git/commit-object.ts';
import type { CommitInfo, CommitObject } from './git/commit-object.ts';
import { CommitWriter } from './git/commit-writer.ts';
import { History } from './git/history.ts';
import type { LoggedCommit } from './git/history.ts';
import { ObjectReader } from './git/object-reader.ts';
import { isObjectId, type PreparedObject } from './git/objects.ts';
import { decodeObjects, encodeObjects, isHistoryComplete, reachableObjects, type ExportStats, type ObjectStreamLimits } from './git/object-transfer.ts';
import { readHead } from './git/refs.ts';
import { TreeWriter } from './git/tree-writer.ts';
import type { ChangedPath } from './git/tree-writer.ts';
import type { FileWrite } from './git/working-tree.ts';
import { HeadWatcher } from './head-watcher.ts';
import type { HeadChangeHandler, WatchOptions } from './head-watcher.ts';
import { relativePathProblem, resolveInside } from './safe-path.ts';
import { WriteQueue } from './write-queue.ts';

export type { CommitInfo } from './git/commit-object.ts';
export { MalformedObjectStream } from './git/object-transfer.ts';
export type { ChangedPath } from './git/tree-writer.ts';
export type { HeadChangeHandler, WatchOptions } from './head-watcher.ts';

/** One file to write (`content`) or delete (`null`); `path` is posix and relative to the repo root. */
export interface FileChange {
  path: string;
  content: string | Uint8Array | null;
}

export interface GitAuthor {
  name: string;
  email: string;
}

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

/** Options of log(); see History.log for the rename rule of `follow`. */
export interface LogOptions {
  paths: string[];
  limit?: number;
  follow?: (path: string, content: string) => boolean;
}

/** Options of logByContent(). */
export interface ContentLogOptions {
  /** Folder to watch, e.g. `blog/` ('' for the whole repo). */
  prefix: string;
  match: (path: string, content: string) => boolean;
  limit?: number;
}

// Callers load thousands of files with Promise.all; each open file holds a descriptor.
const OPEN_FILES = 64;
const SYSTEM_AUTHOR: GitAuthor = { name: 'git-cms', email: 'git-cms@localhost' };
// Objects are written to disk in batches of this many while importing a history.
const IMPORT_BATCH = 500;
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
    const writes = validateChanges(request.changes);
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

  /** A working-tree file as utf8, or undefined when missing. Symlinks are not followed. Throws `invalid_request` for unsafe paths. */
  async readFile(file: string): Promise<string | undefined> {
    const absolute = resolveInside(this.dir, checkPath(file));
    return this.fileReads(() => readWorkingFile(absolute));
  }

  /** Every regular file under the folder `prefix` ('' for all, `.git` excluded): repo-relative, sorted; [] when missing. */
  async listFiles(prefix: string): Promise<string[]> {
    const folder = prefix.replace(/\/+$/, '');
    const start = folder === '' ? this.dir : resolveInside(this.dir, checkPath(folder));
    const found: string[] = [];
    const visit = async (absolute: string, relative: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(absolute, { withFileTypes: true });
      } catch (error) {
        if (isNotFound(error)) return;
        throw error;
      }
      for (const entry of entries) {
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.isFile()) found.push(child);
        else if (entry.isDirectory() && !(relative === '' && entry.name === '.git')) await visit(path.join(absolute, entry.name), child);
      }
    };
    await visit(start, folder);
    return found.sort();
  }

  /** A file's utf8 content at a commit, or undefined when absent there. Throws `not_found` for an unknown commit. */
  async readAt(oid: string, file: string): Promise<string | undefined> {
    const commit = await this.getCommit(oid);
    return this.history.readText(commit.tree, checkPath(file));
  }

  /**
   * Commits (newest first, first-parent walk of HEAD) that changed any of
   * `paths`. With `follow`, a followed path added by a commit is traced to the
   * paths that commit deleted whose old content `follow` accepts (entries: same
   * `id:`), which follows slug renames and moves to and from trash.
   */
  async log(options: LogOptions): Promise<CommitInfo[]> {
    options.paths.forEach(checkPath);
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
    const folder = prefix.replace(/\/+$/, '');
    if (folder !== '') checkPath(folder);
    return this.history.diff(from.tree, to.tree, folder);
  }

  /** Every file path in the tree of commit `oid` under the folder `prefix` ('' for all), sorted. Throws `not_found` for an unknown commit. */
  async listFilesAt(oid: string, prefix = ''): Promise<string[]> {
    const commit = await this.getCommit(oid);
    const folder = prefix.replace(/\/+$/, '');
    let tree: string | undefined = commit.tree;
    for (const name of folder === '' ? [] : checkPath(folder).split('/')) {
      const entry: { isTree: boolean; oid: string } | undefined = (await this.objects.readTree(tree)).find(name);
      if (entry === undefined || !entry.isTree) return [];
      tree = entry.oid;
    }
    const found: string[] = [];
    const visit = async (treeOid: string, base: string): Promise<void> => {
      for (const entry of (await this.objects.readTree(treeOid)).entries()) {
        const file = base === '' ? entry.name : `${base}/${entry.name}`;
        if (entry.isTree) await visit(entry.oid, file);
        else found.push(file);
      }
    };
    await visit(tree, folder);
    return found.sort();
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
  async importObjects(input: AsyncIterable<Buffer | string>, options: ObjectStreamLimits & { dryRun?: boolean }): Promise<{ objects: number; commits: number }> {
    let objects = 0;
    let commits = 0;
    let batch: PreparedObject[] = [];
    for await (const object of decodeObjects(input, options)) {
      objects += 1;
      if (object.type === 'commit') commits += 1;
      if (options.dryRun) continue;
      batch.push(object);
      if (batch.length >= IMPORT_BATCH) {
        await this.objects.store.writeAll(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await this.objects.store.writeAll(batch);
    return { objects, commits };
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

function validateChanges(changes: FileChange[]): FileWrite[] {
  const paths = new Set<string>();
  for (const change of changes) {
    checkPath(change.path);
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

// Repo paths must be safe and must never reach into .git (any case, as
// case-insensitive file systems and git itself treat `.GIT` like `.git`).
function checkPath(file: string): string {
  const problem = relativePathProblem(file);
  if (problem !== undefined) throw new AppError('invalid_request', `The path ${JSON.stringify(String(file).slice(0, 200))} is not allowed: ${problem}.`);
  const isGitFolder = (segment: string): boolean => {
    const folded = segment.normalize('NFKC').toLowerCase().replace(/[. ]+$/, '');
    return folded === '.git' || folded === 'git~1';
  };
  if (file.split('/').some(isGitFolder)) {
    throw new AppError('invalid_request', `The path "${file}" is inside the repository's .git folder.`);
  }
  return file;
}

async function readWorkingFile(absolute: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
    return await handle.readFile('utf8');
  } catch (error) {
    if (isNotFound(error) || errnoCode(error) === 'ELOOP' || errnoCode(error) === 'EISDIR') return undefined;
    throw error;
  } finally {
    await handle?.close();
  }
}

async function fileExists(file: string): Promise<boolean> {
  try {
    await fs.promises.access(file);
    return true;
  } catch {
    return false;
  }
}
