// The git index (`.git/index`, the staging area) kept as raw entry bytes plus
// an offset table: a commit splices in the entries it changed and writes the
// file once, instead of re-encoding thousands of entries. Reads versions 2–4,
// writes 2 (or 3 when an entry carries extended flags).
import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { lowerBound } from '../../lib/binary-search.ts';

/** The `link` extension of a split index: the shared index it extends and how. */
export interface LinkExtension {
  /** Checksum (hex) of the shared index, stored as `.git/sharedindex.<hex>`. */
  baseHash: string;
  deleteBitmap: Buffer;
  replaceBitmap: Buffer;
}

/** An index file as parsed: its entries in file order and its link extension, if split. */
export interface ParsedIndex {
  index: GitIndex;
  link?: LinkExtension;
}

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

// Where each entry and its path start and end in the entry bytes.
interface OffsetTable {
  starts: Uint32Array;
  nameStarts: Uint32Array;
  nameEnds: Uint32Array;
  count: number;
}

/** Why an index file cannot be used (the message completes "The git index … cannot be used: "). */
export class IndexFormatError extends Error {}

/** An immutable index: entries sorted by path bytes, then stage. */
export class GitIndex {
  static readonly EMPTY = new GitIndex(2, Buffer.alloc(0));
  private constructor(
    private readonly version: 2 | 3,
    private readonly region: Buffer,
    private table?: OffsetTable,
  ) {}

  /**
   * Parses an index file. A split index's entries are returned in file
   * order; SplitIndex merges them with the shared index. Throws
   * IndexFormatError saying why when the file is damaged or uses a required
   * extension other than `link` (a sparse index), which the server cannot rewrite.
   */
  static parse(data: Buffer): ParsedIndex {
    if (data.length < HEADER_BYTES + 20 || data.toString('latin1', 0, 4) !== SIGNATURE) throw new IndexFormatError('it is not a git index file');
    const version = data.readUInt32BE(4);
    if (version < 2 || version > 4) throw new IndexFormatError(`it has version ${version}, which the server cannot read`);
    if (!hasValidChecksum(data)) throw new IndexFormatError('its checksum does not match its content');
    const parsed = version === 4 ? parseVersion4(data) : { region: undefined, end: scanEntries(data, data.readUInt32BE(8)) };
    if (parsed === undefined || parsed.end < 0) throw new IndexFormatError('its entries are damaged');
    let link: LinkExtension | undefined;
    for (let p = parsed.end; p < data.length - 20; p += 8 + data.readUInt32BE(p + 4)) {
      const signature = data.toString('latin1', p, p + 4);
      const body = data.subarray(p + 8, p + 8 + data.readUInt32BE(p + 4));
      if (signature === 'link') {
        link = parseLink(body);
        if (link === undefined) throw new IndexFormatError('its split-index link is damaged');
      } else if (data[p] < 0x41 || data[p] > 0x5a) {
        throw new IndexFormatError(`it uses the index extension "${signature.replace(/[^\x20-\x7e]/g, '?')}" (a sparse index), which the server cannot rewrite`);
      }
    }
    const region = parsed.region ?? data.subarray(HEADER_BYTES, parsed.end);
    return { index: new GitIndex(version === 2 ? 2 : 3, region), link };
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

  /** The raw bytes of entry `i`. */
  entryBytes(i: number): Buffer {
    const { starts } = this.offsets();
    return this.region.subarray(starts[i], i + 1 < this.size ? starts[i + 1] : this.region.length);
  }

  /** The merge stage (0 unless conflicted) of entry `i`. */
  stageAt(i: number): number {
    return (this.region.readUInt16BE(this.offsets().starts[i] + 60) >> 12) & 3;
  }

  /** The entries [from, to) recorded for `path` (all stages). */
  rangeOf(path: string): [number, number] {
    const key = Buffer.from(path, 'utf8');
    const from = this.lowerBound(key);
    let to = from;
    while (to < this.size && this.compareKey(to, key) === 0) to += 1;
    return [from, to];
  }

  /** Applies edits (one per path) and returns the new index. */
  edit(edits: IndexEdit[]): GitIndex {
    const { chunks, bytes, table } = this.splice(edits, true);
    return new GitIndex(this.version, Buffer.concat(chunks, bytes), table);
  }

  /**
   * The file's bytes with edits applied (as toChunks() of edit(edits) would
   * give them), made of slices of this index and the edited entries: no copy
   * of the whole index, which at 10,000 files is a megabyte per write.
   */
  editedChunks(edits: IndexEdit[]): Buffer[] {
    const { chunks, count } = this.splice(edits, false);
    return indexFileChunks(this.version, count, chunks);
  }

  /** The file's bytes as chunks (header, entries, checksum), ready for a vectored write. */
  toChunks(): Buffer[] {
    return indexFileChunks(this.version, this.size, [this.region]);
  }

  // The entry bytes with edits applied, as runs of this index's bytes and the
  // new entries; with `withTable`, also their offset table, carried over
  // (shifted) rather than rescanned: at 10,000 entries that is most of the cost of an edit.
  private splice(edits: IndexEdit[], withTable: boolean): { chunks: Buffer[]; bytes: number; count: number; table?: OffsetTable } {
    const cuts: { from: number; to: number; key: Buffer; bytes: Buffer | null }[] = [];
    for (const { path, entry } of edits) {
      const [from, to] = this.rangeOf(path);
      cuts.push({ from, to, key: Buffer.from(path, 'utf8'), bytes: entry });
    }
    cuts.sort((a, b) => a.from - b.from || Buffer.compare(a.key, b.key));
    const old = this.offsets();
    const count = cuts.reduce((total, cut) => total - (cut.to - cut.from) + (cut.bytes === null ? 0 : 1), old.count);
    const table = withTable ? { starts: new Uint32Array(count), nameStarts: new Uint32Array(count), nameEnds: new Uint32Array(count), count } : undefined;
    const chunks: Buffer[] = [];
    let written = 0;
    let bytes = 0;
    const copy = (from: number, to: number): void => {
      if (from >= to) return;
      if (table !== undefined) {
        const shift = bytes - old.starts[from];
        for (let i = from; i < to; i += 1, written += 1) {
          table.starts[written] = old.starts[i] + shift;
          table.nameStarts[written] = old.nameStarts[i] + shift;
          table.nameEnds[written] = old.nameEnds[i] + shift;
        }
      }
      const chunk = this.region.subarray(this.byteStart(from), this.byteStart(to));
      chunks.push(chunk);
      bytes += chunk.length;
    };
    let cursor = 0;
    for (const cut of cuts) {
      copy(cursor, cut.from);
      if (cut.bytes !== null) {
        if (table !== undefined) {
          const { nameStart, nameEnd } = entryBounds(cut.bytes, 0, 2);
          table.starts[written] = bytes;
          table.nameStarts[written] = bytes + nameStart;
          table.nameEnds[written] = bytes + nameEnd;
          written += 1;
        }
        chunks.push(cut.bytes);
        bytes += cut.bytes.length;
      }
      cursor = Math.max(cursor, cut.to);
    }
    copy(cursor, old.count);
    return { chunks, bytes, count, table };
  }

  private byteStart(i: number): number {
    return i < this.size ? this.offsets().starts[i] : this.region.length;
  }

  private lowerBound(key: Buffer): number {
    return lowerBound(this.size, (i) => this.compareKey(i, key));
  }

  private compareKey(i: number, key: Buffer): number {
    const { nameStarts, nameEnds } = this.offsets();
    return this.region.compare(key, 0, key.length, nameStarts[i], nameEnds[i]);
  }

  private offsets(): OffsetTable {
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

/**
 * Assembles an index file from entry bytes and extensions (each already
 * framed with signature and size); the last chunk is the checksum.
 */
export function indexFileChunks(version: 2 | 3, count: number, body: Buffer[]): Buffer[] {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(SIGNATURE, 0, 'latin1');
  header.writeUInt32BE(version, 4);
  header.writeUInt32BE(count, 8);
  const hash = createHash('sha1').update(header);
  for (const chunk of body) hash.update(chunk);
  return [header, ...body, hash.digest()];
}

/** Returns a copy of an entry with its path replaced (split indexes store replaced entries without one). */
export function renameIndexEntry(entry: Buffer, path: string): Buffer {
  const fixed = STAT_BYTES + (entry.readUInt16BE(60) & EXTENDED_FLAG ? 2 : 0);
  const name = Buffer.from(path, 'utf8');
  const renamed = Buffer.alloc((fixed + name.length + 8) & ~7);
  entry.copy(renamed, 0, 0, fixed);
  renamed.writeUInt16BE((entry.readUInt16BE(60) & ~NAME_MASK) | Math.min(name.length, NAME_MASK), 60);
  name.copy(renamed, fixed);
  return renamed;
}

function parseLink(body: Buffer): LinkExtension | undefined {
  if (body.length < 20) return undefined;
  const baseHash = body.toString('hex', 0, 20);
  if (body.length === 20) return { baseHash, deleteBitmap: Buffer.alloc(0), replaceBitmap: Buffer.alloc(0) };
  const deleteLength = ewahLength(body, 20);
  const replaceLength = deleteLength < 0 ? -1 : ewahLength(body, 20 + deleteLength);
  if (replaceLength < 0 || 20 + deleteLength + replaceLength !== body.length) return undefined;
  return { baseHash, deleteBitmap: body.subarray(20, 20 + deleteLength), replaceBitmap: body.subarray(20 + deleteLength) };
}

// An EWAH bitmap is: bit count, word count, 64-bit words, position of the last run-length word.
function ewahLength(body: Buffer, offset: number): number {
  if (offset + 8 > body.length) return -1;
  const length = 12 + body.readUInt32BE(offset + 4) * 8;
  return offset + length <= body.length ? length : -1;
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
