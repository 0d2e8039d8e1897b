// Reads commits, trees and blobs by id, with caches: objects are immutable,
// so a cached one never goes stale. Loose objects are read by objects.ts,
// packed ones (after `git gc`, a repack or a clone) by pack-reader.ts.
import path from 'node:path';
import { AppError } from '../../errors/app-error.ts';
import { LruCache } from '../../lib/lru-cache.ts';
import { decodeCommit } from './commit-object.ts';
import { CommitPacks } from './commit-packs.ts';
import type { CommitObject } from './commit-object.ts';
import { ObjectStore } from './objects.ts';
import { PackReader } from './pack-reader.ts';
import { TreeView } from './tree.ts';

const TREE_CACHE_BYTES = 64 * 1024 * 1024;
const COMMITS_CACHED = 50_000;
// How many tags of tags are followed to reach a commit (git allows any depth; nobody needs more).
const TAG_DEPTH = 8;

/** Typed, cached object reads for one repository; `store` and `commitPacks` also write. */
export class ObjectReader {
  readonly store: ObjectStore;
  readonly commitPacks: CommitPacks;
  private readonly packs: PackReader;
  private readonly trees = new LruCache<string, TreeView>(TREE_CACHE_BYTES, (view) => view.body.length + 64);
  private readonly commits = new LruCache<string, CommitObject>(COMMITS_CACHED);

  /** `commitsPerRollUp`: how many commit packs commitPacks rolls up into one (default 64). */
  constructor(objectsDir: string, commitsPerRollUp?: number) {
    this.packs = new PackReader(path.join(objectsDir, 'pack'), (oid) => this.store.read(oid));
    this.store = new ObjectStore(objectsDir, (oid) => this.packs.read(oid));
    this.commitPacks = new CommitPacks(path.join(objectsDir, 'pack'), {
      add: (pack) => this.packs.add(pack),
      relist: () => this.packs.relist(),
    }, commitsPerRollUp);
  }

  /** A decoded commit, or undefined when the repository has no commit with that id. */
  async readCommit(oid: string): Promise<CommitObject | undefined> {
    const cached = this.commits.get(oid);
    if (cached !== undefined) return cached;
    const raw = await this.store.read(oid);
    if (raw === undefined || raw.type !== 'commit') return undefined;
    const commit = decodeCommit(raw.body, oid);
    this.commits.set(oid, commit);
    return commit;
  }

  /**
   * The commit `oid` names: itself when it is a commit, the commit an
   * annotated tag (or a tag of a tag) points to; undefined when it is
   * missing or names a tree or blob.
   */
  async peelToCommit(oid: string): Promise<string | undefined> {
    let current = oid;
    for (let depth = 0; depth < TAG_DEPTH; depth += 1) {
      if (this.commits.get(current) !== undefined) return current;
      const raw = await this.store.read(current);
      if (raw?.type === 'commit') return current;
      if (raw?.type !== 'tag') return undefined;
      const target = /^object ([0-9a-f]{40})\n/.exec(raw.body.toString('latin1', 0, 64))?.[1];
      if (target === undefined) return undefined;
      current = target;
    }
    return undefined;
  }

  /** Up to `limit` object ids, loose or packed, that start with the hex `prefix` (at least two digits). */
  idsWithPrefix(prefix: string, limit: number): string[] {
    const found = new Set([...this.store.looseIdsWithPrefix(prefix, limit), ...this.packs.idsWithPrefix(prefix, limit)]);
    return [...found].slice(0, limit);
  }

  /** Seeds the commit cache with a commit this process just wrote. */
  rememberCommit(oid: string, commit: CommitObject): void {
    this.commits.set(oid, commit);
  }

  /** A tree; throws `internal_error` when it is missing, since a commit or parent tree refers to it. */
  async readTree(oid: string): Promise<TreeView> {
    const cached = this.trees.get(oid);
    if (cached !== undefined) return cached;
    const raw = await this.store.read(oid);
    if (raw === undefined || raw.type !== 'tree') throw new AppError('internal_error', `The content repository is damaged: the git tree ${oid} is missing.`);
    const view = new TreeView(raw.body);
    this.trees.set(oid, view);
    return view;
  }

  /** A blob's bytes, or undefined when missing. */
  async readBlob(oid: string): Promise<Buffer | undefined> {
    const raw = await this.store.read(oid);
    return raw?.type === 'blob' ? raw.body : undefined;
  }

  /** After a repack: picks up packs written, drops packs deleted and forgets the object folders it emptied. */
  afterRepack(): void {
    this.packs.relist();
    this.store.forgetFolders();
  }

  /** Closes the packs it holds open. */
  close(): void {
    this.commitPacks.close();
    this.packs.close();
  }
}
