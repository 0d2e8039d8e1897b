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
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { FilesAhead } from '../files-ahead.ts';
import { encodeDelta, sharedEnds } from './delta-encoding.ts';
import type { GitObjectType, PreparedObject } from './objects.ts';
import { entryBody, writePack } from './pack-writer.ts';
import { isGcRunning } from './packing.ts';
import { gitTempPath } from './refs.ts';
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
  /** performance.now() when it was written. */
  writtenAt: number;
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
// pack lives only until the next roll-up, which compresses all but the
// largest (pack-writer.ts).
const FRAMED_ABOVE_BYTES = 4 * 1024;
// git's own default (pack.depth): reading the oldest tree of a chain applies this many deltas.
const MAX_DELTA_DEPTH = 50;
// Files made ahead for commit packs and roll-ups (files-ahead.ts): two per
// pack, and two more for a pack that follows at once. They wait in `.git` under the
// server's temp names (refs.ts gitTempPath, removed at start once stale), where
// git takes no notice of them: in the pack folder `git count-objects` calls
// them garbage.
const FILES_AHEAD = 4;

/** Writes commits' objects as packs and rolls those packs up; callers serialize calls (the repository's write queue). */
export class CommitPacks {
  private waiting: CommitPack[] = [];
  // Each folder's last framed tree and how it was cut into stored blocks.
  private readonly framings = new Map<string, { oid: string; blocks: StoredBlocks }>();
  private folderChecked = false;
  private deleting: Promise<void> = Promise.resolve();
  // Rolled-up commit packs not deleted yet because `git gc` was running.
  private rolledUpNames: string[] = [];
  private rolled = { packs: 0, bytes: 0 };
  private readonly files: FilesAhead;

  constructor(
    private readonly packDir: string,
    private readonly packs: PackRegistry,
    private readonly packsPerRollUp = PACKS_PER_ROLL_UP,
  ) {
    this.files = new FilesAhead(() => gitTempPath(this.gitdir), FILES_AHEAD);
  }

  /** Stores one commit's objects as a pack, in place (index last) before this returns. */
  write(objects: PreparedObject[]): void {
    if (objects.length === 0) return;
    if (!this.folderChecked) {
      mkdirSync(this.packDir, { recursive: true });
      this.folderChecked = true;
    }
    const prepared = objects.map((object) => this.prepare(object));
    const written = writePack(this.packDir, prepared.map(({ packed }) => packed), { fast: true, files: this.files });
    this.packs.add(written);
    const packed = prepared.map(({ packed: { oid }, type, folder, replaced }): PackedObject => ({ oid, type, ...(written.entries.get(oid) as PackedEntry), folder, replaced }));
    this.waiting.push({ name: written.name, bytes: written.bytes, writtenAt: performance.now(), objects: packed });
  }

  /** Whether enough commit packs written after `spareBefore` (see rollUp()) piled up for rollUp(). */
  isRollUpDue(spareBefore = Number.NEGATIVE_INFINITY): boolean {
    return this.isDue(this.waiting.filter(({ writtenAt }) => writtenAt > spareBefore));
  }

  /** Bytes of the commit packs waiting for a roll-up. */
  get waitingBytes(): number {
    return this.waiting.reduce((total, pack) => total + pack.bytes, 0);
  }

  /** Roll-up packs written by this process so far, and their bytes; the background packing schedule reads it. */
  get rolledUp(): { packs: number; bytes: number } {
    return { ...this.rolled };
  }

  /**
   * Writes the objects of the waiting commit packs as one pack, then deletes
   * them (or, while `git gc` runs, at a later roll-up). Packs written up to `spareBefore` (a performance.now() time; all of
   * them when it is Infinity) are left for later: a running `git repack` may
   * read them (packing.ts, Packer.mayReadPacksBefore).
   * Packs a repack took meanwhile are forgotten; their objects are in its
   * pack. Throws when the new pack cannot be written; the commit packs then
   * stay, and a later call tries again.
   */
  rollUp(spareBefore = Number.NEGATIVE_INFINITY): void {
    this.waiting = this.waiting.filter(({ name }) => existsSync(path.join(this.packDir, `${name}.idx`)));
    const packs = this.waiting.filter(({ writtenAt }) => writtenAt > spareBefore);
    if (!this.isDue(packs)) return;
    const written = writePack(this.packDir, this.planRollUp(packs), { files: this.files });
    this.waiting = this.waiting.filter((pack) => !packs.includes(pack));
    this.rolled = { packs: this.rolled.packs + 1, bytes: this.rolled.bytes + written.bytes };
    this.packs.add(written);
    this.rolledUpNames.push(...packs.map(({ name }) => name));
    this.deleteRolledUp();
  }

  /** Resolves once the commit packs of past roll-ups are deleted. */
  async settled(): Promise<void> {
    await this.deleting;
  }

  /** Removes the files made ahead for packs; no commit or roll-up is written after this. */
  close(): void {
    this.files.close();
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

  // `git gc` lists every pack when its repack starts and fails when one it
  // listed is gone before it read it, so while gc.pid is fresh the commit
  // packs stay (their objects are also in the roll-up): gc usually deletes
  // them itself, and a roll-up after it deletes what is left.
  private deleteRolledUp(): void {
    if (isGcRunning(this.gitdir)) return;
    const names = this.rolledUpNames;
    this.rolledUpNames = [];
    this.deleting = Promise.all([this.deleting, this.deletePacks(names)]).then(() => undefined);
  }

  // objects/pack of the repository's own object folder (ObjectReader).
  private get gitdir(): string {
    return path.dirname(path.dirname(this.packDir));
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
  private planRollUp(packs: CommitPack[]): PackObject[] {
    const seen = new Set<string>();
    const versions = new Map<string, { pack: string; object: PackedObject }[]>();
    const planned: PackObject[] = [];
    const entries = new EntryFiles(this.packDir);
    try {
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
    } finally {
      entries.close();
    }
    return planned;
  }
}

/** Reads whole entries back from commit packs, the pack files each opened once. */
class EntryFiles {
  private readonly open = new Map<string, number>();

  constructor(private readonly packDir: string) {}

  /** The object as a roll-up stores it: its entry copied, or its body to compress when the commit pack left that for later. */
  whole(pack: string, { oid, type, offset, length, compressLater }: PackedObject): PackObject {
    let fd = this.open.get(pack);
    if (fd === undefined) {
      fd = openSync(path.join(this.packDir, `${pack}.pack`), 'r');
      this.open.set(pack, fd);
    }
    const entry = Buffer.allocUnsafe(length);
    if (readSync(fd, entry, 0, length, offset) !== length) throw new Error(`the pack ${pack} ends before its object ${oid}`);
    return compressLater ? { oid, type, body: entryBody(entry) } : { oid, entry };
  }

  close(): void {
    for (const fd of this.open.values()) closeSync(fd);
  }
}
