// The index in git's split-index format: `.git/sharedindex.<hash>` holds the
// bulk of the entries and `.git/index` only what changed since (a `link`
// extension with EWAH bitmaps of replaced and deleted entries). A commit then
// rewrites a few kilobytes instead of ~100 bytes per file in the repository;
// the shared file is rewritten once the changes pile up. git reads this format
// natively (core.splitIndex unset keeps it; tools without split-index support,
// such as libgit2, cannot read the server's own index).
import { readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isNotFound } from '../../lib/errno.ts';
import { tempSuffix } from '../../lib/temp-suffix.ts';
import { IndexDelta } from './index-delta.ts';
import { GitIndex, IndexFormatError, indexFileChunks, renameIndexEntry } from './index-file.ts';
import type { IndexEdit, ParsedIndex } from './index-file.ts';

/** The bytes to write as `.git/index`, and the index state they describe. */
export interface PreparedIndex {
  index: SplitIndex;
  chunks: Buffer[];
  /** Set when a new shared index file was written for this commit. */
  sharedFile?: string;
}

const SHARED_PREFIX = 'sharedindex.';
const SHARED_FILES_KEPT = 2;
// A plain index keeps up to this many changed entries beside its base instead
// of copying the whole base (~100 bytes per file) into a new one at each index
// write. Such a copy lives from one write to the next (up to half a second in
// a burst of commits), long enough for V8 to promote it, and a megabyte of
// old-generation garbage per write made V8 run a full collection every few
// hundred milliseconds during sequential creates. The base is rebuilt (one
// promoted copy) once per this many changes: at 256 the promoted
// ArrayBuffer memory grew twice as fast during creates as at 1024 (6 against
// 3 KB per commit). The price is paid by each write, which looks every kept
// change up in the base and hashes it as a slice of its own: up to a few
// milliseconds at 10,000 files, once per write (every 500 ms in a burst).
const PLAIN_CHANGES_KEPT = 1024;
// git refreshes a shared index's mtime whenever it reads it, so a file older
// than this is used by no git process that is still running.
const SHARED_FILE_MIN_AGE_MS = 30_000;

/** An immutable index: a shared base plus the entries changed since (path → entry, or null when removed). */
export class SplitIndex {
  private constructor(
    private readonly base: GitIndex,
    private readonly baseHash: string | undefined,
    private readonly delta: IndexDelta,
  ) {}

  /** Wraps a full index; the next prepare() writes it as a new shared index. */
  static fromFull(index: GitIndex): SplitIndex {
    return new SplitIndex(index, undefined, IndexDelta.EMPTY);
  }

  /**
   * Builds the state of an index read from disk, merging a split index with
   * its shared file. Throws IndexFormatError when that cannot be done.
   */
  static async fromDisk(gitdir: string, parsed: ParsedIndex): Promise<SplitIndex> {
    const { index: main, link } = parsed;
    if (link === undefined) return SplitIndex.fromFull(main);
    const sharedName = `${SHARED_PREFIX}${link.baseHash}`;
    let data: Buffer;
    try {
      data = await readFile(path.join(gitdir, sharedName));
    } catch (error) {
      if (isNotFound(error)) throw new IndexFormatError(`its shared part ${sharedName} is missing`);
      throw error;
    }
    let shared: ParsedIndex;
    try {
      shared = GitIndex.parse(data);
    } catch (error) {
      throw new IndexFormatError(`its shared part ${sharedName} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (shared.link !== undefined || data.toString('hex', data.length - 20) !== link.baseHash) throw new IndexFormatError(`its shared part ${sharedName} does not match`);
    const base = shared.index;
    const replaced = decodeEwah(link.replaceBitmap);
    if (replaced.length > main.size || replaced.some((pos) => pos >= base.size)) throw new IndexFormatError('its split-index link is damaged');
    const edits = new Map<string, Buffer | null>();
    replaced.forEach((pos, i) => edits.set(base.pathAt(pos), renameIndexEntry(main.entryBytes(i), base.pathAt(pos))));
    for (const pos of decodeEwah(link.deleteBitmap)) {
      if (pos < base.size && !edits.has(base.pathAt(pos))) edits.set(base.pathAt(pos), null);
    }
    for (let i = replaced.length; i < main.size; i += 1) {
      // Several added stages of one path (a conflict) cannot be expressed as one edit.
      if (edits.get(main.pathAt(i))) throw new IndexFormatError('it holds a merge conflict in a form the server cannot rewrite');
      edits.set(main.pathAt(i), main.entryBytes(i));
    }
    return SplitIndex.fromFull(base.edit(toEdits(edits)));
  }

  /** The blob id staged (stage 0) for `path`, or undefined when the index has none. */
  stagedOid(path: string): string | undefined {
    const edited = this.delta.get(path);
    if (edited !== undefined) return edited === null ? undefined : edited.toString('hex', 40, 60);
    const [from, to] = this.base.rangeOf(path);
    return to - from === 1 && this.base.stageAt(from) === 0 ? this.base.oidAt(from) : undefined;
  }

  /** Whether `path` is in a merge conflict (entries at stages 1–3). */
  isUnmerged(path: string): boolean {
    if (this.delta.has(path)) return false;
    const [from, to] = this.base.rangeOf(path);
    return to > from && this.base.stageAt(from) !== 0;
  }

  /** Records edits (one per path) and returns the new state; this one stays as it was. */
  edit(edits: IndexEdit[]): SplitIndex {
    return new SplitIndex(this.base, this.baseHash, this.delta.with(edits));
  }

  /**
   * Returns the bytes of `.git/index` for this state. When the base is not on
   * disk yet or the changes outgrew it, first writes a new shared index (with
   * a temp file and a rename, as git does) and rebases on it. With `split`
   * false, returns a plain full index instead.
   */
  async prepare(gitdir: string, split = true): Promise<PreparedIndex> {
    if (!split) {
      // A plain index for tools that cannot read split indexes (libgit2): O(entries) per write.
      // The bytes are slices of the base and the changed entries; the base is
      // rebuilt only once the changes pile up (see PLAIN_CHANGES_KEPT).
      if (this.delta.size <= PLAIN_CHANGES_KEPT) return { index: this, chunks: this.base.editedChunks(toEdits(this.delta.entries())) };
      const full = this.base.edit(toEdits(this.delta.entries()));
      return { index: SplitIndex.fromFull(full), chunks: full.toChunks() };
    }
    if (this.baseHash !== undefined && this.delta.size <= reshareThreshold(this.base.size)) {
      return { index: this, chunks: this.encode() };
    }
    const merged = this.base.edit(toEdits(this.delta.entries()));
    const chunks = merged.toChunks();
    const hash = chunks[chunks.length - 1].toString('hex');
    const sharedFile = path.join(gitdir, `${SHARED_PREFIX}${hash}`);
    const temp = path.join(gitdir, `sharedindex_${tempSuffix()}`);
    await writeFile(temp, Buffer.concat(chunks), { flag: 'wx', mode: 0o644 });
    await rename(temp, sharedFile);
    const index = new SplitIndex(merged, hash, IndexDelta.EMPTY);
    return { index, chunks: index.encode(), sharedFile };
  }

  /**
   * Deletes shared index files (and temp files of interrupted writes) other
   * than `current`, keeping the newest few and any a git process read lately:
   * `git status` may read an older `.git/index` and write it back later.
   */
  static async prune(gitdir: string, current: string, now = Date.now()): Promise<void> {
    const names = (await readdir(gitdir)).filter((name) => /^sharedindex[._]/.test(name) && path.join(gitdir, name) !== current);
    const aged = await Promise.all(
      names.map(async (name) => ({ file: path.join(gitdir, name), time: (await stat(path.join(gitdir, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    aged.sort((a, b) => b.time - a.time);
    const stale = aged.slice(SHARED_FILES_KEPT).filter(({ time }) => now - time > SHARED_FILE_MIN_AGE_MS);
    await Promise.all(stale.map(({ file }) => unlink(file).catch(() => undefined)));
  }

  private encode(): Buffer[] {
    const replacements: { pos: number; entry: Buffer }[] = [];
    const deleted: number[] = [];
    const added: { key: Buffer; entry: Buffer }[] = [];
    for (const [file, entry] of this.delta.entries()) {
      const [from, to] = this.base.rangeOf(file);
      if (entry !== null && to - from === 1 && this.base.stageAt(from) === 0) {
        // Replacing entries carry no path: git takes it from the shared entry.
        replacements.push({ pos: from, entry: renameIndexEntry(entry, '') });
        continue;
      }
      for (let pos = from; pos < to; pos += 1) deleted.push(pos);
      if (entry !== null) added.push({ key: Buffer.from(file, 'utf8'), entry });
    }
    replacements.sort((a, b) => a.pos - b.pos);
    deleted.sort((a, b) => a - b);
    added.sort((a, b) => Buffer.compare(a.key, b.key));
    const link = Buffer.concat([Buffer.from(this.baseHash ?? '', 'hex'), encodeEwah(deleted), encodeEwah(replacements.map(({ pos }) => pos))]);
    const header = Buffer.alloc(8);
    header.write('link', 0, 'latin1');
    header.writeUInt32BE(link.length, 4);
    const entries = [...replacements.map(({ entry }) => entry), ...added.map(({ entry }) => entry)];
    return indexFileChunks(2, entries.length, [...entries, header, link]);
  }
}

// Rewriting the shared file costs ~100 bytes per entry and every commit
// rewrites the delta, so the shared file is renewed after about √(2n) changes.
function reshareThreshold(entries: number): number {
  return Math.max(64, Math.ceil(Math.sqrt(2 * entries)));
}

function toEdits(delta: ReadonlyMap<string, Buffer | null>): IndexEdit[] {
  return [...delta].map(([file, entry]) => ({ path: file, entry }));
}

/**
 * Encodes sorted bit positions as git's EWAH bitmap: bit count, word count,
 * 64-bit words (a run-length word, then its literal words), and the position
 * of the last run-length word.
 */
export function encodeEwah(positions: number[]): Buffer {
  const words = new Map<number, bigint>();
  for (const pos of positions) words.set(Math.floor(pos / 64), (words.get(Math.floor(pos / 64)) ?? 0n) | (1n << BigInt(pos % 64)));
  const indexes = [...words.keys()].sort((a, b) => a - b);
  const out: bigint[] = indexes.length === 0 ? [0n] : [];
  let lastMarker = 0;
  let nextWord = 0;
  for (let i = 0; i < indexes.length; ) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j] + 1) j += 1;
    lastMarker = out.length;
    out.push((BigInt(indexes[i] - nextWord) << 1n) | (BigInt(j - i + 1) << 33n));
    for (let k = i; k <= j; k += 1) out.push(words.get(indexes[k]) ?? 0n);
    nextWord = indexes[j] + 1;
    i = j + 1;
  }
  const buffer = Buffer.alloc(12 + out.length * 8);
  buffer.writeUInt32BE(positions.length === 0 ? 0 : positions[positions.length - 1] + 1, 0);
  buffer.writeUInt32BE(out.length, 4);
  out.forEach((word, i) => buffer.writeBigUInt64BE(word, 8 + i * 8));
  buffer.writeUInt32BE(lastMarker, 8 + out.length * 8);
  return buffer;
}

/** Decodes an EWAH bitmap into its set bit positions, ascending. */
export function decodeEwah(data: Buffer): number[] {
  if (data.length < 12) return [];
  const count = data.readUInt32BE(4);
  const positions: number[] = [];
  let pos = 0;
  for (let i = 0; i < count; ) {
    const marker = data.readBigUInt64BE(8 + i * 8);
    i += 1;
    const run = Number((marker >> 1n) & 0xffffffffn) * 64;
    if (marker & 1n) for (let k = 0; k < run; k += 1) positions.push(pos + k);
    pos += run;
    for (let k = Number(marker >> 33n); k > 0 && i < count; k -= 1, i += 1) {
      const word = data.readBigUInt64BE(8 + i * 8);
      for (let bit = 0; bit < 64; bit += 1) if ((word >> BigInt(bit)) & 1n) positions.push(pos + bit);
      pos += 64;
    }
  }
  return positions;
}
