// Where a commit's objects go: one small pack per commit (two new files
// instead of one per object), rolled up every few dozen commits into one
// pack in which each folder's trees are deltas of the folder's next tree.
// A commit rewrites the whole tree of every folder on its path, ~46 bytes per
// entry, so a folder of 10,000 entries costs ~450 KB per commit stored whole;
// as a delta of its neighbour, a few dozen bytes. Each commit computes the
// delta that rebuilds the tree it replaces from its new one while both are
// in memory, so the roll-up needs none of git's delta search, and between
// roll-ups only those deltas and where each entry is are kept: the trees
// themselves are read back from the commit packs. (Holding a few dozen
// commits' trees instead grew the malloc heap by ~100 MB through
// fragmentation.) The background `git repack` (packing.ts) merges roll-ups.
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { isNotFound } from '../../lib/errno.ts';
import { encodeDelta, sharedEnds } from './delta-encoding.ts';
import type { GitObjectType, PreparedObject } from './objects.ts';
import { entryBody, writePack } from './pack-writer.ts';
import type { PackedEntry, PackObject, WrittenPack } from './pack-writer.ts';
import { blocksOf, reframe } from './stored-blocks.ts';
import type { StoredBlocks } from './stored-blocks.ts';

/** An object of a commit pack, as the roll-up needs it. */
interface PackedObject extends PackedEntry {
  oid: string;
  type: GitObjectType;
  /** For a tree: the folder it lists. */
  folder?: string;
  /** For a tree: a delta that rebuilds the tree it replaced in its folder (`oid`) from this one. */
  replaced?: { oid: string; delta: Buffer };
}

/** One commit's pack. */
interface CommitPack {
  name: string;
  bytes: number;
  objects: PackedObject[];
}

/** The pack reader, told of the packs a CommitPacks writes and deletes. */
export interface PackRegistry {
  /** A pack was just written (its `.idx` in place): look in it first. */
  add(pack: WrittenPack): void;
  /** Packs were deleted: stop reading them. */
  relist(): void;
}

/** How many commit packs wait for a roll-up, at most; and how many of their bytes. */
const PACKS_PER_ROLL_UP = 64;
// Also a bound on `.git` right after a burst (the waiting commit packs of a
// 10,000-entry folder are ~30 MB at 64 commits: at 32 MiB it measured 154 MB
// after 10,000 creates, over the 150 MB budget) and on memory (the small
// buffers that live until the next roll-up sit among the ~450 KB trees in the
// malloc heap, which cannot give that space back).
const BYTES_PER_ROLL_UP = 8 * 1024 * 1024;
// Folder trees above this size are stored uncompressed (stored-blocks.ts):
// deflating a 60 KB tree at level 1 took ~0.4 ms per commit, and a commit
// pack lives only until the next roll-up, which compresses.
const FRAMED_ABOVE_BYTES = 4 * 1024;
// git's own default (pack.depth): reading the oldest tree of a chain applies this many deltas.
const MAX_DELTA_DEPTH = 50;

/** Options of CommitPacks. */
export interface CommitPacksOptions {
  /** How many commit packs are rolled up into one (default 64). */
  packsPerRollUp?: number;
  /**
   * Whether no git process may open packs it listed before (a `git repack`
   * or `git gc` in progress): only then are rolled-up commit packs deleted.
   * Default: always.
   */
  mayDeletePacks?: () => boolean;
}

/** Writes commits' objects as packs and rolls those packs up; callers serialize calls (the repository's write queue). */
export class CommitPacks {
  private waiting: CommitPack[] = [];
  // Commit packs rolled up whose files are not deleted yet: a git process may have listed them.
  private rolledUpFiles: string[] = [];
  // Each folder's last framed tree and how it was cut into stored blocks.
  private readonly framings = new Map<string, { oid: string; blocks: StoredBlocks }>();
  private folderChecked = false;
  private deleting: Promise<void> = Promise.resolve();
  private rolled = { packs: 0, bytes: 0 };
  private readonly packsPerRollUp: number;
  private readonly mayDeletePacks: () => boolean;

  constructor(
    private readonly packDir: string,
    private readonly packs: PackRegistry,
    options: CommitPacksOptions = {},
  ) {
    this.packsPerRollUp = options.packsPerRollUp ?? PACKS_PER_ROLL_UP;
    this.mayDeletePacks = options.mayDeletePacks ?? (() => true);
  }

  /** Stores one commit's objects as a pack, in place (index last) before this returns. */
  write(objects: PreparedObject[]): void {
    if (objects.length === 0) return;
    if (!this.folderChecked) {
      mkdirSync(this.packDir, { recursive: true });
      this.folderChecked = true;
    }
    const prepared = objects.map((object) => this.prepare(object));
    const written = writePack(this.packDir, prepared.map(({ packed }) => packed), { fast: true });
    this.packs.add(written);
    const packed = prepared.map(({ packed: { oid }, type, folder, replaced }): PackedObject => ({ oid, type, ...(written.entries.get(oid) as PackedEntry), folder, replaced }));
    this.waiting.push({ name: written.name, bytes: written.bytes, objects: packed });
  }

  /** Whether enough commit packs piled up for rollUp(). */
  isRollUpDue(): boolean {
    return this.isDue(this.waiting);
  }

  /** Roll-up packs written by this process so far, and their bytes; the background packing schedule reads it. */
  get rolledUp(): { packs: number; bytes: number } {
    return { ...this.rolled };
  }

  /**
   * Writes the objects of the waiting commit packs as one pack, then deletes
   * them through deleteRolledUp(). Packs a `git repack` took meanwhile are
   * forgotten; their objects are in its pack. Throws when the new pack
   * cannot be written; the commit packs then stay, and a later call tries again.
   */
  rollUp(): void {
    const files = new EntryFiles(this.packDir);
    try {
      // Once open, a pack stays readable whatever git deletes; one that cannot be opened any more was taken by git.
      this.waiting = this.waiting.filter(({ name }) => files.open(name));
      if (!this.isDue(this.waiting)) return;
      const packs = this.waiting;
      const written = writePack(this.packDir, this.planRollUp(packs, files));
      this.waiting = [];
      this.rolled = { packs: this.rolled.packs + 1, bytes: this.rolled.bytes + written.bytes };
      this.packs.add(written);
      this.rolledUpFiles.push(...packs.map(({ name }) => name));
    } finally {
      files.close();
    }
    this.deleteRolledUp();
  }

  /**
   * Deletes the commit packs of past roll-ups in the background, unless
   * mayDeletePacks() says a git process may still open them: a `git repack`
   * lists the packs when it starts and opens them later, and fails ("could
   * not find pack") when one is gone by then. They then wait for a later
   * call: the next roll-up, or the end of the repack. A pack git deleted
   * itself meanwhile is skipped.
   */
  deleteRolledUp(): void {
    if (this.rolledUpFiles.length === 0 || !this.mayDeletePacks()) return;
    const names = this.rolledUpFiles;
    this.rolledUpFiles = [];
    this.deleting = Promise.all([this.deleting, this.deletePacks(names)]).then(() => undefined);
  }

  /** Resolves once no commit pack is being deleted; a `git repack` lists the packs only then. */
  async settled(): Promise<void> {
    await this.deleting;
  }

  // The delta that rebuilds the tree an object replaces; for a folder tree
  // over FRAMED_ABOVE_BYTES also its stored blocks, cut from the folder's last
  // ones when this tree replaces the last one framed.
  private prepare({ oid, type, body, folder, replaces }: PreparedObject): { packed: PackObject; type: GitObjectType; folder?: string; replaced?: PackedObject['replaced'] } {
    const ends = replaces === undefined ? undefined : sharedEnds(body, replaces.body);
    const delta = replaces === undefined ? undefined : encodeDelta(body, replaces.body, ends);
    const replaced = replaces === undefined || delta === undefined ? undefined : { oid: replaces.oid, delta };
    if (folder === undefined || body.length <= FRAMED_ABOVE_BYTES) return { packed: { oid, type, body }, type, folder, replaced };
    const last = this.framings.get(folder);
    const blocks = last !== undefined && ends !== undefined && last.oid === replaces?.oid ? reframe(last.blocks, body, ends.prefix, ends.suffix) : blocksOf(body);
    this.framings.set(folder, { oid, blocks });
    return { packed: { oid, type, body, blocks }, type, folder, replaced };
  }

  private isDue(packs: CommitPack[]): boolean {
    return packs.length >= this.packsPerRollUp || packs.reduce((total, pack) => total + pack.bytes, 0) >= BYTES_PER_ROLL_UP;
  }

  // Freeing a file's blocks can take milliseconds (ext4 with online discard),
  // so the thread pool deletes the rolled-up packs, off the write queue. The
  // indexes go first: git and pack-reader.ts find packs through them.
  private async deletePacks(names: string[]): Promise<void> {
    for (const extension of ['idx', 'pack']) {
      await Promise.all(names.map((name) => unlink(path.join(this.packDir, `${name}.${extension}`)).catch(() => undefined)));
    }
    this.packs.relist();
  }

  // Every object once; each folder's trees newest first, each a delta of the
  // one before it in the pack (its next version), stored whole when the
  // chain would grow longer than MAX_DELTA_DEPTH or the next version's delta
  // is not for it (packs between them were taken by a `git repack`).
  private planRollUp(packs: CommitPack[], entries: EntryFiles): PackObject[] {
    const seen = new Set<string>();
    const versions = new Map<string, { pack: string; object: PackedObject }[]>();
    const planned: PackObject[] = [];
    for (const { name, objects } of packs) {
      for (const object of objects) {
        if (seen.has(object.oid)) continue;
        seen.add(object.oid);
        if (object.folder === undefined) planned.push(entries.whole(name, object));
        else if (versions.has(object.folder)) versions.get(object.folder)?.push({ pack: name, object });
        else versions.set(object.folder, [{ pack: name, object }]);
      }
    }
    for (const trees of versions.values()) {
      let next: PackedObject | undefined;
      let depth = 0;
      for (const { pack, object } of trees.reverse()) {
        const delta = next?.replaced?.oid === object.oid && depth < MAX_DELTA_DEPTH ? next.replaced.delta : undefined;
        depth = delta === undefined ? 0 : depth + 1;
        planned.push(delta === undefined || next === undefined ? entries.whole(pack, object) : { oid: object.oid, deltaOf: next.oid, delta });
        next = object;
      }
    }
    return planned;
  }
}

/** Reads whole entries back from commit packs, each opened once, before any is read. */
class EntryFiles {
  private readonly opened = new Map<string, number>();

  constructor(private readonly packDir: string) {}

  /** Opens a commit pack's `.pack`; false when it is gone (a `git repack` took it). */
  open(pack: string): boolean {
    try {
      this.opened.set(pack, openSync(path.join(this.packDir, `${pack}.pack`), 'r'));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** The object as a roll-up stores it: its entry copied, or its body to compress when the commit pack left that for later. */
  whole(pack: string, { oid, type, offset, length, compressLater }: PackedObject): PackObject {
    const fd = this.opened.get(pack);
    if (fd === undefined) throw new Error(`the pack ${pack} was not opened`);
    const entry = Buffer.allocUnsafe(length);
    if (readSync(fd, entry, 0, length, offset) !== length) throw new Error(`the pack ${pack} ends before its object ${oid}`);
    return compressLater ? { oid, type, body: entryBody(entry) } : { oid, entry };
  }

  close(): void {
    for (const fd of this.opened.values()) closeSync(fd);
  }
}
