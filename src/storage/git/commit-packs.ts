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
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { AppError } from '../../errors/app-error.ts';
import { removeQuietly } from '../atomic-write.ts';
import type { GitObjectType, PreparedObject, RawObject } from './objects.ts';
import { writePack } from './pack-writer.ts';
import type { PackObject } from './pack-writer.ts';

/** What the roll-up needs to know about the objects of one commit's pack. */
interface CommitPack {
  name: string;
  bytes: number;
  /** performance.now() when it was written. */
  writtenAt: number;
  objects: { oid: string; type: GitObjectType; folder?: string }[];
}

/** The packs a CommitPacks needs: reading objects from them, and learning of new and deleted ones. */
export interface PackRegistry {
  read(oid: string): Promise<RawObject | undefined>;
  /** A pack was just written: look in it first. */
  add(name: string): void;
  /** Packs were deleted: stop reading them. */
  relist(): void;
}

/** How many commit packs wait for a roll-up, at most; and how many of their bytes. */
const PACKS_PER_ROLL_UP = 64;
const BYTES_PER_ROLL_UP = 32 * 1024 * 1024;
// git's own default (pack.depth): reading the oldest tree of a chain applies this many deltas.
const MAX_DELTA_DEPTH = 50;

/** Writes commits' objects as packs and rolls those packs up; callers serialize calls (the repository's write queue). */
export class CommitPacks {
  private waiting: CommitPack[] = [];
  private folderChecked = false;
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
    this.waiting.push({ name: written.name, bytes: written.bytes, writtenAt: performance.now(), objects: objects.map(({ oid, type, folder }) => ({ oid, type, folder })) });
  }

  /** Whether enough commit packs piled up for rollUp(). */
  get rollUpDue(): boolean {
    return this.waiting.length >= this.packsPerRollUp || this.waiting.reduce((total, pack) => total + pack.bytes, 0) >= BYTES_PER_ROLL_UP;
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
  async rollUp(spareBefore = Number.NEGATIVE_INFINITY): Promise<void> {
    this.waiting = this.waiting.filter(({ name }) => existsSync(path.join(this.packDir, `${name}.idx`)));
    if (!this.rollUpDue) return;
    const packs = this.waiting.filter(({ writtenAt }) => writtenAt >= spareBefore);
    if (packs.length < 2) return;
    const objects = await this.planRollUp(packs);
    const written = writePack(this.packDir, objects);
    this.waiting = this.waiting.filter((pack) => !packs.includes(pack));
    this.rolled = { packs: this.rolled.packs + 1, bytes: this.rolled.bytes + written.bytes };
    this.packs.add(written.name);
    // The index goes first: git and pack-reader.ts find packs through it.
    for (const { name } of packs) for (const extension of ['idx', 'pack']) removeQuietly(path.join(this.packDir, `${name}.${extension}`));
    this.packs.relist();
  }

  // Every object once; each folder's trees newest first, each a delta of the
  // one before it in the pack (its next version), a full copy every
  // MAX_DELTA_DEPTH trees so no chain grows longer.
  private async planRollUp(packs: CommitPack[]): Promise<PackObject[]> {
    const seen = new Set<string>();
    const versions = new Map<string, string[]>();
    const others: string[] = [];
    for (const { objects } of packs) {
      for (const { oid, folder } of objects) {
        if (seen.has(oid)) continue;
        seen.add(oid);
        if (folder === undefined) others.push(oid);
        else if (versions.has(folder)) versions.get(folder)?.push(oid);
        else versions.set(folder, [oid]);
      }
    }
    const planned: PackObject[] = [];
    for (const oids of versions.values()) {
      let next: PackObject | undefined;
      let depth = 0;
      for (const oid of oids.reverse()) {
        const object: PackObject = { oid, ...(await this.readObject(oid)) };
        if (next !== undefined && depth < MAX_DELTA_DEPTH) {
          object.deltaOf = next;
          depth += 1;
        } else {
          depth = 0;
        }
        planned.push(object);
        next = object;
      }
      await yieldToEventLoop();
    }
    for (const oid of others) planned.push({ oid, ...(await this.readObject(oid)) });
    return planned;
  }

  private async readObject(oid: string): Promise<{ type: GitObjectType; body: Buffer }> {
    const object = await this.packs.read(oid);
    if (object === undefined) throw new AppError('internal_error', `The content repository is damaged: the git object ${oid} is missing.`);
    return object;
  }
}
