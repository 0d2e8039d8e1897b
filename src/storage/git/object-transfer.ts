// Moving a whole history in and out of the object database as one byte
// stream (backups): every object reachable from a commit, each deflated on
// its own, in a small record format that can be written and read as a
// stream. Object ids are never taken from the stream; they are computed from
// the content on the way in, so a crafted stream cannot plant a wrong object.
import { Readable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { deflateSync, inflateSync } from 'node:zlib';
import type { ObjectReader } from './object-reader.ts';
import { prepareObject, type GitObjectType, type ObjectStore, type PreparedObject } from './objects.ts';

/** Thrown when an object stream is not in the expected format. */
export class MalformedObjectStream extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedObjectStream';
  }
}

/** Limits that apply while reading an object stream. */
export interface ObjectStreamLimits {
  /** Largest object (inflated) accepted. */
  maxObjectBytes: number;
}

const MAGIC = Buffer.from('GITCMS-OBJECTS 1\n', 'latin1');
const CODES: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const TYPES: (GitObjectType | undefined)[] = [undefined, 'commit', 'tree', 'blob', 'tag'];
const HEADER_BYTES = 5;
const GITLINK_MODE = '160000';
// Object reads are synchronous, so a long export gives other requests a turn this often.
const YIELD_EVERY_MS = 10;
// Objects are written to disk in batches of this many while importing a history.
const IMPORT_BATCH = 500;

/** What an export wrote, known once its stream has ended. */
export interface ExportStats {
  objects: number;
  commits: number;
}

/**
 * Yields every object reachable from commit `head`: commits (all parents),
 * their trees and blobs, each once. A missing parent commit ends that line of
 * history (a shallow clone); any other missing object throws.
 */
export async function* reachableObjects(reader: ObjectReader, head: string): AsyncGenerator<PreparedObject> {
  const seen = new Set<string>();
  const commits = [head];
  while (commits.length > 0) {
    const oid = commits.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    const raw = await reader.store.read(oid);
    if (raw === undefined && oid !== head) continue;
    if (raw?.type !== 'commit') throw new Error(`The git commit ${oid} is missing or not a commit.`);
    yield { oid, type: 'commit', body: raw.body };
    const commit = await reader.readCommit(oid);
    if (commit === undefined) throw new Error(`The git commit ${oid} cannot be read.`);
    yield* treeObjects(reader, commit.tree, seen);
    commits.push(...commit.parents);
  }
}

async function* treeObjects(reader: ObjectReader, tree: string, seen: Set<string>): AsyncGenerator<PreparedObject> {
  if (seen.has(tree)) return;
  seen.add(tree);
  const raw = await reader.store.read(tree);
  if (raw?.type !== 'tree') throw new Error(`The git tree ${tree} is missing.`);
  yield { oid: tree, type: 'tree', body: raw.body };
  for (const entry of (await reader.readTree(tree)).entries()) {
    if (entry.isTree) {
      yield* treeObjects(reader, entry.oid, seen);
    } else if (entry.mode !== GITLINK_MODE && !seen.has(entry.oid)) {
      seen.add(entry.oid);
      const blob = await reader.store.read(entry.oid);
      if (blob?.type !== 'blob') throw new Error(`The git blob ${entry.oid} is missing.`);
      yield { oid: entry.oid, type: 'blob', body: blob.body };
    }
  }
}

/**
 * Encodes objects as a stream: a magic line, then per object a type byte, a
 * 32-bit length and the deflated body. `stats` resolves when the stream ends.
 */
export function encodeObjects(objects: AsyncIterable<PreparedObject>): { stream: Readable; stats: Promise<ExportStats> } {
  let settle: (stats: ExportStats) => void = () => undefined;
  const stats = new Promise<ExportStats>((resolve) => {
    settle = resolve;
  });
  const stream = Readable.from(
    (async function* () {
      const counted: ExportStats = { objects: 0, commits: 0 };
      let lastYield = performance.now();
      yield MAGIC;
      for await (const object of objects) {
        counted.objects += 1;
        if (object.type === 'commit') counted.commits += 1;
        const data = deflateSync(object.body, { level: 6 });
        const header = Buffer.alloc(HEADER_BYTES);
        header[0] = CODES[object.type];
        header.writeUInt32BE(data.length, 1);
        yield Buffer.concat([header, data]);
        if (performance.now() - lastYield > YIELD_EVERY_MS) {
          await yieldToEventLoop();
          lastYield = performance.now();
        }
      }
      settle(counted);
    })(),
    { objectMode: false },
  );
  return { stream, stats };
}

/**
 * Decodes a stream written by encodeObjects() and yields each object with
 * its id computed from its content. Throws MalformedObjectStream for a bad
 * magic line, an unknown type, a cut-off record or a body that does not
 * inflate within the limit.
 */
export async function* decodeObjects(input: AsyncIterable<Buffer | string>, limits: ObjectStreamLimits): AsyncGenerator<PreparedObject> {
  let buffer = Buffer.alloc(0);
  let started = false;
  const maxRecord = limits.maxObjectBytes + 1024;
  for await (const chunk of input) {
    buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, Buffer.from(chunk)]);
    if (!started) {
      if (buffer.length < MAGIC.length) continue;
      if (!buffer.subarray(0, MAGIC.length).equals(MAGIC)) throw new MalformedObjectStream('The history file does not start with the expected header.');
      buffer = buffer.subarray(MAGIC.length);
      started = true;
    }
    let offset = 0;
    while (buffer.length - offset >= HEADER_BYTES) {
      const type = TYPES[buffer[offset]];
      const length = buffer.readUInt32BE(offset + 1);
      if (type === undefined) throw new MalformedObjectStream('The history file holds an object of an unknown type.');
      if (length > maxRecord) throw new MalformedObjectStream('The history file holds an object over the size limit.');
      if (buffer.length - offset - HEADER_BYTES < length) break;
      const data = buffer.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + length);
      offset += HEADER_BYTES + length;
      yield prepareObject(type, inflateRecord(data, limits.maxObjectBytes));
    }
    buffer = buffer.subarray(offset);
  }
  if (!started || buffer.length > 0) throw new MalformedObjectStream('The history file is cut off.');
}

/**
 * Reads a stream written by encodeObjects() and stores its objects, or with
 * `dryRun` only checks it. Returns how many objects and commits it holds.
 * Throws MalformedObjectStream for a bad stream; objects stored before the
 * error stay as unreachable objects, which git ignores.
 */
export async function importObjects(
  store: ObjectStore,
  input: AsyncIterable<Buffer | string>,
  options: ObjectStreamLimits & { dryRun?: boolean },
): Promise<{ objects: number; commits: number }> {
  let objects = 0;
  let commits = 0;
  let batch: PreparedObject[] = [];
  for await (const object of decodeObjects(input, options)) {
    objects += 1;
    if (object.type === 'commit') commits += 1;
    if (options.dryRun) continue;
    batch.push(object);
    if (batch.length >= IMPORT_BATCH) {
      await store.writeAll(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await store.writeAll(batch);
  return { objects, commits };
}

function inflateRecord(data: Buffer, maxBytes: number): Buffer {
  try {
    return inflateSync(data, { maxOutputLength: maxBytes });
  } catch {
    throw new MalformedObjectStream('The history file holds an object that does not inflate within the size limit.');
  }
}

/**
 * Whether every object reachable from commit `head` is present: its whole
 * line of commits back to the roots, with all their trees and blobs. Used
 * before a commit is made a parent, so a walk can never hit a hole.
 */
export async function isHistoryComplete(reader: ObjectReader, head: string): Promise<boolean> {
  const seen = new Set<string>();
  const commits = [head];
  try {
    while (commits.length > 0) {
      const oid = commits.pop()!;
      if (seen.has(oid)) continue;
      seen.add(oid);
      const commit = await reader.readCommit(oid);
      if (commit === undefined) return false;
      if (!(await isTreeComplete(reader, commit.tree, seen))) return false;
      commits.push(...commit.parents);
    }
    return true;
  } catch {
    return false;
  }
}

async function isTreeComplete(reader: ObjectReader, tree: string, seen: Set<string>): Promise<boolean> {
  if (seen.has(tree)) return true;
  seen.add(tree);
  for (const entry of (await reader.readTree(tree)).entries()) {
    if (entry.isTree) {
      if (!(await isTreeComplete(reader, entry.oid, seen))) return false;
    } else if (entry.mode !== GITLINK_MODE && !seen.has(entry.oid)) {
      seen.add(entry.oid);
      if ((await reader.store.read(entry.oid))?.type !== 'blob') return false;
    }
  }
  return true;
}
