// Writes one commit the way git does, in git's lock order: take index.lock,
// write objects, write the working tree, write the new index into the lock,
// move the branch ref (compare-and-swap under its own lock), then rename the
// lock over the index. Any failure before the rename undoes the working tree
// and leaves index and HEAD untouched.
import { renameSync, statSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isNotFound } from '../../lib/errno.ts';
import type { CommitObject, Identity } from './commit-object.ts';
import { encodeCommit } from './commit-object.ts';
import { encodeIndexEntry, GitIndex } from './index-file.ts';
import { SplitIndex } from './split-index.ts';
import type { PreparedIndex } from './split-index.ts';
import type { IndexEdit } from './index-file.ts';
import { prepareObject } from './objects.ts';
import type { ObjectStore, PreparedObject } from './objects.ts';
import { acquireLock, LOCK_WAIT_MS, readHead, updateRef } from './refs.ts';
import type { HeadState, HeldLock } from './refs.ts';
import { FILE_MODE } from './tree.ts';
import type { TreeView } from './tree.ts';
import type { PathChange, TreeWriter } from './tree-writer.ts';
import type { FileWrite } from './working-tree.ts';
import { WorkingTreeChange } from './working-tree.ts';

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

/** Reads trees and commits for the writer; content-repo wires them to the object store. */
export interface WriterReads {
  readCommit(oid: string): Promise<CommitObject | undefined>;
  readTree(oid: string): Promise<TreeView>;
}

// A file of the commit with its blob, or null for a deletion.
type BlobWrite = { path: string; object: PreparedObject | null };

// What writeFilesAndIndex() needs of one commit in progress.
interface FilesAndIndexStep {
  writes: FileWrite[];
  blobs: BlobWrite[];
  head: HeadState;
  workingTree: WorkingTreeChange;
  lock: HeldLock;
}

/** Commits file changes onto HEAD's branch; callers serialize calls. */
export class CommitWriter {
  private treeBase: string | undefined | null = null;
  private index: { value: SplitIndex; stamp: string } | undefined;

  constructor(
    private readonly root: string,
    private readonly gitdir: string,
    private readonly objects: ObjectStore,
    private readonly trees: TreeWriter,
    private readonly reads: WriterReads,
    private readonly options: { lockWaitMs?: number; splitIndex?: boolean } = {},
  ) {}

  private get lockWaitMs(): number {
    return this.options.lockWaitMs ?? LOCK_WAIT_MS;
  }

  /**
   * Writes one commit and returns it. Throws `conflict` when a git lock is
   * held or HEAD moved meanwhile, or when a path collides with a folder or
   * symlink; every failure leaves working tree, index and HEAD as they were.
   */
  async write(plan: CommitPlan): Promise<WrittenCommit> {
    const lock = await acquireLock(path.join(this.gitdir, 'index.lock'), this.lockWaitMs);
    const workingTree = new WorkingTreeChange(this.root);
    let written: { result: WrittenCommit; index: PreparedIndex; adopt: () => void };
    try {
      // Read HEAD under index.lock: a git CLI commit holds that lock too.
      const head = await readHead(this.gitdir);
      await this.syncTrees(head.oid);
      const blobs: BlobWrite[] = plan.writes.map(({ path: file, data }) => ({ path: file, object: data === null ? null : prepareObject('blob', data) }));
      const staged = await this.trees.stage(blobs.map(({ path: file, object }) => ({ path: file, oid: object?.oid ?? null })));
      const commit = commitOnto(head, staged.rootTree, plan);
      const commitObject = prepareObject('commit', encodeCommit(commit));
      const oid = commitObject.oid;
      const objects = [...blobs.flatMap(({ object }) => (object === null ? [] : [object])), ...staged.objects, commitObject];
      // Objects, working tree and the new index do not depend on each other; only the ref move must come last.
      const [stored, prepared] = await Promise.allSettled([
        this.objects.writeAll(objects),
        this.writeFilesAndIndex({ writes: plan.writes, blobs, head, workingTree, lock }),
      ]);
      // Both must have settled before a failure triggers restore(), or restore would race the writes.
      if (stored.status === 'rejected') throw stored.reason;
      if (prepared.status === 'rejected') throw prepared.reason;
      const index = prepared.value;
      await updateRef(this.gitdir, head.ref, oid, head.oid, this.lockWaitMs);
      await this.commitIndexLock(lock.path, head, oid);
      written = { result: { oid, commit, changes: staged.changes }, index, adopt: staged.adopt };
    } catch (error) {
      await lock.release();
      await workingTree.restore();
      throw error;
    }
    written.adopt();
    this.treeBase = written.result.oid;
    this.index = { value: written.index.index, stamp: await stampOf(this.indexPath).catch(() => 'unknown') };
    if (written.index.sharedFile !== undefined) await SplitIndex.prune(this.gitdir, written.index.sharedFile).catch(() => undefined);
    return written.result;
  }

  // The working tree goes first because index entries carry the new files'
  // stats; the new index is written into the held index.lock, which
  // commitIndexLock() renames over the index once the ref has moved.
  private async writeFilesAndIndex(step: FilesAndIndexStep): Promise<PreparedIndex> {
    const stats = await step.workingTree.apply(step.writes);
    const edits: IndexEdit[] = step.blobs.map(({ path: file, object }) => ({
      path: file,
      entry: object === null ? null : encodeIndexEntry(file, object.oid, FILE_MODE_BITS, stats.get(file)),
    }));
    const next = await (await this.loadIndex(step.head)).edit(edits).prepare(this.gitdir, this.options.splitIndex ?? true);
    await step.lock.handle.writev(next.chunks);
    await step.lock.handle.close();
    return next;
  }

  private get indexPath(): string {
    return path.join(this.gitdir, 'index');
  }

  // If the index cannot be replaced after the branch moved, move the branch back.
  private async commitIndexLock(lockPath: string, head: HeadState, oid: string): Promise<void> {
    try {
      renameSync(lockPath, this.indexPath);
    } catch (error) {
      if (head.oid === undefined) await unlink(path.join(this.gitdir, head.ref)).catch(() => undefined);
      else await updateRef(this.gitdir, head.ref, head.oid, oid, this.lockWaitMs).catch(() => undefined);
      throw error;
    }
  }

  private async syncTrees(headOid: string | undefined): Promise<void> {
    if (this.treeBase === headOid) return;
    const commit = headOid === undefined ? undefined : await this.reads.readCommit(headOid);
    if (headOid !== undefined && commit === undefined) throw new Error(`HEAD points to a missing commit ${headOid}.`);
    this.trees.reset(commit?.tree);
    this.treeBase = headOid;
  }

  // Reused while nobody else rewrote .git/index; re-read (or rebuilt from HEAD
  // when unreadable) after a git command touched it.
  private async loadIndex(head: HeadState): Promise<SplitIndex> {
    const stamp = await stampOf(this.indexPath);
    if (this.index !== undefined && this.index.stamp === stamp) return this.index.value;
    let data: Buffer | undefined;
    try {
      data = await readFile(this.indexPath);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    const parsed = data === undefined ? undefined : GitIndex.parse(data);
    const loaded = parsed === undefined ? undefined : await SplitIndex.fromDisk(this.gitdir, parsed);
    return loaded ?? SplitIndex.fromFull(await this.indexFromHead(head));
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

async function stampOf(file: string): Promise<string> {
  try {
    const info = statSync(file, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch (error) {
    if (isNotFound(error)) return 'missing';
    throw error;
  }
}
