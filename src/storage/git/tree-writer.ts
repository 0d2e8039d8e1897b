// Builds the trees of a new commit by rewriting only the folders on the
// changed paths. Folder views of the current HEAD are cached in memory and
// loaded lazily, so a commit in a folder of 10,000 entries reads nothing and
// writes one tree per level of the changed path.
import { AppError } from '../../errors/app-error.ts';
import { prepareObject } from './objects.ts';
import type { PreparedObject } from './objects.ts';
import { FILE_MODE, TREE_MODE, TreeView } from './tree.ts';
import type { TreeEdit, TreeEntry } from './tree.ts';

/** A file-level change: a blob id to store at `path`, or null to delete it. */
export interface PathEdit {
  path: string;
  oid: string | null;
}

/** One path whose file was added, modified or deleted between two commits. */
export interface ChangedPath {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

/** A ChangedPath with the blob ids on either side, so history walks read blobs without walking trees. */
export interface PathChange extends ChangedPath {
  before?: string;
  after?: string;
}

/** The outcome of stage(): the new root tree, the tree objects to store, what changed, and how to adopt it. */
export interface StagedTrees {
  rootTree: string;
  objects: PreparedObject[];
  changes: PathChange[];
  /** The blob id each edited path has in the current tree (undefined when it has none). */
  committed: Map<string, string | undefined>;
  /** Makes the staged folders the cached state; call only once the commit is on the branch. */
  adopt(): void;
}

/** Reads a tree object by id; content-repo wires it to the object store. */
export type TreeReader = (oid: string) => Promise<TreeView>;

/** Per-folder cache of one commit's trees, with copy-on-write staging. */
export class TreeWriter {
  private views = new Map<string, TreeView | undefined>();
  private rootTree: string | undefined;

  constructor(private readonly readTree: TreeReader) {}

  /** Points the cache at another root tree (after HEAD moved outside this process). */
  reset(rootTree: string | undefined): void {
    this.views = new Map();
    this.rootTree = rootTree;
  }

  /**
   * Computes the new trees for blob-level edits (hashing only; the caller
   * stores `objects`). Nothing changes until adopt(). Throws `conflict` when a path runs through
   * a file or names a folder.
   */
  async stage(edits: PathEdit[]): Promise<StagedTrees> {
    const byFolder = new Map<string, TreeEdit[]>();
    const changes: PathChange[] = [];
    const committed = new Map<string, string | undefined>();
    for (const { path, oid } of edits) {
      const folder = parentOf(path);
      const existing = await this.entryAt(path);
      if (existing?.isTree) throw new AppError('conflict', `Cannot write "${path}": it is a folder in the content repository.`);
      committed.set(path, existing?.oid);
      const name = path.slice(folder === '' ? 0 : folder.length + 1);
      if (oid === null && existing === undefined) continue;
      if (oid !== null && existing?.oid === oid && existing.mode === FILE_MODE) continue;
      changes.push({
        path,
        change: oid === null ? 'deleted' : existing === undefined ? 'added' : 'modified',
        ...(existing === undefined ? {} : { before: existing.oid }),
        ...(oid === null ? {} : { after: oid }),
      });
      for (let dir = folder; ; dir = parentOf(dir)) {
        if (!byFolder.has(dir)) byFolder.set(dir, []);
        if (dir === '') break;
      }
      byFolder.get(folder)?.push({ name, entry: oid === null ? null : { mode: FILE_MODE, oid } });
    }
    if (byFolder.size === 0) {
      const empty = prepareObject('tree', TreeView.EMPTY.body);
      return { rootTree: this.rootTree ?? empty.oid, objects: this.rootTree === undefined ? [empty] : [], changes, committed, adopt: () => undefined };
    }
    return { ...(await this.writeFolders(byFolder)), changes, committed };
  }

  /** The entry (file or folder) at `path` in the current tree, or undefined. Throws `conflict` when a folder on the path is a file. */
  async entryAt(path: string): Promise<TreeEntry | undefined> {
    const folder = parentOf(path);
    return (await this.load(folder, path))?.find(path.slice(folder === '' ? 0 : folder.length + 1));
  }

  private async writeFolders(byFolder: Map<string, TreeEdit[]>): Promise<Pick<StagedTrees, 'rootTree' | 'objects' | 'adopt'>> {
    const staged = new Map<string, TreeView>();
    const objects: PreparedObject[] = [];
    let rootTree = '';
    for (const folder of [...byFolder.keys()].sort((a, b) => depthOf(b) - depthOf(a))) {
      const previous = await this.load(folder, folder);
      const view = (previous ?? TreeView.EMPTY).edit(byFolder.get(folder) ?? []);
      staged.set(folder, view);
      const previousOid = previous === undefined ? undefined : await this.committedOid(folder);
      const replaces = previous === undefined || previousOid === undefined ? undefined : { oid: previousOid, body: previous.body };
      const object = view.size > 0 || folder === '' ? { ...prepareObject('tree', view.body), folder, replaces } : undefined;
      if (object !== undefined) objects.push(object);
      if (folder === '') {
        rootTree = object?.oid ?? '';
        continue;
      }
      const oid = object?.oid ?? null;
      const name = folder.slice(folder.lastIndexOf('/') + 1);
      byFolder.get(parentOf(folder))?.push({ name, entry: oid === null ? null : { mode: TREE_MODE, oid } });
    }
    const adopt = (): void => {
      for (const [folder, view] of staged) this.views.set(folder, view.size > 0 || folder === '' ? view : undefined);
      this.rootTree = rootTree;
    };
    return { rootTree, objects, adopt };
  }

  // The id of the folder's tree in the current commit (staged trees are not adopted yet).
  private async committedOid(folder: string): Promise<string | undefined> {
    return folder === '' ? this.rootTree : (await this.entryAt(folder))?.oid;
  }

  private async load(folder: string, forPath: string): Promise<TreeView | undefined> {
    if (this.views.has(folder)) return this.views.get(folder);
    let view: TreeView | undefined;
    if (folder === '') {
      view = this.rootTree === undefined ? undefined : await this.readTree(this.rootTree);
    } else {
      const entry = (await this.load(parentOf(folder), forPath))?.find(folder.slice(folder.lastIndexOf('/') + 1));
      if (entry !== undefined && !entry.isTree) {
        throw new AppError('conflict', `Cannot write "${forPath}": "${folder}" is a file in the content repository.`);
      }
      view = entry === undefined ? undefined : await this.readTree(entry.oid);
    }
    this.views.set(folder, view);
    return view;
  }
}

/** The folder part of a posix path ('' for top-level names). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function depthOf(folder: string): number {
  return folder === '' ? 0 : folder.split('/').length;
}
