// Writes one commit the way git does, in git's lock order: take index.lock,
// write objects and the working tree, move the branch ref (compare-and-swap
// under its own lock, with reflogs), then write the new index (flushIndex())
// and drop the lock. The lock holds the commit's journal from before the
// first file changes, so a start after a kill -9 finishes or undoes the
// commit (recover()). Any failure before the ref moves undoes the working
// tree and leaves index and HEAD untouched.
//
// write() leaves the new index pending, with the lock held: a commit that
// follows closely extends it, and flushIndex() writes it once. The index is
// rewritten whole (~100 bytes per file in the repository), so in a burst of
// writes to a big repository that write is most of a commit's cost; when to
// flush is ContentRepo's call (index-write-behind.ts). The stats of the
// files the commits wrote are taken when the index is written, from files
// found to hold the committed blob: git trusts an entry whose stats match
// its file once the index is newer than the file, so stats taken at the
// commit would hide an edit made meanwhile in the same second for good.
import { appendFileSync, copyFileSync, renameSync, statSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppError } from '../../errors/app-error.ts';
import { isNotFound } from '../../lib/errno.ts';
import { createLimiter } from '../../lib/limiter.ts';
import { createFileFromChunks, linkQuietly, removeQuietly } from '../atomic-write.ts';
import type { CommitObject, Identity } from './commit-object.ts';
import { encodeCommit } from './commit-object.ts';
import { encodeJournal, readLockFile } from './commit-journal.ts';
import type { CommitJournal } from './commit-journal.ts';
import type { CommitPacks } from './commit-packs.ts';
import { encodeIndexEntry, GitIndex, IndexFormatError } from './index-file.ts';
import type { IndexEdit } from './index-file.ts';
import { isOwnerRunning, ownerLine } from './lock-owner.ts';
import type { LockOwner } from './lock-owner.ts';
import { prepareObject } from './objects.ts';
import type { PreparedObject } from './objects.ts';
import { removeStaleGitPackTemps } from './pack-temps.ts';
import { removeStalePackTemps } from './pack-writer.ts';
import { dropLastReflogEntry, headReflogs } from './reflog.ts';
import { acquireLock, gitTempPath, LOCK_WAIT_MS, readHead, readRef, removeDeadTempIndexLocks, removeStaleGitTemps, updateRef } from './refs.ts';
import type { HeadState, HeldLock } from './refs.ts';
import { SplitIndex } from './split-index.ts';
import { FILE_MODE } from './tree.ts';
import type { TreeView } from './tree.ts';
import type { PathChange, TreeWriter } from './tree-writer.ts';
import type { FileWrite, Rollback } from './working-tree.ts';
import { FILES_BETWEEN_YIELDS, indexStatsOf, rollBackInterruptedWrites, WorkingTreeChange } from './working-tree.ts';

const FILE_MODE_BITS = Number.parseInt(FILE_MODE, 8);

/** What to commit: validated file changes, the full message and the author (also the committer). */
export interface CommitPlan {
  writes: FileWrite[];
  message: string;
  author: Identity;
  /** Parents after HEAD, which make the commit a merge (a restored backup's history). */
  extraParents?: string[];
}

/** The commit that was written and the files it changed. */
export interface WrittenCommit {
  oid: string;
  commit: CommitObject;
  changes: PathChange[];
}

/** Reads objects for the writer; content-repo wires them to the object store. */
export interface WriterReads {
  readCommit(oid: string): Promise<CommitObject | undefined>;
  readTree(oid: string): Promise<TreeView>;
  readBlob(oid: string): Promise<Buffer | undefined>;
}

/** Options of the writer: lock patience, index format and reflogs. */
export interface WriterOptions {
  lockWaitMs?: number;
  /** Write `.git/index` as a split index (git reads it; libgit2, JGit and isomorphic-git do not). */
  splitIndex?: boolean;
  /** Create missing reflogs (git's core.logAllRefUpdates); existing ones are always extended. */
  createReflogs?: boolean;
}

/** index.lock held for a git command that moves the branch and then rewrites the index (CommitWriter.holdIndex()). */
export interface IndexHold {
  /** A copy of `.git/index` for the command to work on (its GIT_INDEX_FILE), in `.git`. */
  indexFile: string;
  /** Puts the copy in place as `.git/index` and drops the lock. */
  install(): void;
  /** Drops the copy and the lock, leaving `.git/index` as it was. */
  release(): void;
}

/** What start-up recovery found in `.git/index.lock` and did about it. */
export type Recovery =
  | { kind: 'none' }
  /** A lock of a git command (or another tool); left alone, writes answer `conflict` until it goes. */
  | { kind: 'foreign-lock'; ageMs: number }
  /** A lock of a server process that is still running; left alone. */
  | { kind: 'live-lock'; owner: LockOwner }
  /** A dead server's lock taken before its commit touched anything; removed. */
  | { kind: 'released' }
  /** A dead server's commit that had reached its branch: the index was put in place. */
  | { kind: 'completed'; commit: string; files: string[] }
  /** A dead server's commit that had not reached its branch: its files were put back. */
  | ({ kind: 'rolled-back'; commit: string } & Rollback);

// A file of the commit with its blob, or null for a deletion.
type BlobWrite = { path: string; object: PreparedObject | null };

// The index that commits left to write; the index.lock that keeps git from
// reading the stale one into a commit of its own meanwhile, and the commits'
// journals in it; the paths they wrote, whose entries get their stats when
// the index is written; the index on disk it was built on, and its stamp.
type PendingIndex = { lock: HeldLock; journals: string[]; index: SplitIndex; paths: Set<string>; base: { index: SplitIndex; stamp: string } };

/**
 * Commits file changes onto HEAD's branch. Callers serialize write() calls;
 * flushIndex() may come at any time (the write-behind's timer), and waits
 * for a write in progress.
 */
export class CommitWriter {
  // write() and flushIndex() one at a time.
  private readonly exclusive = createLimiter(1);
  private treeBase: string | undefined | null = null;
  private index: { value: SplitIndex; stamp: string } | undefined;
  private pending: PendingIndex | undefined;

  constructor(
    private readonly root: string,
    private readonly gitdir: string,
    private readonly objects: CommitPacks,
    private readonly trees: TreeWriter,
    private readonly reads: WriterReads,
    private readonly options: WriterOptions = {},
  ) {}

  private get lockWaitMs(): number {
    return this.options.lockWaitMs ?? LOCK_WAIT_MS;
  }

  private get lockPath(): string {
    return path.join(this.gitdir, 'index.lock');
  }

  private get packDir(): string {
    return path.join(this.gitdir, 'objects', 'pack');
  }

  private get indexPath(): string {
    return path.join(this.gitdir, 'index');
  }

  /**
   * Writes one commit and returns it. Throws `conflict` when a git lock is
   * held or HEAD moved meanwhile, when a path collides with a folder or
   * symlink, or when a path holds uncommitted work (working tree or index)
   * that the write would destroy; `internal_error` when the index cannot be
   * read. Every failure leaves working tree, index and HEAD as they were.
   * The commit's index is left pending: call flushIndex() (now or after
   * more commits), which gives index.lock back.
   */
  write(plan: CommitPlan): Promise<WrittenCommit> {
    return this.exclusive(() => this.commit(plan));
  }

  /**
   * Writes the index that commits left pending and gives index.lock back.
   * Throws when the index cannot be written (a full disk), or `conflict`
   * while a git command holds a lock someone took over (keepPending()); it
   * then stays pending, with the lock held where it still is the server's,
   * and a later call or a restart (recover()) writes it.
   */
  flushIndex(): Promise<void> {
    return this.exclusive(() => this.writePendingIndex());
  }

  /**
   * Writes the index that commits left pending, then holds index.lock for a
   * branch move (a push, an upstream sync) until install() or release():
   * from the moment the branch moves until the index follows it, a
   * developer's `git commit` would commit the old index onto the new
   * branch, undoing what came in. The git command that rewrites the index
   * works on a copy (`indexFile`). Between the index write and taking the
   * lock again the branch has not moved yet: index and HEAD agree. Throws
   * `conflict` while a git command holds the lock, or what writing the
   * pending index throws.
   */
  holdIndex(): Promise<IndexHold> {
    return this.exclusive(async () => {
      await this.writePendingIndex();
      const lock = await acquireLock(this.gitdir, this.lockPath, ownerLine(), this.lockWaitMs);
      const indexFile = gitTempPath(this.gitdir);
      try {
        copyFileSync(this.indexPath, indexFile);
      } catch (error) {
        // Without an index git starts from an empty one, as it would have.
        if (!isNotFound(error)) {
          lock.release();
          throw error;
        }
      }
      return {
        indexFile,
        install: () => {
          try {
            this.replaceIndex(indexFile);
          } finally {
            removeQuietly(indexFile);
            lock.release();
          }
        },
        release: () => {
          removeQuietly(indexFile);
          lock.release();
        },
      };
    });
  }

  private async commit(plan: CommitPlan): Promise<WrittenCommit> {
    const held = this.pending === undefined ? undefined : await this.keepPending(this.pending);
    const lock = held?.lock ?? (await acquireLock(this.gitdir, this.lockPath, ownerLine(), this.lockWaitMs));
    const workingTree = new WorkingTreeChange(this.root);
    let written: { result: WrittenCommit; index: SplitIndex; journal: string; adopt: () => void };
    let base: PendingIndex['base'] | undefined = held?.base;
    try {
      // Read HEAD under index.lock: a git CLI commit holds that lock too.
      const head = await readHead(this.gitdir);
      await this.syncTrees(head.oid);
      const index = held?.index ?? (await this.loadIndex(head));
      base ??= { index, stamp: stampOf(this.indexPath) };
      const blobs: BlobWrite[] = plan.writes.map(({ path: file, data }) => ({ path: file, object: data === null ? null : prepareObject('blob', data) }));
      const staged = await this.trees.stage(blobs.map(({ path: file, object }) => ({ path: file, oid: object?.oid ?? null })));
      const committed = (file: string) => staged.committed.get(file);
      for (const { path: file, object } of blobs) assertNothingStaged(index, file, committed(file), object?.oid);
      workingTree.check(plan.writes, committed);
      const commit = commitOnto(head, staged.rootTree, plan);
      const commitObject = prepareObject('commit', encodeCommit(commit));
      const oid = commitObject.oid;
      const files = new Map(blobs.map(({ path: file, object }) => [file, object?.oid ?? null]));
      // The journal goes in before the first file changes (commit-journal.ts).
      const journal = encodeJournal({ ref: head.ref, base: head.oid ?? null, commit: oid, files });
      appendFileSync(lock.path, journal);
      const objects = [...blobs.flatMap(({ object }) => (object === null ? [] : [object])), ...staged.objects, commitObject];
      this.objects.write(objects);
      const next = await this.writeFiles(blobs, index, workingTree);
      await updateRef(this.gitdir, head.ref, oid, head.oid, {
        waitMs: this.lockWaitMs,
        reflog: { refs: headReflogs(head.ref), entry: { from: head.oid, to: oid, identity: plan.author, message: reflogMessage(commit) }, create: this.createReflogs },
      });
      written = { result: { oid, commit, changes: staged.changes }, index: next, journal, adopt: staged.adopt };
    } catch (error) {
      await workingTree.restore();
      if (held === undefined) lock.release();
      throw error;
    }
    // The commit is on the branch: from here on nothing undoes it.
    written.adopt();
    this.treeBase = written.result.oid;
    const paths = held?.paths ?? new Set<string>();
    for (const { path: file } of plan.writes) paths.add(file);
    this.pending = { lock, journals: [...(held?.journals ?? []), written.journal], index: written.index, paths, base };
    return written.result;
  }

  private async writePendingIndex(): Promise<void> {
    if (this.pending === undefined) return;
    const pending = await this.keepPending(this.pending);
    // A temp name of its own, not the journal's: recovery must never put a half-written index in place.
    const tempIndex = gitTempPath(this.gitdir);
    let sharedFile: string | undefined;
    try {
      const next = await pending.index.edit(await this.statEntries(pending.index, pending.paths)).prepare(this.gitdir, this.options.splitIndex ?? false);
      createFileFromChunks(tempIndex, next.chunks, 0o644);
      this.replaceIndex(tempIndex);
      this.index = { value: next.index, stamp: stampOf(this.indexPath) };
      sharedFile = next.sharedFile;
    } catch (error) {
      removeQuietly(tempIndex);
      throw error;
    }
    this.pending = undefined;
    pending.lock.release();
    if (sharedFile !== undefined) await SplitIndex.prune(this.gitdir, sharedFile).catch(() => undefined);
  }

  // A pending index is written only while index.lock is still the server's
  // and .git/index is the one it was built on. Someone may have deleted the
  // lock by hand (git's advice when a lock is in its way) and let git write
  // the index since: the lock is taken again, with the commits' journals
  // (`conflict` while a git command holds one), and the commits' entries go
  // onto the index as it is now, except where the developer staged something
  // else at their paths, which is kept.
  private async keepPending(pending: PendingIndex): Promise<PendingIndex> {
    if (pending.lock.isHeld()) return pending;
    pending.lock.abandon();
    const lock = await acquireLock(this.gitdir, this.lockPath, ownerLine() + pending.journals.join(''), this.lockWaitMs);
    try {
      const stamp = stampOf(this.indexPath);
      if (stamp === pending.base.stamp) {
        this.pending = { ...pending, lock };
        return this.pending;
      }
      const current = await this.loadIndex(await readHead(this.gitdir));
      const ours = [...pending.paths].filter((file) => !current.isUnmerged(file) && current.stagedOid(file) === pending.base.index.stagedOid(file));
      const edits = ours.map((file): IndexEdit => {
        const oid = pending.index.stagedOid(file);
        return { path: file, entry: oid === undefined ? null : encodeIndexEntry(file, oid, FILE_MODE_BITS) };
      });
      this.pending = { ...pending, lock, index: current.edit(edits), paths: new Set(ours), base: { index: current, stamp } };
      return this.pending;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /**
   * Run once at start, before any write: finishes or undoes a commit that a
   * killed server left in `.git/index.lock`. A commit whose ref had moved is
   * completed (its new index put in place); one whose ref had not is rolled
   * back (each file it wrote gets its committed version, temp files go).
   * Either way the index then agrees with HEAD for the commit's files. A lock
   * of a git command or of a running server is never touched.
   */
  async recover(): Promise<Recovery> {
    const found = readLockFile(this.lockPath);
    if (found.kind === 'none') {
      removeDeadTempIndexLocks(this.gitdir);
      removeStaleGitTemps(this.gitdir);
      removeStalePackTemps(this.packDir);
      removeStaleGitPackTemps(this.packDir);
      return { kind: 'none' };
    }
    if (found.kind === 'foreign') return { kind: 'foreign-lock', ageMs: found.ageMs };
    if (isOwnerRunning(found.owner)) return { kind: 'live-lock', owner: found.owner };
    const last = found.journals.at(-1);
    let recovery: Recovery = { kind: 'released' };
    if (last !== undefined) {
      // Only the last commit can be unfinished; the ones before it are on the branch and wait for their index entries.
      recovery = await this.finishOrUndo(last);
      await this.repairIndex([...new Set(found.journals.flatMap((journal) => [...journal.files.keys()]))]);
    }
    removeDeadTempIndexLocks(this.gitdir);
    removeStaleGitTemps(this.gitdir, 0);
    removeStalePackTemps(this.packDir, 0);
    removeStaleGitPackTemps(this.packDir);
    removeQuietly(this.lockPath);
    return recovery;
  }

  private async finishOrUndo(journal: CommitJournal): Promise<Recovery> {
    const refLock = path.join(this.gitdir, `${journal.ref}.lock`);
    if ((await readFile(refLock, 'latin1').catch(() => '')) === `${journal.commit}\n`) removeQuietly(refLock);
    const branch = await readRef(this.gitdir, journal.ref);
    if (branch === journal.commit) return { kind: 'completed', commit: journal.commit, files: [...journal.files.keys()] };
    dropLastReflogEntry(this.gitdir, headReflogs(journal.ref), journal.commit);
    await this.syncTrees(branch);
    const rollback = await rollBackInterruptedWrites(this.root, journal.files, async (file) => {
      const entry = await this.trees.entryAt(file);
      const data = entry === undefined || entry.isTree ? undefined : await this.reads.readBlob(entry.oid);
      return entry === undefined || data === undefined ? undefined : { oid: entry.oid, mode: entry.mode, data };
    });
    return { kind: 'rolled-back', commit: journal.commit, ...rollback };
  }

  // Sets the index entries of `files` to HEAD's (with fresh stats where the
  // file on disk matches), so `git status` agrees with HEAD for them.
  private async repairIndex(files: string[]): Promise<void> {
    const head = await readHead(this.gitdir);
    await this.syncTrees(head.oid);
    const index = await this.loadIndex(head);
    const edits: IndexEdit[] = [];
    for (const file of files) {
      const entry = await this.trees.entryAt(file);
      if (entry === undefined || entry.isTree) {
        edits.push({ path: file, entry: null });
        continue;
      }
      edits.push({ path: file, entry: encodeIndexEntry(file, entry.oid, Number.parseInt(entry.mode, 8), indexStatsOf(path.join(this.root, file), entry.oid)) });
    }
    const tempIndex = gitTempPath(this.gitdir);
    const next = await index.edit(edits).prepare(this.gitdir, this.options.splitIndex ?? false);
    createFileFromChunks(tempIndex, next.chunks, 0o644);
    this.replaceIndex(tempIndex);
    this.index = undefined;
  }

  /**
   * Reads `.git/index` as the next commit would. Throws `internal_error`
   * naming the problem when it cannot be read: the server never replaces an
   * index it cannot read, so whatever a developer staged is kept.
   */
  async checkIndex(): Promise<void> {
    if (this.pending === undefined) await this.loadIndex(await readHead(this.gitdir));
  }

  // Writes the working tree and returns the index with the new files'
  // entries, without stats until the index is written (statEntries()).
  private async writeFiles(blobs: BlobWrite[], index: SplitIndex, workingTree: WorkingTreeChange): Promise<SplitIndex> {
    await workingTree.apply();
    return index.edit(blobs.map(({ path: file, object }) => ({ path: file, entry: object === null ? null : encodeIndexEntry(file, object.oid, FILE_MODE_BITS) })));
  }

  // The entries of the files commits wrote, with stats from each file that
  // still holds its committed blob; a file edited since keeps an entry
  // without stats, which git checks by content and finds modified.
  private async statEntries(index: SplitIndex, paths: Set<string>): Promise<IndexEdit[]> {
    const edits: IndexEdit[] = [];
    for (const [i, file] of [...paths].entries()) {
      // A commit of thousands of files (a restore) lets requests in between, as its writes did.
      if (i > 0 && i % FILES_BETWEEN_YIELDS === 0) await yieldToEventLoop();
      const oid = index.stagedOid(file);
      if (oid !== undefined) edits.push({ path: file, entry: encodeIndexEntry(file, oid, FILE_MODE_BITS, indexStatsOf(path.join(this.root, file), oid)) });
    }
    return edits;
  }

  private get createReflogs(): boolean {
    return this.options.createReflogs ?? true;
  }

  private replaceIndex(tempIndex: string): void {
    // Freeing a large file's blocks can be slow (ext4 with online discard):
    // the old index stays linked aside through the rename and is deleted in
    // the background, off the commit's path.
    const aside = gitTempPath(this.gitdir);
    const keptAside = linkQuietly(this.indexPath, aside);
    renameSync(tempIndex, this.indexPath);
    if (keptAside) void unlink(aside).catch(() => undefined);
  }

  private async syncTrees(headOid: string | undefined): Promise<void> {
    if (this.treeBase === headOid) return;
    const commit = headOid === undefined ? undefined : await this.reads.readCommit(headOid);
    if (headOid !== undefined && commit === undefined) throw new AppError('internal_error', `The content repository is damaged: HEAD points to a missing commit ${headOid}.`);
    this.trees.reset(commit?.tree);
    this.treeBase = headOid;
  }

  // Reused while nobody else rewrote .git/index; re-read after a git command
  // touched it, and built from HEAD only when there is none.
  private async loadIndex(head: HeadState): Promise<SplitIndex> {
    const stamp = stampOf(this.indexPath);
    if (this.index !== undefined && this.index.stamp === stamp) return this.index.value;
    let data: Buffer;
    try {
      data = await readFile(this.indexPath);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      return SplitIndex.fromFull(await this.indexFromHead(head));
    }
    try {
      const loaded = await SplitIndex.fromDisk(this.gitdir, GitIndex.parse(data));
      this.index = { value: loaded, stamp };
      return loaded;
    } catch (error) {
      if (!(error instanceof IndexFormatError)) throw error;
      throw new AppError(
        'internal_error',
        `The git index of the content repository cannot be used: ${error.message}. The server leaves it as it is; check it with git status in the content folder.`,
        { cause: error },
      );
    }
  }

  private async indexFromHead(head: HeadState): Promise<GitIndex> {
    const commit = head.oid === undefined ? undefined : await this.reads.readCommit(head.oid);
    if (commit === undefined) return GitIndex.EMPTY;
    const files: { path: string; mode: number; oid: string }[] = [];
    const visit = async (treeOid: string, base: string): Promise<void> => {
      for (const entry of (await this.reads.readTree(treeOid)).entries()) {
        const file = base === '' ? entry.name : `${base}/${entry.name}`;
        if (entry.isTree) await visit(entry.oid, file);
        else files.push({ path: file, mode: Number.parseInt(entry.mode, 8), oid: entry.oid });
      }
    };
    await visit(commit.tree, '');
    return GitIndex.fromEntries(files);
  }
}

// What a developer staged for a path must survive: the index may hold the
// committed blob or the one being written, nothing else, and no conflict.
function assertNothingStaged(index: SplitIndex, file: string, committed: string | undefined, target: string | undefined): void {
  const staged = index.stagedOid(file);
  if (!index.isUnmerged(file) && (staged === committed || staged === target)) return;
  throw new AppError(
    'conflict',
    `The file "${file}" has changes staged in the content folder's git index that are not committed; commit or unstage them with git, then try again.`,
  );
}

// HEAD (when there is one) is the first parent; extra parents make a merge.
function commitOnto(head: HeadState, tree: string, plan: CommitPlan): CommitObject {
  return {
    tree,
    parents: [...(head.oid === undefined ? [] : [head.oid]), ...(plan.extraParents ?? []).filter((oid) => oid !== head.oid)],
    author: plan.author,
    committer: plan.author,
    message: plan.message,
  };
}

// git's own wording: `commit (initial): …`, `commit (merge): …`, `commit: …`.
function reflogMessage(commit: CommitObject): string {
  const kind = commit.parents.length === 0 ? ' (initial)' : commit.parents.length > 1 ? ' (merge)' : '';
  return `commit${kind}: ${commit.message.split('\n')[0]}`;
}

function stampOf(file: string): string {
  try {
    const info = statSync(file, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch (error) {
    if (isNotFound(error)) return 'missing';
    throw error;
  }
}
