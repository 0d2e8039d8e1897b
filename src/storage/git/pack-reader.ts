// Git's object database, packed side: objects that `git gc`, `git repack` or
// a clone put in `.git/objects/pack/*.pack`, found through their version-2
// `.idx` files and read with positional reads, so a pack is never loaded
// whole into memory. Deltas are resolved with a bounded cache of recently
// used bases (git keeps one too), which keeps long delta chains cheap when
// neighbouring objects are read one after the other.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { AppError } from '../../errors/app-error.ts';
import { lowerBound } from '../../lib/binary-search.ts';
import { isNotFound } from '../../lib/errno.ts';
import { LruCache } from '../../lib/lru-cache.ts';
import type { GitObjectType, RawObject } from './objects.ts';
import type { WrittenPack } from './pack-writer.ts';

/** Reads an object wherever it is (loose or packed): the base of a ref-delta may live anywhere. */
export type AnyObjectReader = (oid: string) => Promise<RawObject | undefined>;

const IDX_MAGIC = 0xff744f63;
// The last fan-out entry of a version 2 index: how many objects it lists.
const OBJECT_COUNT_AT = 8 + 255 * 4;
const HEADER_READ_BYTES = 64;
const BASE_CACHE_BYTES = 24 * 1024 * 1024;
const TYPES: Record<number, GitObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
// The largest object inflated from a bounded read (compressedBound): a
// 100,000-entry folder's tree is ~4 MB; a bigger file a developer committed
// is read exactly, rather than a buffer of its whole size for a compressed body.
const BOUNDED_READ_MAX = 16 * 1024 * 1024;
const OFS_DELTA = 6;
const REF_DELTA = 7;

/** Thrown when a pack this process wrote is first read after its files were deleted (a roll-up, a repack). */
class PackGone extends Error {
  constructor(readonly pack: Pack) {
    super(`the pack ${pack.name} was deleted`);
  }
}

/** One pack: its index in memory, its data file open for positional reads (from the first read on, for a pack this process wrote). */
class Pack {
  // Every entry's offset, ascending (a typed array: sorting and searching it costs a few ms where a Map of a pack's objects cost tens of ms at start).
  private starts: Float64Array | undefined;
  private closed = false;

  private constructor(
    readonly name: string,
    private readonly file: string,
    private readonly idx: Buffer,
    private readonly count: number,
    private fd: number | undefined,
    private readonly packSize: number,
  ) {}

  /** Opens `<name>.idx` and `<name>.pack` in `dir`; throws when either is missing or the index is not version 2. */
  static open(dir: string, name: string): Pack {
    const idx = readFileSync(path.join(dir, `${name}.idx`));
    if (idx.length < 8 + 256 * 4 + 40 || idx.readUInt32BE(0) !== IDX_MAGIC || idx.readUInt32BE(4) !== 2) {
      throw damaged(`the pack index ${name}.idx is not a version 2 index`);
    }
    const count = idx.readUInt32BE(OBJECT_COUNT_AT);
    if (idx.length < 8 + 256 * 4 + count * 28 + 40) throw damaged(`the pack index ${name}.idx is truncated`);
    const file = path.join(dir, `${name}.pack`);
    const fd = openSync(file, 'r');
    return new Pack(name, file, idx, count, fd, fstatSync(fd).size);
  }

  /**
   * A pack pack-writer.ts just put in `dir`, from the `.idx` bytes it wrote
   * (no read back); the `.pack` is opened at the first read from it. Most
   * commit packs are never read before the roll-up deletes them: opening and
   * reading their files cost ~50 µs per commit.
   */
  static written(dir: string, { name, index, bytes }: WrittenPack): Pack {
    return new Pack(name, path.join(dir, `${name}.pack`), index, index.readUInt32BE(OBJECT_COUNT_AT), undefined, bytes - index.length);
  }

  /** The offset of `oid` in the pack, or undefined when this pack does not hold it. */
  offsetOf(oid: string): number | undefined {
    const key = Buffer.from(oid, 'hex');
    const first = key[0];
    let low = first === 0 ? 0 : this.idx.readUInt32BE(8 + (first - 1) * 4);
    let high = this.idx.readUInt32BE(8 + first * 4);
    const names = 8 + 256 * 4;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const order = this.idx.compare(key, 0, 20, names + mid * 20, names + mid * 20 + 20);
      if (order === 0) return this.offsetAt(mid);
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return undefined;
  }

  /** Up to `limit` ids in this pack that start with the hex `prefix` (at least two digits), in order. */
  idsWithPrefix(prefix: string, limit: number): string[] {
    const first = Number.parseInt(prefix.slice(0, 2), 16);
    let low = first === 0 ? 0 : this.idx.readUInt32BE(8 + (first - 1) * 4);
    let high = this.idx.readUInt32BE(8 + first * 4);
    const names = 8 + 256 * 4;
    const key = Buffer.from(prefix.padEnd(40, '0'), 'hex');
    while (low < high) {
      const mid = (low + high) >>> 1;
      // Negative: the id at `mid` sorts before the prefix.
      if (this.idx.compare(key, 0, 20, names + mid * 20, names + mid * 20 + 20) < 0) low = mid + 1;
      else high = mid;
    }
    const found: string[] = [];
    for (let i = low; i < this.count && found.length < limit; i += 1) {
      const oid = this.idx.toString('hex', names + i * 20, names + i * 20 + 20);
      if (!oid.startsWith(prefix)) break;
      found.push(oid);
    }
    return found;
  }

  /** `length` bytes at `position` (fewer at the end of the file). */
  read(position: number, length: number): Buffer {
    const fd = this.fd ?? this.openData();
    const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.packSize - position)));
    const read = readSync(fd, buffer, 0, buffer.length, position);
    return buffer.subarray(0, read);
  }

  /** Where the entry at `offset` ends: the next entry's offset, or the pack's trailing checksum. */
  endOf(offset: number): number {
    if (this.starts === undefined) {
      const starts = new Float64Array(this.count);
      for (let i = 0; i < this.count; i += 1) starts[i] = this.offsetAt(i);
      this.starts = starts.sort();
    }
    const starts = this.starts;
    const position = lowerBound(starts.length, (i) => starts[i] - offset);
    if (starts[position] !== offset) throw damaged(`the pack ${this.name} has no object at offset ${offset}`);
    return position + 1 < starts.length ? starts[position + 1] : this.packSize - 20;
  }

  close(): void {
    this.closed = true;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openData(): number {
    if (this.closed) throw new PackGone(this);
    try {
      this.fd = openSync(this.file, 'r');
    } catch (error) {
      if (isNotFound(error)) throw new PackGone(this);
      throw error;
    }
    return this.fd;
  }

  private offsetAt(i: number): number {
    const offsets = 8 + 256 * 4 + this.count * 24;
    const small = this.idx.readUInt32BE(offsets + i * 4);
    if ((small & 0x80000000) === 0) return small;
    const large = offsets + this.count * 4 + (small & 0x7fffffff) * 8;
    return Number(this.idx.readBigUInt64BE(large));
  }
}

/** Finds and reads packed objects of one repository; packs are re-listed when an object is not found. */
export class PackReader {
  // In search order: the packs this process added, newest first, then the others as listed.
  private packs: Pack[] = [];
  private readonly bases = new LruCache<string, RawObject>(BASE_CACHE_BYTES, (object) => object.body.length + 64);

  constructor(
    private readonly packDir: string,
    private readonly readAny: AnyObjectReader,
  ) {}

  /** Reads a packed object; undefined when no pack holds it. Throws `internal_error` for a damaged pack. */
  async read(oid: string): Promise<RawObject | undefined> {
    for (;;) {
      let found = this.find(oid);
      if (found === undefined) {
        // A repack since the last listing may have moved the object to a new pack.
        this.relist();
        found = this.find(oid);
      }
      if (found === undefined) return undefined;
      try {
        return await this.readEntry(found.pack, found.offset);
      } catch (error) {
        // A pack added unopened was deleted before its first read: its
        // objects are in the pack that replaced it (a roll-up's, added
        // first; a repack's, found by relisting) or nowhere. Each turn drops a pack.
        if (!(error instanceof PackGone)) throw error;
        this.packs = this.packs.filter((pack) => pack !== error.pack);
      }
    }
  }

  /** Up to `limit` packed object ids starting with the hex `prefix` (at least two digits), for abbreviated ids. */
  idsWithPrefix(prefix: string, limit: number): string[] {
    this.relist();
    const found = new Set<string>();
    for (const pack of this.packs) {
      for (const oid of pack.idsWithPrefix(prefix, limit)) found.add(oid);
      if (found.size >= limit) break;
    }
    return [...found].slice(0, limit);
  }

  /** Takes a pack this process just wrote (its `.idx` in place) and looks in it first: new objects are the ones read next. */
  add(written: WrittenPack): void {
    if (this.packs.some(({ name }) => name === written.name)) return;
    this.packs.unshift(Pack.written(this.packDir, written));
  }

  /** Closes every open pack. */
  close(): void {
    for (const pack of this.packs) pack.close();
    this.packs = [];
  }

  private find(oid: string): { pack: Pack; offset: number } | undefined {
    for (const pack of this.packs) {
      const offset = pack.offsetOf(oid);
      if (offset !== undefined) return { pack, offset };
    }
    return undefined;
  }

  /** Re-reads the list of packs, closing the ones a repack deleted (their space is freed only then). */
  relist(): void {
    let names: string[];
    try {
      names = readdirSync(this.packDir).filter((file) => file.endsWith('.idx')).map((file) => file.slice(0, -4));
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    const listed = new Set(names);
    const kept = this.packs.filter(({ name }) => listed.has(name));
    const known = new Set(kept.map(({ name }) => name));
    const found: Pack[] = [];
    for (const name of names) {
      if (known.has(name)) continue;
      try {
        found.push(Pack.open(this.packDir, name));
      } catch (error) {
        // A pack being written has its .idx renamed into place last; one being deleted may lose its .pack first.
        if (!isNotFound(error)) throw error;
      }
    }
    // Open descriptors keep a pack that a repack deleted readable until here.
    for (const pack of this.packs) if (!listed.has(pack.name)) pack.close();
    this.packs = [...kept, ...found];
  }

  // Only delta bases are cached here: the objects callers ask for are cached
  // by object-reader.ts, and caching every commit pack's large trees as well
  // held 24 MiB of them for nothing.
  private async readEntry(pack: Pack, offset: number, asBase = false): Promise<RawObject> {
    const key = `${pack.name}:${offset}`;
    const cached = this.bases.get(key);
    if (cached !== undefined) return cached;
    const header = pack.read(offset, HEADER_READ_BYTES);
    let p = 0;
    let byte = header[p++];
    const kind = (byte >> 4) & 7;
    let size = byte & 15;
    for (let shift = 4; byte & 0x80; shift += 7) {
      byte = header[p++];
      size += (byte & 0x7f) * 2 ** shift;
    }
    let base: RawObject | undefined;
    if (kind === OFS_DELTA) {
      byte = header[p++];
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = header[p++];
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      base = await this.readEntry(pack, offset - distance, true);
    } else if (kind === REF_DELTA) {
      const baseOid = header.toString('hex', p, p + 20);
      p += 20;
      base = await this.readAny(baseOid);
      if (base === undefined) throw damaged(`the pack ${pack.name} refers to a missing object ${baseOid}`);
    } else if (TYPES[kind] === undefined) {
      throw damaged(`the pack ${pack.name} has an object of unknown type at offset ${offset}`);
    }
    const start = offset + p;
    const bounded = size <= BOUNDED_READ_MAX ? inflateUpTo(pack.read(start, compressedBound(size)), size) : undefined;
    const data = bounded ?? inflate(pack.read(start, pack.endOf(offset) - start), size, pack.name);
    const object: RawObject = base === undefined ? { type: TYPES[kind], body: data } : { type: base.type, body: applyDelta(base.body, data, pack.name) };
    if (asBase) this.bases.set(key, object);
    return object;
  }
}

// The most bytes a zlib stream of `size` bytes takes, as encoders write
// them: zlib's worst case is under size + size/4096 + 13, stored blocks of
// 8 KiB (stored-blocks.ts) add 5 bytes each. Inflating stops where the stream
// ends, so reading this many spares a start the table of every object's
// offset that endOf() needs (~20 ms for a pack of 50,000 objects); a longer
// stream (another encoder's) or a damaged one is read again up to endOf().
function compressedBound(size: number): number {
  return size + Math.ceil(size / 256) + 64;
}

// The stream in `data` inflated when it is whole there and holds `size` bytes, else undefined.
function inflateUpTo(data: Buffer, size: number): Buffer | undefined {
  try {
    const body = inflateSync(data, { chunkSize: chunkSizeFor(size) });
    return body.length === size ? body : undefined;
  } catch {
    return undefined;
  }
}

function chunkSizeFor(size: number): number {
  return Math.max(1024, Math.min(size + 64, 1024 * 1024));
}

function inflate(data: Buffer, size: number, pack: string): Buffer {
  let body: Buffer;
  try {
    body = inflateSync(data, { chunkSize: chunkSizeFor(size) });
  } catch (error) {
    throw damaged(`the pack ${pack} has a damaged object (${error instanceof Error ? error.message : String(error)})`);
  }
  if (body.length !== size) throw damaged(`the pack ${pack} has an object of the wrong size`);
  return body;
}

// A delta: the base's size, the result's size, then instructions that copy a
// range of the base or insert literal bytes.
function applyDelta(base: Buffer, delta: Buffer, pack: string): Buffer {
  let p = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = delta[p++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  if (varint() !== base.length) throw damaged(`the pack ${pack} has a delta for a different base`);
  const out = Buffer.allocUnsafe(varint());
  let q = 0;
  while (p < delta.length) {
    const op = delta[p++];
    if (op & 0x80) {
      let from = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit += 1) if (op & (1 << bit)) from += delta[p++] * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit += 1) if (op & (16 << bit)) length += delta[p++] * 2 ** (8 * bit);
      if (length === 0) length = 0x10000;
      if (from + length > base.length || q + length > out.length) throw damaged(`the pack ${pack} has a damaged delta`);
      q += base.copy(out, q, from, from + length);
    } else if (op !== 0) {
      if (p + op > delta.length || q + op > out.length) throw damaged(`the pack ${pack} has a damaged delta`);
      q += delta.copy(out, q, p, p + op);
      p += op;
    } else {
      throw damaged(`the pack ${pack} has a damaged delta`);
    }
  }
  if (q !== out.length) throw damaged(`the pack ${pack} has a damaged delta`);
  return out;
}

function damaged(problem: string): AppError {
  return new AppError('internal_error', `The content repository is damaged: ${problem}.`);
}
