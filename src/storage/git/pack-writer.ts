// Writes objects as a pack the way git's own packs are laid out: a `.pack`
// (header, one zlib stream per object, SHA-1 trailer) and a version-2 `.idx`
// (fan-out table, sorted ids, CRC-32s, offsets, checksums), both through a
// temp file and a rename, the index last: git and pack-reader.ts only see a
// pack through its index, so nobody ever reads a partial one. Two files per
// pack instead of one per object: creating files is most of what a commit
// costs on disk.
import { createHash } from 'node:crypto';
import { renameSync } from 'node:fs';
import path from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { tempSuffix } from '../../lib/temp-suffix.ts';
import { removeQuietly, staleFiles } from '../atomic-write.ts';
import { FilesAhead } from '../files-ahead.ts';
import { deflateFitted, deflateUnlessCompressed } from './deflate.ts';
import type { GitObjectType } from './objects.ts';
import { blocksOf, storedStream } from './stored-blocks.ts';
import type { StoredBlocks } from './stored-blocks.ts';

/**
 * An object to pack: its body, compressed here (or stored uncompressed, cut
 * into `blocks`); its entry in another pack, copied as it is; or a delta
 * that rebuilds it from `deltaOf`, an object earlier in the same pack.
 */
export type PackObject = { oid: string; type: GitObjectType; body: Uint8Array; blocks?: StoredBlocks } | { oid: string; entry: Buffer } | { oid: string; deltaOf: string; delta: Buffer };

/** Where an object's entry is in a written `.pack`, and whether a later pack should compress its body (`fast` left it uncompressed). */
export interface PackedEntry {
  offset: number;
  length: number;
  compressLater: boolean;
}

/** A pack in place: its name (`pack-<checksum>`, no extension), the bytes of both files, its entries by object id, and its `.idx` as written. */
export interface WrittenPack {
  name: string;
  bytes: number;
  entries: Map<string, PackedEntry>;
  index: Buffer;
}

const TYPE_CODES: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const OFS_DELTA = 6;
const IDX_MAGIC = 0xff744f63;
// Room beyond an entry's size, so one output chunk holds it inflated.
const CHUNK_SLACK_BYTES = 1024;
// Trees, commits and deltas up to this size are framed as stored, never
// compressed: trees and commits are mostly object ids, which do not
// compress, a roll-up's deltas are a few dozen bytes each, and zlib's set-up
// cost ~30 µs for each of the several a commit writes (and the hundreds a
// roll-up writes).
const STORED_SMALL_BYTES = 4 * 1024;
// Framed bodies (folder trees) up to this size are compressed by a later
// pack; larger ones are copied as framed. A tree is mostly object ids: level
// 1 takes a 100,000-entry folder's 4.2 MB tree only to 60 % and spends ~64 ms
// on it. Roll-ups come every 8 MiB of commit packs, so their deflate costs
// each commit about the square of the tree's size: ~0.35 ms at 10,000
// entries (450 KB, a roll-up every 17 commits), ~32 ms at 100,000 (every
// other commit). git's repack makes all but the newest version deltas anyway.
const RECOMPRESSED_UP_TO_BYTES = 1024 * 1024;
const TEMP_PREFIX = 'tmp_cms_';
// A temp file this old belongs to no pack still being written.
const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

/**
 * Writes `objects` (ids unique, every `deltaOf` earlier in the list) as one
 * pack in `packDir` and returns it. With `fast`, blobs are stored
 * uncompressed and marked for a later pack to compress. `files` writes the
 * two files before they are renamed into place (by default under temp names
 * in `packDir`). Synchronous: a commit's pack is a few small writes in the
 * page cache.
 */
export function writePack(packDir: string, objects: PackObject[], options: { fast?: boolean; files?: FilesAhead } = {}): WrittenPack {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects.length, 8);
  const chunks: Buffer[] = [header];
  const offsets = new Map<string, number>();
  const indexed: { oid: Buffer; offset: number; crc: number }[] = [];
  const entries = new Map<string, PackedEntry>();
  let offset = header.length;
  for (const object of objects) {
    const { parts, compressLater } = encodeEntry(object, offset, offsets, options.fast ?? false);
    const start = offset;
    offsets.set(object.oid, start);
    let crc = 0;
    for (const part of parts) {
      crc = crc32(part, crc);
      chunks.push(part);
      offset += part.length;
    }
    indexed.push({ oid: Buffer.from(object.oid, 'hex'), offset: start, crc });
    entries.set(object.oid, { offset: start, length: offset - start, compressLater });
  }
  const hash = createHash('sha1');
  for (const chunk of chunks) hash.update(chunk);
  const checksum = hash.digest();
  chunks.push(checksum);
  const name = `pack-${checksum.toString('hex')}`;
  const index = encodeIndex(indexed, checksum);
  const files = options.files ?? new FilesAhead(() => path.join(packDir, `${TEMP_PREFIX}${tempSuffix()}`), 0);
  const packTemp = files.write(chunks, 0o444);
  let indexTemp: string | undefined;
  try {
    indexTemp = files.write([index], 0o444);
    renameSync(packTemp, path.join(packDir, `${name}.pack`));
    renameSync(indexTemp, path.join(packDir, `${name}.idx`));
  } catch (error) {
    removeQuietly(packTemp);
    if (indexTemp !== undefined) removeQuietly(indexTemp);
    throw error;
  }
  return { name, bytes: offset + checksum.length + index.length, entries, index };
}

/** Removes temp files of packs whose writer died before renaming them (older than an hour unless `minAgeMs` says otherwise). */
export function removeStalePackTemps(packDir: string, minAgeMs = STALE_TEMP_AGE_MS, now = Date.now()): void {
  for (const file of staleFiles(packDir, (name) => name.startsWith(TEMP_PREFIX), minAgeMs, now)) removeQuietly(file);
}

// The entry's header (type and size, plus the distance back to the delta
// base), then the deflated body or delta, as parts written one after the
// other (a large body is not copied again).
function encodeEntry(object: PackObject, offset: number, offsets: Map<string, number>, fast: boolean): { parts: Buffer[]; compressLater: boolean } {
  if ('entry' in object) return { parts: [object.entry], compressLater: false };
  if ('delta' in object) {
    const baseOffset = offsets.get(object.deltaOf);
    if (baseOffset === undefined) throw new Error(`the delta base ${object.deltaOf} is not earlier in the pack`);
    const delta = object.delta.length <= STORED_SMALL_BYTES ? storedStream(object.delta, blocksOf(object.delta)) : [deflateFitted(object.delta, 1)];
    return { parts: [typeAndSize(OFS_DELTA, object.delta.length), baseDistance(offset - baseOffset), ...delta], compressLater: false };
  }
  const header = typeAndSize(TYPE_CODES[object.type], object.body.length);
  if (object.blocks !== undefined) return { parts: [header, ...storedStream(object.body, object.blocks)], compressLater: object.body.length <= RECOMPRESSED_UP_TO_BYTES };
  if (object.type !== 'blob' && object.body.length <= STORED_SMALL_BYTES) return { parts: [header, ...storedStream(object.body, blocksOf(object.body))], compressLater: false };
  // A commit pack lives until the next roll-up, which compresses; zlib's
  // set-up alone cost ~40 µs of a small blob's ~50 µs on the commit's path.
  if (fast) return { parts: [header, ...storedStream(object.body, blocksOf(object.body))], compressLater: true };
  return { parts: [header, deflateUnlessCompressed(object.body)], compressLater: false };
}

function typeAndSize(type: number, size: number): Buffer {
  const bytes = [(type << 4) | (size & 0x0f)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes[bytes.length - 1] |= 0x80;
    bytes.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

// Git's offset encoding: big-endian groups of 7 bits, each but the last
// continued, with one added per continued group so no value has two encodings.
function baseDistance(distance: number): Buffer {
  const bytes = [distance & 0x7f];
  let rest = Math.floor(distance / 128);
  while (rest > 0) {
    rest -= 1;
    bytes.unshift(0x80 | (rest & 0x7f));
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

function encodeIndex(entries: { oid: Buffer; offset: number; crc: number }[], packChecksum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(a.oid, b.oid));
  const count = sorted.length;
  const large = sorted.filter(({ offset }) => offset >= 0x80000000);
  const index = Buffer.alloc(8 + 256 * 4 + count * 28 + large.length * 8 + 40);
  index.writeUInt32BE(IDX_MAGIC, 0);
  index.writeUInt32BE(2, 4);
  const fanout = new Uint32Array(256);
  for (const { oid } of sorted) fanout[oid[0]] += 1;
  let total = 0;
  for (let i = 0; i < 256; i += 1) {
    total += fanout[i];
    index.writeUInt32BE(total, 8 + i * 4);
  }
  const names = 8 + 256 * 4;
  const crcs = names + count * 20;
  const smallOffsets = crcs + count * 4;
  const largeOffsets = smallOffsets + count * 4;
  let largeCount = 0;
  sorted.forEach(({ oid, offset, crc }, i) => {
    oid.copy(index, names + i * 20);
    index.writeUInt32BE(crc, crcs + i * 4);
    if (offset < 0x80000000) {
      index.writeUInt32BE(offset, smallOffsets + i * 4);
    } else {
      index.writeUInt32BE(0x80000000 | largeCount, smallOffsets + i * 4);
      index.writeBigUInt64BE(BigInt(offset), largeOffsets + largeCount * 8);
      largeCount += 1;
    }
  });
  const trailer = largeOffsets + large.length * 8;
  packChecksum.copy(index, trailer);
  createHash('sha1').update(index.subarray(0, trailer + 20)).digest().copy(index, trailer + 20);
  return index;
}

/** The body of a whole (not delta) entry as writePack() made it: the type-and-size header, then one zlib stream. */
export function entryBody(entry: Buffer): Buffer {
  let p = 0;
  let size = entry[p] & 0x0f;
  for (let shift = 4; entry[p] & 0x80; shift += 7) {
    p += 1;
    size += (entry[p] & 0x7f) * 2 ** shift;
  }
  return inflateSync(entry.subarray(p + 1), { chunkSize: size + CHUNK_SLACK_BYTES });
}
