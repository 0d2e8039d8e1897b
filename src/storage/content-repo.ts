// The content repository: the one place that reads and writes the git repo
// holding workspaces, types, entries and media metadata. Every domain write
// runs through serialize() and becomes exactly one commit via commitChanges();
// history, diffs and the watch for commits made outside the server live here
// too. Low-level git formats live in storage/git/.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, isAppError } from '../errors/app-error.ts';
import { StartupError } from '../errors/startup-error.ts';
import { errnoCode } from '../lib/errno.ts';
import { createLimiter } from '../lib/limiter.ts';
import { pathExists } from '../lib/path-exists.ts';
import type { Logger } from '../lib/logger.ts';
import { composeMessage, describeCommit, identityNow } from './git/commit-object.ts';
import type { CommitInfo, CommitObject } from './git/commit-object.ts';
import { CommitWriter, type IndexHold, type Recovery } from './git/commit-writer.ts';
import { IndexWriteBehind } from './index-write-behind.ts';
import { History } from './git/history.ts';
import { initRepository } from './git/init-repository.ts';
import type { ContentLogOptions, LoggedCommit, PathLogOptions } from './git/history.ts';
import { ObjectReader } from './git/object-reader.ts';
import { isObjectId } from './git/objects.ts';
import { encodeObjects, importObjects, isHistoryComplete, reachableObjects, type ExportStats, type ObjectStreamLimits } from './git/object-transfer.ts';
import { isGcRunning, Packer, type GitCommand, type PackingSchedule } from './git/packing.ts';
import { readHead } from './git/refs.ts';
import { resolveRevision, type Revision } from './git/revisions.ts';
import { checkRepoPath, pathInRepo, toFileWrites, type FileChange, type RepoPath } from './git/repo-paths.ts';
import { checkRepositoryFormat, type RepositoryFormat } from './git/repository-format.ts';
import { TreeWriter } from './git/tree-writer.ts';
import type { ChangedPath } from './git/tree-writer.ts';
import { readCleanText } from './git/working-tree.ts';
import { HeadWatcher } from './head-watcher.ts';
import type { HeadChangeHandler, WatchOptions } from './head-watcher.ts';
import { WriteQueue } from './write-queue.ts';

export type { CommitInfo } from './git/commit-object.ts';
export type { IndexHold } from './git/commit-writer.ts';
export type { ContentLogOptions, PathLogOptions as LogOptions } from './git/history.ts';
export { MalformedObjectStream } from './git/object-transfer.ts';
export type { FileChange } from './git/repo-paths.ts';
export type { ChangedPath } from './git/tree-writer.ts';
export type { Revision, RevisionKind } from './git/revisions.ts';
export { refNameProblem } from './git/ref-names.ts';
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

/** The newest commit that changed a path, and how many first parents it lies behind HEAD (0: HEAD itself). */
export interface NewestChange {
  commit: CommitInfo;
  depth: number;
}

/** Options of ContentRepo.open(). */
export interface ContentRepoOptions {
  /** How long a commit waits for a lock held by another git process before failing with `conflict` (ms, default 3000). */
  lockWaitMs?: number;
  /**
   * Keep `.git/index` as a split index (default false): each commit rewrites
   * a few kilobytes instead of ~100 bytes per file. git reads it natively,
   * but libgit2, JGit and isomorphic-git do not, so it is opt-in.
   */
  splitIndex?: boolean;
  /** Pack objects in the background with the git CLI (default true), optionally after other amounts than git/packing.ts's defaults. */
  packing?: boolean | PackingSchedule;
  /** The git CLI that packs (CMS_GIT_PATH and its environment); default `git` from the PATH. */
  git?: GitCommand;
  /** Receives start-up recovery reports and packing problems. */
  logger?: Logger;
}

// Callers load thousands of files with Promise.all; each open file holds a descriptor.
const OPEN_FILES = 64;
/** The git author of the server's own commits (the first commit, the publish scheduler's, the default workspace's), and the committer of the commits an upstream sync rebases: no user or token made them. */
export const SYSTEM_AUTHOR: GitAuthor = Object.freeze({ name: 'git-cms', email: 'git-cms@localhost' });
const README = '# Content\n\nThis repository holds the content of a git-cms server: one folder per workspace.\n';
const NEW_REPOSITORY: RepositoryFormat = { preciousObjects: false, logAllRefUpdates: true };

/** A file as a tree lists it: its path and blob id (undefined where no commit is read: a working folder, cms check). */
export interface ListedFile {
  path: string;
  oid?: string;
}

/** The reads of one commit's files, as filesAt() hands them out; the HEAD reads of ContentRepo have the same shape. */
export interface TreeFiles {
  readFile(file: string): Promise<string | undefined>;
  readFiles(files: string[]): Promise<(string | undefined)[]>;
  listFileIds(prefix: string): Promise<ListedFile[]>;
  readListed(files: readonly ListedFile[]): Promise<(string | undefined)[]>;
  listFiles(prefix: string): Promise<string[]>;
  listFilesIn(prefix: string): Promise<string[]>;
  listFolders(prefix: string): Promise<string[]>;
}

/** A git repository of content files with a single FIFO write queue. */
export class ContentRepo {
  readonly dir: string;
  private readonly atHead = this.filesOf(() => this.headTree());
  private readonly gitdir: string;
  private readonly queue = new WriteQueue();
  private readonly objects: ObjectReader;
  private readonly writer: CommitWriter;
  private readonly indexWrites: IndexWriteBehind;
  private readonly history: History;
  private readonly watcher: HeadWatcher;
  private packer: Packer | undefined;
  private rollUpQueued = false;
  private closing = false;
  private readonly fileReads = createLimiter(OPEN_FILES);

  private constructor(
    dir: string,
    private readonly options: ContentRepoOptions,
    private readonly format: RepositoryFormat,
  ) {
    this.dir = dir;
    this.gitdir = path.join(dir, '.git');
    const objects = new ObjectReader(path.join(this.gitdir, 'objects'), typeof options.packing === 'object' ? options.packing.commitsPerRollUp : undefined);
    this.objects = objects;
    const reads = {
      readCommit: (oid: string) => objects.readCommit(oid),
      readTree: (oid: string) => objects.readTree(oid),
      readBlob: (oid: string) => objects.readBlob(oid),
    };
    const writerOptions = { lockWaitMs: options.lockWaitMs, splitIndex: options.splitIndex, createReflogs: format.logAllRefUpdates };
    this.writer = new CommitWriter(dir, this.gitdir, objects.commitPacks, new TreeWriter(reads.readTree), reads, writerOptions);
    this.indexWrites = new IndexWriteBehind(this.writer, options.logger);
    this.history = new History(reads);
    this.watcher = new HeadWatcher(this.gitdir, (fn) => this.serialize(fn), async (oid) => (await objects.readCommit(oid))?.parents[0]);
  }

  /**
   * Opens the repository in `dir`, creating the folder, `git init` (branch
   * main) and a first commit when there is no repository or no commit yet.
   * Before anything else it finishes or undoes a commit a killed server left
   * behind (git/commit-writer.ts recover()). Throws StartupError naming the
   * problem for a repository the server cannot write safely: an unsupported
   * format, a read-only folder, an unreadable index, a damaged HEAD.
   */
  /**
   * Throws StartupError naming the problem when the repository already in
   * `dir` cannot be used (unsupported format, read-only); nothing when there
   * is none yet. For start-up steps that touch it before open() (git hooks,
   * an interrupted branch move).
   */
  static async check(dir: string): Promise<void> {
    const root = path.resolve(dir);
    if (await pathExists(path.join(root, '.git'))) await checkRepositoryFormat(root);
  }

  static async open(dir: string, options: ContentRepoOptions = {}): Promise<ContentRepo> {
    const root = path.resolve(dir);
    try {
      await mkdir(root, { recursive: true });
      const hasRepository = await pathExists(path.join(root, '.git'));
      const repo = new ContentRepo(root, options, hasRepository ? await checkRepositoryFormat(root) : NEW_REPOSITORY);
      if (!(await pathExists(path.join(repo.gitdir, 'HEAD')))) await initRepository(repo.gitdir);
      await repo.prepare();
      return repo;
    } catch (error) {
      if (error instanceof StartupError) throw error;
      throw new StartupError(startupProblem(root, error), { cause: error });
    }
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
    const deferIndex = this.indexWrites.deferNext();
    let written;
    try {
      written = await this.writer.write({ writes, message, author, extraParents: request.mergeParents });
    } catch (error) {
      throw asWriteFailure(error);
    }
    await this.indexWrites.afterCommit(deferIndex);
    // A due roll-up tells the packer itself, after it: a `git repack` started
    // first would leave it only the commit packs written after git enumerated
    // what it packs.
    if (!this.queueRollUpIfDue()) this.notePacking();
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

  // Reads give what is committed at HEAD, never a developer's uncommitted
  // edit or a half-done write, so the API and git always agree. The bytes come
  // from the working tree when it holds exactly the committed file (hash
  // checked), which spares inflating thousands of objects at start.

  /** A regular file as committed at HEAD, as utf8; undefined when HEAD has none there (symlinks read as absent). Throws `invalid_request` for unsafe paths. */
  readFile(file: string): Promise<string | undefined> {
    return this.atHead.readFile(file);
  }

  /** Like readFile for each of `files`, in order, all from the same HEAD (a start-up reads thousands at once). */
  readFiles(files: string[]): Promise<(string | undefined)[]> {
    return this.atHead.readFiles(files);
  }

  /** listFiles() with the blob id of each file, from the same listing. Throws `invalid_request` for an unsafe prefix. */
  listFileIds(prefix: string): Promise<ListedFile[]> {
    return this.atHead.listFileIds(prefix);
  }

  /**
   * The texts of files listFileIds() listed, in order, read by their blob
   * ids: a start does not look each of a type's hundred thousand files up
   * again, and reads only those it has not parsed before (the entry
   * snapshot). Throws `invalid_request` for an unsafe path.
   */
  readListed(files: readonly ListedFile[]): Promise<(string | undefined)[]> {
    return this.atHead.readListed(files);
  }

  /** Every regular file under the folder `prefix` ('' for all) at HEAD: repo-relative, sorted; [] when missing. */
  listFiles(prefix: string): Promise<string[]> {
    return this.atHead.listFiles(prefix);
  }

  /** The regular files directly in the folder `prefix` at HEAD, not in its subfolders: repo-relative, sorted; [] when missing. */
  listFilesIn(prefix: string): Promise<string[]> {
    return this.atHead.listFilesIn(prefix);
  }

  /** The folders directly under `prefix` at HEAD (names only, sorted). */
  listFolders(prefix: string): Promise<string[]> {
    return this.atHead.listFolders(prefix);
  }

  /**
   * The commit a client's `ref` names (full or abbreviated commit id, tag,
   * branch, HEAD) and the kind of name it was; undefined when there is none.
   * Throws invalid_request for a malformed or ambiguous ref (git/revisions.ts).
   */
  async resolveRevision(ref: string): Promise<Revision | undefined> {
    return resolveRevision(this.gitdir, this.objects, ref);
  }

  /**
   * The files of commit `oid`, read like the HEAD reads above (from the
   * working tree when it holds the same blob, else from the object store),
   * for loading the content as it was at that commit. Throws `not_found` for
   * an unknown commit.
   */
  async filesAt(oid: string): Promise<TreeFiles> {
    const { tree } = await this.getCommit(oid);
    return this.filesOf(async () => tree);
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

  /** The commit `oid` described. Throws `not_found` for an unknown commit. */
  async commitInfo(oid: string): Promise<CommitInfo> {
    return describeCommit(oid, await this.getCommit(oid));
  }

  /**
   * For each of `paths`, the newest commit in `since..head` (first parents
   * from `head`) that changed it. The walk stops at `since`, once every path
   * is found, or after `maxCommits` commits, so a `since` that is no ancestor
   * of `head` (rewritten history) costs a bounded walk; paths it did not find
   * are left out. Throws `not_found` for an unknown `head`.
   */
  async newestChanges(options: { head: string; since: string; paths: string[]; maxCommits: number }): Promise<Map<string, NewestChange>> {
    options.paths.forEach(checkRepoPath);
    await this.getCommit(options.head);
    const found = await this.history.newestChanges(options.head, options.since, options.paths, options.maxCommits);
    return new Map([...found].map(([file, { oid, commit, depth }]) => [file, { commit: describeCommit(oid, commit), depth }]));
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

  /**
   * Writes the pending git index and holds index.lock until the hold is
   * installed or released; call inside serialize() before moving the branch
   * (git-cli/branch-moves.ts), whose git commands then work on the hold's
   * copy of the index. Throws `conflict` while a git command holds the lock.
   */
  async holdIndex(): Promise<IndexHold> {
    if (!this.queue.isRunning) throw new AppError('internal_error', 'holdIndex() must run inside serialize().');
    return this.writer.holdIndex();
  }

  /** Stops every watch, waits for queued writes to finish (and their index), and stops background packing. */
  async close(): Promise<void> {
    this.closing = true;
    this.watcher.stopAll();
    this.indexWrites.close();
    await this.serialize(() => this.indexWrites.flush());
    await this.packer?.close();
    await this.objects.commitPacks.settled();
    this.objects.close();
  }

  // Recovery first: nothing may read or write before an interrupted commit is settled.
  private async prepare(): Promise<void> {
    this.reportRecovery(await this.writer.recover());
    await this.writer.checkIndex();
    let head = (await readHead(this.gitdir)).oid;
    if (head === undefined) {
      const first = await this.serialize(() =>
        this.commitChanges({ changes: [{ path: 'README.md', content: README }], message: 'Initialize content repository', author: SYSTEM_AUTHOR }),
      );
      head = first.oid;
    } else {
      const commit = await this.objects.readCommit(head);
      if (commit === undefined) throw new AppError('internal_error', `The content repository is damaged: HEAD names the commit ${head}, which is missing.`);
      await this.objects.readTree(commit.tree);
    }
    this.watcher.setBaseline(head);
    const packing = this.options.packing ?? true;
    if (packing !== false && !this.format.preciousObjects) {
      const schedule = packing === true ? {} : packing;
      const commitPacks = this.objects.commitPacks;
      this.packer = await Packer.start(this.gitdir, {
        ...schedule,
        git: this.options.git,
        logger: this.options.logger,
        onPacked: () => this.afterRepack(),
        packsSettled: () => commitPacks.settled(),
      });
    }
  }

  // Queued after a commit, or after a `git repack` that made it wait. The
  // queue would start it in the commit's own microtasks, before the commit is
  // answered; a roll-up takes milliseconds (it compresses each folder's
  // newest tree), so it is queued from the next turn of the event loop.
  // Returns whether a roll-up is queued, by this call or an earlier one.
  private queueRollUpIfDue(): boolean {
    if (this.rollUpQueued || this.closing || this.format.preciousObjects || !this.objects.commitPacks.isRollUpDue(this.spareBefore())) return this.rollUpQueued;
    this.rollUpQueued = true;
    setImmediate(() => {
      if (!this.closing) void this.serialize(() => this.rollUpPacks());
    });
    return true;
  }

  // A failure costs only space: the commit packs stay until a later roll-up or repack.
  private async rollUpPacks(): Promise<void> {
    this.rollUpQueued = false;
    // `git gc` may be reading any pack; a later commit tries again.
    if (isGcRunning(this.gitdir)) return;
    try {
      this.objects.commitPacks.rollUp(this.spareBefore());
    } catch (error) {
      this.options.logger?.error('could not roll up the packs of recent commits into one; trying again after the next commits', { error });
    }
    this.notePacking();
  }

  // Commit packs written up to this (performance.now()) are left to a running
  // `git repack`, which may read them (Packer.mayReadPacksBefore): all of them
  // until its pack-objects enumerated what it packs, then only those written
  // before; undefined while none runs. Counting only the others for a roll-up
  // keeps a long repack from making every commit try one.
  private spareBefore(): number | undefined {
    return this.packer?.mayReadPacksBefore;
  }

  private afterRepack(): void {
    this.objects.afterRepack();
    this.queueRollUpIfDue();
  }

  private notePacking(): void {
    const loose = this.objects.store.looseWritten;
    const rolled = this.objects.commitPacks.rolledUp;
    this.packer?.noteWritten({ objects: loose.objects, bytes: loose.bytes + rolled.bytes, packs: rolled.packs });
    // Before git enumerated what it packs, every commit pack waits for it.
    if (this.packer?.mayReadPacksBefore === Number.POSITIVE_INFINITY) this.packer.noteHeldBack(this.objects.commitPacks.waitingBytes);
  }

  private reportRecovery(recovery: Recovery): void {
    const logger = this.options.logger;
    if (recovery.kind === 'foreign-lock') {
      logger?.error('the content repository is locked by a git command (.git/index.lock); writes answer 409 until it is gone: if no git command is running, delete the file', {
        lockAgeSeconds: Math.round(recovery.ageMs / 1000),
      });
    } else if (recovery.kind === 'live-lock') {
      logger?.error('another git-cms process is committing to this content repository; writes answer 409 while it holds .git/index.lock', { pid: recovery.owner.pid });
    } else if (recovery.kind === 'completed') {
      logger?.info('finished a commit that the previous run was stopped in', { commit: recovery.commit, files: recovery.files });
    } else if (recovery.kind === 'rolled-back') {
      logger?.info('undid a commit that the previous run was stopped in before it reached the branch', { commit: recovery.commit, restored: recovery.restored });
      if (recovery.kept.length > 0) logger?.error('kept files changed outside the server while undoing an interrupted commit', { files: recovery.kept });
    } else if (recovery.kind === 'released') {
      logger?.info('removed the lock of a commit that the previous run was stopped in before it changed anything');
    }
  }

  private async readCommitted(tree: string | undefined, file: RepoPath): Promise<string | undefined> {
    return this.readBlobOf(file, tree === undefined ? undefined : await this.history.regularFileAt(tree, file));
  }

  // The committed file `file` whose blob is `oid`: from the working tree when it holds that blob, else from the object store.
  private async readBlobOf(file: RepoPath, oid: string | undefined): Promise<string | undefined> {
    if (oid === undefined) return undefined;
    return readCleanText(pathInRepo(this.dir, file), oid) ?? (await this.readObjectText(oid));
  }

  // The texts of `files`, whose blobs are `oids` (in the same order), one
  // file at a time, as readBlobOf() reads them. The clean reads are
  // synchronous, so only a file that differs waits for the object store: a
  // start reads ten thousand files here, and a promise and an await for each
  // cost more than some of the reads.
  private async readBlobsOf(files: RepoPath[], oids: (string | undefined)[]): Promise<(string | undefined)[]> {
    const texts: (string | undefined)[] = [];
    for (let position = 0; position < files.length; position += 1) {
      const oid = oids[position];
      const clean = oid === undefined ? undefined : readCleanText(pathInRepo(this.dir, files[position]), oid);
      texts.push(clean ?? (oid === undefined ? undefined : await this.readObjectText(oid)));
    }
    return texts;
  }

  private async readObjectText(oid: string): Promise<string | undefined> {
    return (await this.objects.readBlob(oid))?.toString('utf8');
  }

  // The reads of one tree, which `treeOf` names: HEAD's at the time of each call, or a fixed commit's (filesAt).
  private filesOf(treeOf: () => Promise<string | undefined>): TreeFiles {
    return {
      readFile: async (file) => {
        const checked = checkRepoPath(file);
        return this.fileReads(async () => this.readCommitted(await treeOf(), checked));
      },
      readFiles: async (files) => {
        const checked = files.map(checkRepoPath);
        return this.fileReads(async () => {
          const tree = await treeOf();
          const oids = tree === undefined ? [] : await this.history.regularFilesAt(tree, checked);
          return this.readBlobsOf(checked, oids);
        });
      },
      listFileIds: async (prefix) => {
        const tree = await treeOf();
        return tree === undefined ? [] : this.history.listFileIds(tree, checkFolder(prefix), { regularOnly: true });
      },
      readListed: async (files) => {
        const checked = files.map(({ path: file }) => checkRepoPath(file));
        return this.fileReads(() => this.readBlobsOf(checked, files.map(({ oid }) => oid)));
      },
      listFiles: async (prefix) => {
        const tree = await treeOf();
        return tree === undefined ? [] : this.history.listFiles(tree, checkFolder(prefix), { regularOnly: true });
      },
      listFilesIn: async (prefix) => {
        const tree = await treeOf();
        return tree === undefined ? [] : this.history.listFilesIn(tree, checkFolder(prefix));
      },
      listFolders: async (prefix) => {
        const tree = await treeOf();
        return tree === undefined ? [] : this.history.listFolders(tree, checkFolder(prefix));
      },
    };
  }

  private async headTree(): Promise<string | undefined> {
    const { oid } = await readHead(this.gitdir);
    return oid === undefined ? undefined : (await this.getCommit(oid)).tree;
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

// A file system failure while committing (a full disk, a read-only folder)
// becomes an internal_error that says so without paths; the commit was undone.
function asWriteFailure(error: unknown): unknown {
  const code = errnoCode(error);
  if (isAppError(error) || code === undefined) return error;
  const reason = code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG' ? 'the disk is full' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'it is read-only' : 'the file system failed';
  return new AppError('internal_error', `The content repository could not be written: ${reason} (${code}). Nothing was changed.`, { cause: error });
}

// The operator's message for a repository that cannot be opened: what is wrong and where.
function startupProblem(root: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const damage = /^The content repository is damaged: (.*)$/s.exec(message);
  if (damage !== null) return `The content repository ${root} is damaged: ${damage[1]} Check it with git fsck there, repair it or restore a backup, then start again.`;
  return `The content repository ${root} cannot be opened: ${message}`;
}
