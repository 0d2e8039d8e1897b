// The git index (`.git/index`, the staging area) kept as raw entry bytes plus
// an offset table: a commit splices in the entries it changed and writes the
// file once, instead of re-encoding thousands of entries. Reads versions 2–4,
// writes 2 (or 3 when an entry carries extended flags).
import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';

/** Sets (`entry`, from encodeIndexEntry) or removes (`null`) every stage of `path`. */
export interface IndexEdit {
  path: string;
  entry: Buffer | null;
}

const SIGNATURE = 'DIRC';
const HEADER_BYTES = 12;
const STAT_BYTES = 62;
const EXTENDED_FLAG = 0x4000;
const NAME_MASK = 0xfff;
const U32 = 0xffffffffn;

/** An immutable index: entries sorted by path bytes, then stage. */
export class GitIndex {
  static readonly EMPTY = new GitIndex(2, Buffer.alloc(0));
  private table?: { starts: Uint32Array; nameStarts: Uint32Array; nameEnds: Uint32Array; count: number };

  private constructor(
    private readonly version: 2 | 3,
    private readonly region: Buffer,
  ) {}

  /** Parses an index file; undefined when it is corrupt or uses a required extension this code cannot keep (split index, sparse index). */
  static parse(data: Buffer): GitIndex | undefined {
    if (data.length < HEADER_BYTES + 20 || data.toString('latin1', 0, 4) !== SIGNATURE) return undefined;
    const version = data.readUInt32BE(4);
    if (version < 2 || version > 4 || !hasValidChecksum(data)) return undefined;
    const parsed = version === 4 ? parseVersion4(data) : { region: undefined, end: scanEntries(data, data.readUInt32BE(8)) };
    if (parsed === undefined || parsed.end < 0) return undefined;
    for (let p = parsed.end; p < data.length - 20; p += 8 + data.readUInt32BE(p + 4)) {
      const first = data[p];
      if (first < 0x41 || first > 0x5a) return undefined;
    }
    const region = parsed.region ?? data.subarray(HEADER_BYTES, parsed.end);
    return new GitIndex(version === 2 ? 2 : 3, region);
  }

  /** Builds an index from tree entries with empty stat data (git re-checks those files once). */
  static fromEntries(entries: { path: string; mode: number; oid: string }[]): GitIndex {
    const sorted = entries.map((entry) => ({ key: Buffer.from(entry.path, 'utf8'), entry })).sort((a, b) => Buffer.compare(a.key, b.key));
    return new GitIndex(2, Buffer.concat(sorted.map(({ entry }) => encodeIndexEntry(entry.path, entry.oid, entry.mode))));
  }

  /** Number of entries (all stages). */
  get size(): number {
    return this.offsets().count;
  }

  /** The path of entry `i`, for inspection and tests. */
  pathAt(i: number): string {
    const { nameStarts, nameEnds } = this.offsets();
    return this.region.toString('utf8', nameStarts[i], nameEnds[i]);
  }

  /** The blob id recorded for entry `i`. */
  oidAt(i: number): string {
    const start = this.offsets().starts[i];
    return this.region.toString('hex', start + 40, start + 60);
  }

  /** Applies edits (one per path) and returns the new index. */
  edit(edits: IndexEdit[]): GitIndex {
    const cuts: { from: number; to: number; key: Buffer; bytes: Buffer | null }[] = [];
    for (const { path, entry } of edits) {
      const key = Buffer.from(path, 'utf8');
      const from = this.lowerBound(key);
      let to = from;
      while (to < this.size && this.compareKey(to, key) === 0) to += 1;
      cuts.push({ from, to, key, bytes: entry });
    }
    cuts.sort((a, b) => a.from - b.from || Buffer.compare(a.key, b.key));
    const chunks: Buffer[] = [];
    let cursor = 0;
    for (const cut of cuts) {
      if (cut.from > cursor) chunks.push(this.region.subarray(this.byteStart(cursor), this.byteStart(cut.from)));
      if (cut.bytes !== null) chunks.push(cut.bytes);
      cursor = Math.max(cursor, cut.to);
    }
    if (cursor < this.size) chunks.push(this.region.subarray(this.byteStart(cursor)));
    return new GitIndex(this.version, Buffer.concat(chunks));
  }

  /** The file's bytes as chunks (header, entries, checksum), ready for a vectored write. */
  toChunks(): Buffer[] {
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(SIGNATURE, 0, 'latin1');
    header.writeUInt32BE(this.version, 4);
    header.writeUInt32BE(this.size, 8);
    const checksum = createHash('sha1').update(header).update(this.region).digest();
    return [header, this.region, checksum];
  }

  private byteStart(i: number): number {
    return i < this.size ? this.offsets().starts[i] : this.region.length;
  }

  private lowerBound(key: Buffer): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compareKey(mid, key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private compareKey(i: number, key: Buffer): number {
    const { nameStarts, nameEnds } = this.offsets();
    return this.region.compare(key, 0, key.length, nameStarts[i], nameEnds[i]);
  }

  private offsets(): { starts: Uint32Array; nameStarts: Uint32Array; nameEnds: Uint32Array; count: number } {
    if (this.table !== undefined) return this.table;
    const capacity = Math.ceil(this.region.length / 64);
    const starts = new Uint32Array(capacity);
    const nameStarts = new Uint32Array(capacity);
    const nameEnds = new Uint32Array(capacity);
    let count = 0;
    for (let p = 0; p < this.region.length; count += 1) {
      const { nameStart, nameEnd, next } = entryBounds(this.region, p, 2);
      starts[count] = p;
      nameStarts[count] = nameStart;
      nameEnds[count] = nameEnd;
      p = next;
    }
    this.table = { starts, nameStarts, nameEnds, count };
    return this.table;
  }
}

/**
 * Encodes one stage-0 index entry. With `stats` (from lstat with bigint: true)
 * git sees the file as unchanged without re-reading it; without, git re-hashes it once.
 */
export function encodeIndexEntry(path: string, oid: string, mode: number, stats?: BigIntStats): Buffer {
  const name = Buffer.from(path, 'utf8');
  const entry = Buffer.alloc((STAT_BYTES + name.length + 8) & ~7);
  if (stats !== undefined) {
    const fields = [
      stats.ctimeNs / 1_000_000_000n, stats.ctimeNs % 1_000_000_000n,
      stats.mtimeNs / 1_000_000_000n, stats.mtimeNs % 1_000_000_000n,
      stats.dev, stats.ino,
    ];
    fields.forEach((value, i) => entry.writeUInt32BE(Number(value & U32), i * 4));
    entry.writeUInt32BE(Number(stats.uid & U32), 28);
    entry.writeUInt32BE(Number(stats.gid & U32), 32);
    entry.writeUInt32BE(Number(stats.size & U32), 36);
  }
  entry.writeUInt32BE(mode, 24);
  entry.write(oid, 40, 'hex');
  entry.writeUInt16BE(Math.min(name.length, NAME_MASK), 60);
  name.copy(entry, STAT_BYTES);
  return entry;
}

function entryBounds(data: Buffer, p: number, version: number): { nameStart: number; nameEnd: number; next: number } {
  const flags = data.readUInt16BE(p + 60);
  const nameStart = p + STAT_BYTES + (flags & EXTENDED_FLAG ? 2 : 0);
  const length = flags & NAME_MASK;
  const nameEnd = length < NAME_MASK ? nameStart + length : data.indexOf(0, nameStart);
  if (nameEnd < nameStart || nameEnd > data.length) throw new Error('The git index is corrupt.');
  const next = version === 4 ? nameEnd + 1 : p + ((nameEnd - p + 8) & ~7);
  return { nameStart, nameEnd, next };
}

function scanEntries(data: Buffer, count: number): number {
  let p = HEADER_BYTES;
  try {
    for (let i = 0; i < count; i += 1) p = entryBounds(data, p, 2).next;
  } catch {
    return -1;
  }
  return p <= data.length - 20 ? p : -1;
}

// Version 4 prefix-compresses paths: each entry stores how many bytes to drop
// from the previous path, then the new suffix. Re-encode as version 2/3 entries.
function parseVersion4(data: Buffer): { region: Buffer; end: number } | undefined {
  const count = data.readUInt32BE(8);
  const chunks: Buffer[] = [];
  let previous = Buffer.alloc(0);
  let p = HEADER_BYTES;
  for (let i = 0; i < count; i += 1) {
    if (p + STAT_BYTES > data.length - 20) return undefined;
    const flags = data.readUInt16BE(p + 60);
    const fixed = STAT_BYTES + (flags & EXTENDED_FLAG ? 2 : 0);
    let q = p + fixed;
    let byte = data[q++];
    let drop = byte & 0x7f;
    while (byte & 0x80) {
      byte = data[q++];
      drop = ((drop + 1) << 7) | (byte & 0x7f);
    }
    const nul = data.indexOf(0, q);
    if (nul < 0 || drop > previous.length) return undefined;
    const name = Buffer.concat([previous.subarray(0, previous.length - drop), data.subarray(q, nul)]);
    const entry = Buffer.alloc((fixed + name.length + 8) & ~7);
    data.copy(entry, 0, p, p + fixed);
    entry.writeUInt16BE((flags & ~NAME_MASK) | Math.min(name.length, NAME_MASK), 60);
    name.copy(entry, fixed);
    chunks.push(entry);
    previous = name;
    p = nul + 1;
  }
  return { region: Buffer.concat(chunks), end: p };
}

function hasValidChecksum(data: Buffer): boolean {
  const stored = data.subarray(data.length - 20);
  if (stored.every((byte) => byte === 0)) return true;
  return createHash('sha1').update(data.subarray(0, data.length - 20)).digest().equals(stored);
}
