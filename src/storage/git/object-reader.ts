// Reads commits, trees and blobs by id, with caches: objects are immutable,
// so a cached one never goes stale. Loose objects are read natively; packed
// ones (after `git gc` or a clone) through isomorphic-git.
import fs from 'node:fs';
import git from 'isomorphic-git';
import { LruCache } from '../../lib/lru-cache.ts';
import { decodeCommit } from './commit-object.ts';
import type { CommitObject } from './commit-object.ts';
import { isObjectType, ObjectStore } from './objects.ts';
import type { RawObject } from './objects.ts';
import { TreeView } from './tree.ts';

const TREE_CACHE_BYTES = 64 * 1024 * 1024;
const COMMITS_CACHED = 50_000;

/** Typed, cached object reads for one repository; `store` also writes. */
export class ObjectReader {
  readonly store: ObjectStore;
  private readonly gitCache = {};
  private readonly trees = new LruCache<string, TreeView>(TREE_CACHE_BYTES, (view) => view.body.length + 64);
  private readonly commits = new LruCache<string, CommitObject>(COMMITS_CACHED);

  constructor(
    private readonly dir: string,
    objectsDir: string,
  ) {
    this.store = new ObjectStore(objectsDir, (oid) => this.readPacked(oid));
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

  /** Seeds the commit cache with a commit this process just wrote. */
  rememberCommit(oid: string, commit: CommitObject): void {
    this.commits.set(oid, commit);
  }

  /** A tree; throws when it is missing, since a commit or parent tree refers to it. */
  async readTree(oid: string): Promise<TreeView> {
    const cached = this.trees.get(oid);
    if (cached !== undefined) return cached;
    const raw = await this.store.read(oid);
    if (raw === undefined || raw.type !== 'tree') throw new Error(`The git tree ${oid} is missing from the content repository.`);
    const view = new TreeView(raw.body);
    this.trees.set(oid, view);
    return view;
  }

  /** A blob's bytes, or undefined when missing. */
  async readBlob(oid: string): Promise<Buffer | undefined> {
    const raw = await this.store.read(oid);
    return raw?.type === 'blob' ? raw.body : undefined;
  }

  private async readPacked(oid: string): Promise<RawObject | undefined> {
    try {
      const result = await git.readObject({ fs, dir: this.dir, oid, format: 'content', cache: this.gitCache });
      if (!isObjectType(result.type) || !(result.object instanceof Uint8Array)) return undefined;
      return { type: result.type, body: Buffer.from(result.object.buffer, result.object.byteOffset, result.object.byteLength) };
    } catch (error) {
      if (error instanceof git.Errors.NotFoundError) return undefined;
      throw error;
    }
  }
}
