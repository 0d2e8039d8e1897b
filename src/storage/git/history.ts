// Reading history: tree diffs that descend only into subtrees whose ids
// differ, first-parent walks from HEAD, and per-path logs that follow renames.
// A commit's own changes (against its first parent) never change, so they are
// memoized by commit id; commits this process writes are recorded for free.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { groupBy } from '../../lib/group-by.ts';
import { LruCache } from '../../lib/lru-cache.ts';
import type { CommitObject } from './commit-object.ts';
import { diffTreeViews, EXECUTABLE_MODE, FILE_MODE, TreeView } from './tree.ts';
import { parentOf } from './tree-writer.ts';
import type { TreeEntry } from './tree.ts';
import type { ChangedPath, PathChange } from './tree-writer.ts';

/** Object access the history walks need; content-repo implements it. */
export interface HistoryReader {
  readCommit(oid: string): Promise<CommitObject | undefined>;
  readTree(oid: string): Promise<TreeView>;
  readBlob(oid: string): Promise<Buffer | undefined>;
}

/** A commit found by a log walk. */
export interface LoggedCommit {
  oid: string;
  commit: CommitObject;
}

/** Options of History.log() and ContentRepo.log(). */
export interface PathLogOptions {
  paths: string[];
  limit?: number;
  /**
   * Rename rule: when a followed path was added by a commit, each path that
   * commit deleted is followed further back if `follow(path, oldContent)` is
   * true (for entries: the old file carries the same `id:`).
   */
  follow?: (path: string, content: string) => boolean;
}

/** Options of History.logByContent() and ContentRepo.logByContent(). */
export interface ContentLogOptions {
  /** Folder to watch, e.g. `blog/` ('' for the whole repo). */
  prefix: string;
  match: (path: string, content: string) => boolean;
  limit?: number;
}

const MEMO_WEIGHT = 500_000;
// Object reads are synchronous, so a long walk gives other requests a turn this often.
const YIELD_EVERY_MS = 10;

/** History queries over one repository. */
export class History {
  private readonly memo = new LruCache<string, PathChange[]>(MEMO_WEIGHT, (changes) => changes.length + 1);

  constructor(private readonly reader: HistoryReader) {}

  /** Records the changes of a commit this process wrote, so walks need not diff it. */
  remember(oid: string, changes: PathChange[]): void {
    this.memo.set(oid, changes);
  }

  /** Files that differ between two root trees under `prefix` (a folder path, '' for all), sorted by path. */
  async diff(fromTree: string | undefined, toTree: string | undefined, prefix: string): Promise<ChangedPath[]> {
    return (await this.diffWithBlobs(fromTree, toTree, prefix)).map(({ path, change }) => ({ path, change }));
  }

  /**
   * Commits (newest first) that changed any followed path, walking first
   * parents, except at a merge whose followed files equal those of another
   * parent and not the first: the files came from that side (a restored
   * backup), so the walk continues there, like git's history simplification.
   */
  async log(head: string, options: PathLogOptions): Promise<LoggedCommit[]> {
    const followed = new Set(options.paths);
    const found: LoggedCommit[] = [];
    for await (const { oid, commit } of this.walk(head, (merge) => this.sideOf(merge, followed))) {
      if (followed.size === 0 || found.length >= (options.limit ?? Infinity)) break;
      if (commit.parents.length > 1 && (await this.sideOf(commit, followed)) !== undefined) continue;
      const changes = await this.changesOf(oid, commit);
      const hits = changes.filter((change) => followed.has(change.path));
      if (hits.length === 0) continue;
      found.push({ oid, commit });
      if (options.follow !== undefined && hits.some((hit) => hit.change === 'added')) {
        await this.followRenames(changes, hits, followed, options.follow);
      }
    }
    return found;
  }

  /**
   * For each of `paths`, the newest commit on the first-parent walk from
   * `head` that changed it, stopping at `stop` (excluded), after `maxCommits`
   * commits, or once every path is found; paths not found are left out.
   * `depth` counts first parents from `head` (0), so callers can tell which of two finds is newer.
   */
  async newestChanges(head: string, stop: string, paths: Iterable<string>, maxCommits: number): Promise<Map<string, LoggedCommit & { depth: number }>> {
    const pending = new Set(paths);
    const found = new Map<string, LoggedCommit & { depth: number }>();
    let depth = 0;
    for await (const logged of this.walk(head)) {
      if (logged.oid === stop || pending.size === 0 || depth >= maxCommits) break;
      for (const { path } of await this.changesOf(logged.oid, logged.commit)) {
        if (pending.delete(path)) found.set(path, { ...logged, depth });
      }
      depth += 1;
    }
    return found;
  }

  /** Commits (newest first) that added, modified or deleted a file under `prefix` whose content matches. */
  async logByContent(head: string, options: ContentLogOptions): Promise<LoggedCommit[]> {
    const found: LoggedCommit[] = [];
    const inPrefix = (path: string): boolean => options.prefix === '' || path.startsWith(`${options.prefix.replace(/\/$/, '')}/`);
    for await (const { oid, commit } of this.walk(head)) {
      if (found.length >= (options.limit ?? Infinity)) break;
      for (const change of (await this.changesOf(oid, commit)).filter((c) => inPrefix(c.path))) {
        const content = await this.readBlobText(change.change === 'deleted' ? change.before : change.after);
        if (content !== undefined && options.match(change.path, content)) {
          found.push({ oid, commit });
          break;
        }
      }
    }
    return found;
  }

  /** The utf8 content of the file at `path` in a root tree, or undefined. */
  async readText(rootTree: string, path: string): Promise<string | undefined> {
    return this.readBlobText(await this.blobAt(rootTree, path));
  }

  /** The blob id of the regular file at `path` in a root tree; undefined when absent, a folder, a symbolic link or a submodule. */
  async regularFileAt(rootTree: string, path: string): Promise<string | undefined> {
    const entry = await this.entryAt(rootTree, path);
    return entry !== undefined && isRegularFile(entry.mode) ? entry.oid : undefined;
  }

  /**
   * regularFileAt() of many paths at once, in their order. Each folder is
   * found once, so reading a type's ten thousand files at start does not walk
   * the tree from its root for every one.
   */
  async regularFilesAt(rootTree: string, paths: string[]): Promise<(string | undefined)[]> {
    const oids: (string | undefined)[] = new Array(paths.length).fill(undefined);
    const positionsByFolder = groupBy(paths.keys(), (position) => parentOf(paths[position]));
    for (const [folder, positions] of positionsByFolder) {
      const view = await this.folderView(rootTree, folder);
      if (view === undefined) continue;
      const find = finderOf(view, positions.length);
      for (const position of positions) {
        const entry = find(paths[position].slice(folder === '' ? 0 : folder.length + 1));
        if (entry !== undefined && isRegularFile(entry.mode)) oids[position] = entry.oid;
      }
    }
    return oids;
  }

  /** Every file path under `folder` ('' for all) in a root tree, sorted; [] when the folder is missing. With `regularOnly`, links and submodules are left out. */
  async listFiles(rootTree: string, folder: string, options: { regularOnly?: boolean } = {}): Promise<string[]> {
    return (await this.listFileIds(rootTree, folder, options)).map(({ path }) => path);
  }

  /** listFiles() with the blob id of each file, from the same reading of its folders. */
  async listFileIds(rootTree: string, folder: string, options: { regularOnly?: boolean } = {}): Promise<{ path: string; oid: string }[]> {
    const start = await this.folderOid(rootTree, folder);
    const found: { path: string; oid: string }[] = [];
    const visit = async (tree: string, base: string): Promise<void> => {
      for (const entry of (await this.reader.readTree(tree)).entries()) {
        const file = base === '' ? entry.name : `${base}/${entry.name}`;
        if (entry.isTree) await visit(entry.oid, file);
        else if (!options.regularOnly || isRegularFile(entry.mode)) found.push({ path: file, oid: entry.oid });
      }
    };
    if (start !== undefined) await visit(start, folder);
    // The order of sort() on the paths themselves; a folder of plain names comes in it already, which the sort finds in one pass.
    return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The regular files directly inside `folder` in a root tree (paths, sorted; not those in its subfolders); [] when it is missing. */
  async listFilesIn(rootTree: string, folder: string): Promise<string[]> {
    const oid = await this.folderOid(rootTree, folder);
    if (oid === undefined) return [];
    const files = (await this.reader.readTree(oid)).entries().filter((entry) => !entry.isTree && isRegularFile(entry.mode));
    return files.map((entry) => (folder === '' ? entry.name : `${folder}/${entry.name}`)).sort();
  }

  /** The names of the folders directly inside `folder` in a root tree, sorted; [] when it is missing. */
  async listFolders(rootTree: string, folder: string): Promise<string[]> {
    const oid = await this.folderOid(rootTree, folder);
    if (oid === undefined) return [];
    return (await this.reader.readTree(oid)).entries().filter((entry) => entry.isTree).map((entry) => entry.name).sort();
  }

  private async followRenames(
    changes: PathChange[],
    hits: PathChange[],
    followed: Set<string>,
    follow: (path: string, content: string) => boolean,
  ): Promise<void> {
    for (const hit of hits) if (hit.change === 'added') followed.delete(hit.path);
    for (const change of changes) {
      if (change.change !== 'deleted' || followed.has(change.path)) continue;
      const content = await this.readBlobText(change.before);
      if (content !== undefined && follow(change.path, content)) followed.add(change.path);
    }
  }

  private async readBlobText(oid: string | undefined): Promise<string | undefined> {
    return oid === undefined ? undefined : (await this.reader.readBlob(oid))?.toString('utf8');
  }

  private async diffWithBlobs(fromTree: string | undefined, toTree: string | undefined, prefix: string): Promise<PathChange[]> {
    const before = fromTree === undefined ? undefined : await this.folderOid(fromTree, prefix);
    const after = toTree === undefined ? undefined : await this.folderOid(toTree, prefix);
    const out: PathChange[] = [];
    await this.diffFolders(before, after, prefix, out);
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  // The parent other than the first whose files at every followed path equal
  // the merge's own while the first parent's differ; undefined otherwise.
  private async sideOf(merge: CommitObject, followed: Set<string>): Promise<string | undefined> {
    if (merge.parents.length < 2 || followed.size === 0) return undefined;
    const paths = [...followed];
    const mine = await Promise.all(paths.map((path) => this.blobAt(merge.tree, path)));
    const sameAs = async (parent: string): Promise<boolean> => {
      const tree = (await this.reader.readCommit(parent))?.tree;
      if (tree === undefined) return false;
      const theirs = await Promise.all(paths.map((path) => this.blobAt(tree, path)));
      return theirs.every((oid, i) => oid === mine[i]);
    };
    if (await sameAs(merge.parents[0])) return undefined;
    for (const parent of merge.parents.slice(1)) if (await sameAs(parent)) return parent;
    return undefined;
  }

  private async blobAt(rootTree: string, path: string): Promise<string | undefined> {
    const entry = await this.entryAt(rootTree, path);
    return entry === undefined || entry.isTree ? undefined : entry.oid;
  }

  private async folderView(rootTree: string, folder: string): Promise<TreeView | undefined> {
    const oid = folder === '' ? rootTree : await this.folderOid(rootTree, folder);
    return oid === undefined ? undefined : this.reader.readTree(oid);
  }

  private async entryAt(rootTree: string, path: string): Promise<TreeEntry | undefined> {
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? rootTree : await this.folderOid(rootTree, path.slice(0, slash));
    return folder === undefined ? undefined : (await this.reader.readTree(folder)).find(path.slice(slash + 1));
  }

  // Walks first parents; `nextOf` may pick another parent of a merge.
  private async *walk(head: string, nextOf?: (merge: CommitObject) => Promise<string | undefined>): AsyncGenerator<LoggedCommit> {
    let lastYield = performance.now();
    for (let oid: string | undefined = head; oid !== undefined; ) {
      if (performance.now() - lastYield > YIELD_EVERY_MS) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
      const commit = await this.reader.readCommit(oid);
      // A shallow clone ends at a commit whose parent is missing.
      if (commit === undefined) return;
      yield { oid, commit };
      const side = commit.parents.length > 1 && nextOf !== undefined ? await nextOf(commit) : undefined;
      oid = side ?? commit.parents[0];
    }
  }

  private async changesOf(oid: string, commit: CommitObject): Promise<PathChange[]> {
    const known = this.memo.get(oid);
    if (known !== undefined) return known;
    const changes = await this.diffWithBlobs(await this.parentTree(commit), commit.tree, '');
    this.memo.set(oid, changes);
    return changes;
  }

  private async parentTree(commit: CommitObject): Promise<string | undefined> {
    const parent = commit.parents[0];
    return parent === undefined ? undefined : (await this.reader.readCommit(parent))?.tree;
  }

  private async folderOid(rootTree: string, folder: string): Promise<string | undefined> {
    let oid: string | undefined = rootTree;
    for (const name of folder.split('/').filter((part) => part !== '')) {
      const entry: { isTree: boolean; oid: string } | undefined = (await this.reader.readTree(oid)).find(name);
      if (entry === undefined || !entry.isTree) return undefined;
      oid = entry.oid;
    }
    return oid;
  }

  private async diffFolders(before: string | undefined, after: string | undefined, base: string, out: PathChange[]): Promise<void> {
    if (before === after) return;
    const left = before === undefined ? TreeView.EMPTY : await this.reader.readTree(before);
    const right = after === undefined ? TreeView.EMPTY : await this.reader.readTree(after);
    for (const { name, before: old, after: next } of diffTreeViews(left, right)) {
      const path = base === '' ? name : `${base}/${name}`;
      if (old?.isTree === true || next?.isTree === true) {
        await this.diffFolders(old?.isTree ? old.oid : undefined, next?.isTree ? next.oid : undefined, path, out);
      }
      const wasFile = old !== undefined && !old.isTree;
      const isFile = next !== undefined && !next.isTree;
      if (!wasFile && !isFile) continue;
      out.push({
        path,
        change: wasFile && isFile ? 'modified' : wasFile ? 'deleted' : 'added',
        ...(wasFile ? { before: old.oid } : {}),
        ...(isFile ? { after: next.oid } : {}),
      });
    }
  }
}

// Looks up `lookups` names in one folder. Binary search costs each name about
// log2(size) comparisons and decoding every entry once costs about five
// comparisons' worth per entry, so from a quarter of the folder on decoding
// wins (a start reading a whole type); below it (an outside commit re-reading
// entries one at a time) decoding a big folder for each would be quadratic.
function finderOf(view: TreeView, lookups: number): (name: string) => TreeEntry | undefined {
  if (lookups < view.size / 4) return (name) => view.find(name);
  const byName = new Map(view.entries().map((entry) => [entry.name, entry]));
  return (name) => byName.get(name);
}

function isRegularFile(mode: string): boolean {
  return mode === FILE_MODE || mode === EXECUTABLE_MODE;
}
