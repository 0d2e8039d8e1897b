// Git's object database, loose side: hashing, writing and reading loose
// objects with Node's native zlib and crypto. Packed objects (after `git gc`
// or a clone) are read through a reader passed in (pack-reader.ts).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { inflateSync } from 'node:zlib';
import { AppError } from '../../errors/app-error.ts';
import { isNotFound } from '../../lib/errno.ts';
import { removeQuietly } from '../atomic-write.ts';
import { deflateFitted } from './deflate.ts';

/** The four git object types. */
export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** An object as stored: its type and inflated body, without the header. */
export interface RawObject {
  type: GitObjectType;
  body: Buffer;
}

/** Reads an object that is not loose (packed); undefined when it does not exist. */
export type PackedObjectReader = (oid: string) => Promise<RawObject | undefined>;

const OBJECT_TYPES = new Set<string>(['blob', 'tree', 'commit', 'tag']);
// Git's default for loose objects is zlib level 1. Objects above this size
// (in practice: trees of folders with thousands of entries) are stored at
// level 0, which git reads the same way and `git gc` recompresses; deflating a
// 10k-entry tree at level 1 costs ~5 ms per commit, level 0 ~0.5 ms. Commit
// packs (pack-writer.ts) store every blob and large tree uncompressed.
export const STORED_ABOVE_BYTES = 64 * 1024;
const OID = /^[0-9a-f]{40}$/;
// A commit writes a handful of objects; an import of thousands lets requests in between batches.
const OBJECTS_BETWEEN_YIELDS = 64;
const FOLDER_ATTEMPTS = 5;

/** True when `value` is a full lowercase hex SHA-1 object id. */
export function isObjectId(value: string): boolean {
  return OID.test(value);
}

/** An object whose id is known but which may not be on disk yet. */
export interface PreparedObject {
  oid: string;
  type: GitObjectType;
  body: Uint8Array;
  /** For a tree: the folder it lists, and the tree it replaces there, so a pack can store that one as a delta of this one. */
  folder?: string;
  replaces?: { oid: string; body: Uint8Array };
}

/** Hashes `body` as an object of `type` without writing it; ObjectStore.writeAll() stores it. */
export function prepareObject(type: GitObjectType, body: Uint8Array): PreparedObject {
  const oid = createHash('sha1').update(objectHeader(type, body.length)).update(body).digest('hex');
  return { oid, type, body };
}

/**
 * Reads and writes objects under `.git/objects`. Writes are loose objects
 * created through a temp file and a rename, like git's own, so a reader never
 * sees a partial object. Objects are not fsynced (git's default).
 */
export class ObjectStore {
  private readonly knownFolders = new Set<string>();
  private readonly written = { objects: 0, bytes: 0 };

  constructor(
    private readonly objectsDir: string,
    private readonly readPacked: PackedObjectReader,
  ) {}

  /** Stores `body` as an object and returns its id; rewriting an existing object is harmless. */
  write(type: GitObjectType, body: Uint8Array): string {
    const object = prepareObject(type, body);
    this.writePrepared(object);
    return object.oid;
  }

  /**
   * Stores already hashed objects. The file calls are synchronous: a loose
   * object is a small file in the page cache, and creating it directly costs
   * a third of the CPU of a thread-pool round trip per call (a commit's
   * objects used to take a quarter of a create's CPU that way).
   */
  async writeAll(objects: PreparedObject[]): Promise<void> {
    for (let i = 0; i < objects.length; i += 1) {
      if (i > 0 && i % OBJECTS_BETWEEN_YIELDS === 0) await yieldToEventLoop();
      this.writePrepared(objects[i]);
    }
  }

  /** Forgets which object folders exist: a repack just removed the ones it emptied. */
  forgetFolders(): void {
    this.knownFolders.clear();
  }

  /** Loose objects (and their bytes) written by this process so far; the packing schedule reads it. */
  get looseWritten(): { objects: number; bytes: number } {
    return { ...this.written };
  }

  private writePrepared({ oid, type, body }: PreparedObject): void {
    const level = body.length > STORED_ABOVE_BYTES ? 0 : 1;
    const data = deflateFitted(Buffer.concat([objectHeader(type, body.length), body]), level);
    this.written.objects += 1;
    this.written.bytes += data.length;
    const folder = path.join(this.objectsDir, oid.slice(0, 2));
    for (let attempt = 1; ; attempt += 1) {
      try {
        this.writeLoose(folder, oid, data);
        return;
      } catch (error) {
        // A repack (git prune-packed) removes emptied object folders, possibly
        // right after they were made; recreate and retry, as git does.
        if (!isNotFound(error) || attempt === FOLDER_ATTEMPTS) throw error;
        this.knownFolders.delete(folder);
      }
    }
  }

  private writeLoose(folder: string, oid: string, data: Buffer): void {
    if (!this.knownFolders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.knownFolders.add(folder);
    }
    const temp = path.join(folder, `tmp_obj_${randomBytes(6).toString('hex')}`);
    try {
      writeFileSync(temp, data, { flag: 'wx', mode: 0o444 });
      renameSync(temp, path.join(folder, oid.slice(2)));
    } catch (error) {
      removeQuietly(temp);
      throw error;
    }
  }

  /** Up to `limit` loose object ids starting with the hex `prefix` (at least two digits), for abbreviated ids. */
  looseIdsWithPrefix(prefix: string, limit: number): string[] {
    let names: string[];
    try {
      names = readdirSync(path.join(this.objectsDir, prefix.slice(0, 2)));
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
    const rest = prefix.slice(2);
    return names.filter((name) => name.length === 38 && name.startsWith(rest)).slice(0, limit).map((name) => prefix.slice(0, 2) + name);
  }

  /**
   * Reads an object, loose or packed; undefined when the repository does not
   * have it. Loose objects are read synchronously: they sit in the page cache
   * and one read is far cheaper than the four thread-pool round trips of an
   * async readFile; long history walks yield to the event loop themselves.
   */
  async read(oid: string): Promise<RawObject | undefined> {
    let data: Buffer;
    try {
      data = readFileSync(path.join(this.objectsDir, oid.slice(0, 2), oid.slice(2)));
    } catch (error) {
      if (isNotFound(error)) return this.readPacked(oid);
      throw error;
    }
    try {
      // Large objects are stored (level 0): one output chunk the size of the
      // input avoids a concat. Small ones get a chunk a few times their size,
      // not zlib's 16 KiB, which each result would otherwise keep alive.
      return parseLooseObject(inflateSync(data, { chunkSize: data.length > STORED_ABOVE_BYTES ? data.length + 1024 : Math.max(1024, data.length * 4) }), oid);
    } catch (error) {
      // A damaged loose copy of an object a later commit packed again: the packed copy is whole (git's prune-packed drops the loose one).
      const packed = await this.readPacked(oid);
      if (packed !== undefined) return packed;
      throw corruptObject(oid, error);
    }
  }
}

function objectHeader(type: GitObjectType, length: number): Buffer {
  return Buffer.from(`${type} ${length}\0`, 'latin1');
}

function parseLooseObject(raw: Buffer, oid: string): RawObject {
  const space = raw.indexOf(0x20);
  const nul = raw.indexOf(0, space);
  const type = raw.toString('latin1', 0, space);
  const size = Number(raw.toString('latin1', space + 1, nul));
  if (space < 0 || nul < 0 || !isObjectType(type) || size !== raw.length - nul - 1) throw new Error(`the object ${oid} is not what its header says`);
  return { type, body: raw.subarray(nul + 1) };
}

function corruptObject(oid: string, cause?: unknown): AppError {
  return new AppError('internal_error', `The content repository is damaged: the git object ${oid} cannot be read.`, { cause });
}

/** Narrows a string to a git object type name. */
export function isObjectType(value: string): value is GitObjectType {
  return OBJECT_TYPES.has(value);
}
