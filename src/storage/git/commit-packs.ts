// Where a commit's objects go: one small pack per commit (two new files
// instead of one per object), rolled up every few dozen commits into one
// pack in which each folder's trees are deltas of the folder's next tree.
// A commit rewrites the whole tree of every folder on its path, ~46 bytes per
// entry, so a folder of 10,000 entries costs ~450 KB per commit stored whole;
// as a delta of its neighbour, a few dozen bytes. The roll-up knows which
// trees are versions of one folder because it wrote them, so it needs none
// of git's delta search and keeps the repository small between the
// background `git repack` runs (packing.ts).
import { existsSync, mkdirSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { PreparedObject } from './objects.ts';
import { writePack } from './pack-writer.ts';
import type { PackObject } from './pack-writer.ts';

/** One commit's pack, with its objects kept for the roll-up (reading them back costs more than the roll-up itself). */
interface CommitPack {
  name: string;
  bytes: number;
  /** performance.now() when it was written. */
  writtenAt: number;
  objects: PreparedObject[];
  /** Their compressed entries, which the roll-up copies. */
  entries: Map<string, Buffer>;
}

/** The pack reader, told of the packs a CommitPacks writes and deletes. */
export interface PackRegistry {
  /** A pack was just written: look in it first. */
  add(name: string): void;
  /** Packs were deleted: stop reading them. */
  relist(): void;
}

/** How many commit packs wait for a roll-up, at most; and how many of their bytes. */
const PACKS_PER_ROLL_UP = 64;
const BYTES_PER_ROLL_UP = 8 * 1024 * 1024;
// git's own default (pack.depth): reading the oldest tree of a chain applies this many deltas.
const MAX_DELTA_DEPTH = 50;

/** Writes commits' objects as packs and rolls those packs up; callers serialize calls (the repository's write queue). */
export class CommitPacks {
  private waiting: CommitPack[] = [];
  private folderChecked = false;
  private deleting: Promise<void> = Promise.resolve();
  private rolled = { packs: 0, bytes: 0 };

  constructor(
    private readonly packDir: string,
    private readonly packs: PackRegistry,
    private readonly packsPerRollUp = PACKS_PER_ROLL_UP,
  ) {}

  /** Stores one commit's objects as a pack, in place (index last) before this returns. */
  write(objects: PreparedObject[]): void {
    if (objects.length === 0) return;
    if (!this.folderChecked) {
      mkdirSync(this.packDir, { recursive: true });
      this.folderChecked = true;
    }
    const written = writePack(this.packDir, objects, { fast: true });
    this.packs.add(written.name);
    this.waiting.push({ name: written.name, bytes: written.bytes, writtenAt: performance.now(), objects, entries: written.entries });
  }

  /** Whether enough commit packs piled up for rollUp(). */
  get rollUpDue(): boolean {
    return this.isDue(this.waiting);
  }

  /** Roll-up packs written by this process so far, and their bytes; the background packing schedule reads it. */
  get rolledUp(): { packs: number; bytes: number } {
    return { ...this.rolled };
  }

  /**
   * Writes the objects of the waiting commit packs as one pack, then deletes
   * them. Packs written before `spareBefore` (a performance.now() time) are
   * left for later: a `git repack` that started then may be reading them.
   * Packs a repack took meanwhile are forgotten; their objects are in its
   * pack. Throws when the new pack cannot be written; the commit packs then
   * stay, and a later call tries again.
   */
  rollUp(spareBefore = Number.NEGATIVE_INFINITY): void {
    this.waiting = this.waiting.filter(({ name }) => existsSync(path.join(this.packDir, `${name}.idx`)));
    const packs = this.waiting.filter(({ writtenAt }) => writtenAt >= spareBefore);
    if (!this.isDue(packs)) return;
    const written = writePack(this.packDir, this.planRollUp(packs));
    this.waiting = this.waiting.filter((pack) => !packs.includes(pack));
    this.rolled = { packs: this.rolled.packs + 1, bytes: this.rolled.bytes + written.bytes };
    this.packs.add(written.name);
    this.deleting = Promise.all([this.deleting, this.deletePacks(packs.map(({ name }) => name))]).then(() => undefined);
  }

  /** Resolves once the commit packs of past roll-ups are deleted. */
  async settled(): Promise<void> {
    await this.deleting;
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
  // one before it in the pack (its next version), a full copy every
  // MAX_DELTA_DEPTH trees so no chain grows longer.
  private planRollUp(packs: CommitPack[]): PackObject[] {
    const seen = new Set<string>();
    const versions = new Map<string, PackObject[]>();
    const planned: PackObject[] = [];
    for (const { objects, entries } of packs) {
      for (const object of objects) {
        if (seen.has(object.oid)) continue;
        seen.add(object.oid);
        const packed = { ...object, entry: entries.get(object.oid) };
        if (object.folder === undefined) planned.push(packed);
        else if (versions.has(object.folder)) versions.get(object.folder)?.push(packed);
        else versions.set(object.folder, [packed]);
      }
    }
    for (const trees of versions.values()) {
      let next: PackObject | undefined;
      let depth = 0;
      for (const tree of trees.reverse()) {
        const deltaOf = next !== undefined && depth < MAX_DELTA_DEPTH ? next : undefined;
        depth = deltaOf === undefined ? 0 : depth + 1;
        planned.push({ ...tree, deltaOf });
        next = tree;
      }
    }
    return planned;
  }
}
