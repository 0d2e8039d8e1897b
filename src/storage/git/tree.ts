// Git tree objects kept as their raw bytes plus an offset table, so that a
// folder of 10,000 entries is looked up by binary search, edited by splicing
// bytes and diffed by comparing bytes, never by decoding every entry.
import { lowerBound } from '../../lib/binary-search.ts';

/** The mode git writes for a folder entry. */
export const TREE_MODE = '40000';
/** The mode of a regular, non-executable file: the only file mode the server writes. */
export const FILE_MODE = '100644';
/** The mode of an executable file (a developer may commit one). */
export const EXECUTABLE_MODE = '100755';
/** The mode of a symbolic link, whose blob holds the link's target. */
export const LINK_MODE = '120000';

/** One decoded tree entry. */
export interface TreeEntry {
  name: string;
  mode: string;
  oid: string;
  isTree: boolean;
}

/** Sets (`entry`) or removes (`null`) the entry called `name` in one folder. */
export interface TreeEdit {
  name: string;
  entry: { mode: string; oid: string } | null;
}

/** One name whose entry differs between two trees of the same folder. */
export interface TreeChange {
  name: string;
  before?: TreeEntry;
  after?: TreeEntry;
}

const SLASH = 0x2f;

interface OffsetTable {
  starts: Uint32Array;
  nuls: Uint32Array;
  count: number;
}

/**
 * An immutable view of a tree object's body. Offsets are computed lazily on
 * first use. Edits return a new view; the old one stays valid.
 */
export class TreeView {
  static readonly EMPTY = new TreeView(Buffer.alloc(0));
  constructor(
    readonly body: Buffer,
    private table?: OffsetTable,
  ) {}

  /** Number of entries. */
  get size(): number {
    return this.offsets().count;
  }

  /** Decodes entry `i` (in git order). */
  entryAt(i: number): TreeEntry {
    const { starts, nuls } = this.offsets();
    const nameStart = this.nameStart(i);
    return {
      mode: this.body.toString('latin1', starts[i], nameStart - 1),
      name: this.body.toString('utf8', nameStart, nuls[i]),
      oid: this.body.toString('hex', nuls[i] + 1, nuls[i] + 21),
      isTree: this.isTree(i),
    };
  }

  /** Decodes every entry, in git order. */
  entries(): TreeEntry[] {
    return Array.from({ length: this.size }, (_, i) => this.entryAt(i));
  }

  /** The entry called `name` (file or folder), or undefined. */
  find(name: string): TreeEntry | undefined {
    const i = this.indexOfName(Buffer.from(name, 'utf8'));
    return i < 0 ? undefined : this.entryAt(i);
  }

  /** Applies edits (at most one per name) and returns the new view. */
  edit(edits: TreeEdit[]): TreeView {
    const { removals, inserts } = this.planEdits(edits);
    // The new offset table is carried over (shifted) rather than rescanned:
    // for a 10,000-entry folder that is most of the cost of an edit.
    const old = this.offsets();
    const count = old.count - removals.length + inserts.length;
    const table: OffsetTable = { starts: new Uint32Array(count), nuls: new Uint32Array(count), count };
    const chunks: Buffer[] = [];
    let written = 0;
    let bytes = 0;
    const copy = (from: number, to: number): void => {
      shiftInto(table, written, old, from, to, bytes - old.starts[from]);
      written += to - from;
      const chunk = this.body.subarray(old.starts[from], old.nuls[to - 1] + 21);
      chunks.push(chunk);
      bytes += chunk.length;
    };
    let cursor = 0;
    let removal = 0;
    const copyUpTo = (limit: number): void => {
      while (cursor < limit) {
        const next = removal < removals.length && removals[removal] < limit ? removals[removal] : limit;
        if (next > cursor) copy(cursor, next);
        cursor = next;
        if (next < limit) {
          cursor += 1;
          removal += 1;
        }
      }
    };
    for (const insert of inserts) {
      copyUpTo(insert.pos);
      table.starts[written] = bytes;
      table.nuls[written] = bytes + insert.bytes.length - 21;
      written += 1;
      chunks.push(insert.bytes);
      bytes += insert.bytes.length;
    }
    copyUpTo(old.count);
    return new TreeView(Buffer.concat(chunks, bytes), table);
  }

  // Which entries go (positions, ascending) and which come in (encoded, in the
  // order they are spliced in: by position, then by git's sort key).
  private planEdits(edits: TreeEdit[]): { removals: number[]; inserts: { pos: number; key: Buffer; bytes: Buffer }[] } {
    const removals: number[] = [];
    const inserts: { pos: number; key: Buffer; bytes: Buffer }[] = [];
    for (const { name, entry } of edits) {
      const nameBytes = Buffer.from(name, 'utf8');
      const existing = this.indexOfName(nameBytes);
      if (existing >= 0) removals.push(existing);
      if (entry === null) continue;
      const key = entry.mode === TREE_MODE ? Buffer.concat([nameBytes, Buffer.from([SLASH])]) : nameBytes;
      const bytes = Buffer.concat([Buffer.from(`${entry.mode} `, 'latin1'), nameBytes, Buffer.from([0]), Buffer.from(entry.oid, 'hex')]);
      inserts.push({ pos: this.lowerBound(key), key, bytes });
    }
    removals.sort((a, b) => a - b);
    inserts.sort((a, b) => a.pos - b.pos || Buffer.compare(a.key, b.key));
    return { removals, inserts };
  }

  /** Byte offset where entry `i` starts. */
  start(i: number): number {
    return this.offsets().starts[i];
  }

  /** Byte offset just past entry `i`. */
  end(i: number): number {
    return this.offsets().nuls[i] + 21;
  }

  /** Index of the first entry whose git sort key is >= `key`. */
  lowerBound(key: Buffer): number {
    return lowerBound(this.size, (i) => this.compareKey(i, key));
  }

  private indexOfName(nameBytes: Buffer): number {
    const asFile = this.lowerBound(nameBytes);
    if (asFile < this.size && this.compareKey(asFile, nameBytes) === 0) return asFile;
    const folderKey = Buffer.concat([nameBytes, Buffer.from([SLASH])]);
    const asFolder = this.lowerBound(folderKey);
    return asFolder < this.size && this.compareKey(asFolder, folderKey) === 0 ? asFolder : -1;
  }

  // Git sorts entries by name bytes, comparing a folder as if its name ended in "/".
  private compareKey(i: number, key: Buffer): number {
    const nameStart = this.nameStart(i);
    const nameLength = this.offsets().nuls[i] - nameStart;
    const common = Math.min(nameLength, key.length);
    const order = this.body.compare(key, 0, common, nameStart, nameStart + common);
    if (order !== 0) return order;
    if (nameLength > common) return 1;
    const entryLength = nameLength + (this.isTree(i) ? 1 : 0);
    if (entryLength > nameLength) {
      if (key.length === common) return 1;
      if (key[common] !== SLASH) return SLASH - key[common];
      return key.length === common + 1 ? 0 : -1;
    }
    return key.length === common ? 0 : -1;
  }

  private isTree(i: number): boolean {
    const first = this.body[this.start(i)];
    return first === 0x34 || (first === 0x30 && this.body[this.start(i) + 1] === 0x34);
  }

  private nameStart(i: number): number {
    const start = this.start(i);
    if (this.body[start + 5] === 0x20) return start + 6;
    if (this.body[start + 6] === 0x20) return start + 7;
    return this.body.indexOf(0x20, start) + 1;
  }

  private offsets(): OffsetTable {
    if (this.table !== undefined) return this.table;
    const body = this.body;
    let starts = new Uint32Array(Math.max(8, Math.ceil(body.length / 32)));
    let nuls = new Uint32Array(starts.length);
    let count = 0;
    for (let p = 0; p < body.length; count += 1) {
      const nul = body.indexOf(0, p);
      if (nul < 0 || nul + 21 > body.length) throw new Error('A git tree object is corrupt.');
      if (count === starts.length) {
        starts = grow(starts);
        nuls = grow(nuls);
      }
      starts[count] = p;
      nuls[count] = nul;
      p = nul + 21;
    }
    this.table = { starts, nuls, count };
    return this.table;
  }
}

// Copies offsets [from, to) of `source` to `target` at `at`, shifted by `shift` bytes.
function shiftInto(target: OffsetTable, at: number, source: OffsetTable, from: number, to: number, shift: number): void {
  const starts = target.starts;
  const nuls = target.nuls;
  const oldStarts = source.starts;
  const oldNuls = source.nuls;
  for (let i = from, j = at; i < to; i += 1, j += 1) {
    starts[j] = oldStarts[i] + shift;
    nuls[j] = oldNuls[i] + shift;
  }
}

function grow(array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * Lists the names whose entries differ between two versions of one folder.
 * Identical leading and trailing bytes are skipped natively, so the cost
 * tracks the size of the change, plus one offset scan per tree.
 */
export function diffTreeViews(before: TreeView, after: TreeView): TreeChange[] {
  const prefixBytes = commonPrefixLength(before.body, after.body);
  const head = countEntriesEndingBy(before, prefixBytes);
  const room = Math.min(before.body.length, after.body.length) - (head < before.size ? before.start(head) : before.body.length);
  const suffixBytes = commonSuffixLength(before.body, after.body, Math.max(0, room));
  const tails = alignedTail(before, after, head, suffixBytes);
  const old = new Map<string, TreeEntry>();
  for (let i = head; i < before.size - tails; i += 1) {
    const entry = before.entryAt(i);
    old.set(entry.name, entry);
  }
  const changes: TreeChange[] = [];
  for (let i = head; i < after.size - tails; i += 1) {
    const entry = after.entryAt(i);
    const previous = old.get(entry.name);
    old.delete(entry.name);
    if (previous === undefined) changes.push({ name: entry.name, after: entry });
    else if (previous.oid !== entry.oid || previous.mode !== entry.mode) changes.push({ name: entry.name, before: previous, after: entry });
  }
  for (const entry of old.values()) changes.push({ name: entry.name, before: entry });
  return changes;
}

function countEntriesEndingBy(view: TreeView, bytes: number): number {
  let low = 0;
  let high = view.size;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (view.end(mid) <= bytes) low = mid + 1;
    else high = mid;
  }
  return low;
}

// Trailing entries are shared only if both trees have an entry boundary at
// the same distance from the end inside the identical suffix.
function alignedTail(before: TreeView, after: TreeView, head: number, suffixBytes: number): number {
  const shift = after.body.length - before.body.length;
  let low = head;
  let high = before.size;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before.start(mid) < before.body.length - suffixBytes) low = mid + 1;
    else high = mid;
  }
  for (let i = low; i < before.size; i += 1) {
    const j = after.size - (before.size - i);
    if (j >= head && after.start(j) === before.start(i) + shift) return before.size - i;
  }
  return 0;
}

const BLOCK = 4096;

function commonPrefixLength(a: Buffer, b: Buffer): number {
  const limit = Math.min(a.length, b.length);
  let p = 0;
  while (p + BLOCK <= limit && a.compare(b, p, p + BLOCK, p, p + BLOCK) === 0) p += BLOCK;
  while (p < limit && a[p] === b[p]) p += 1;
  return p;
}

function commonSuffixLength(a: Buffer, b: Buffer, limit: number): number {
  let q = 0;
  while (q + BLOCK <= limit && a.compare(b, b.length - q - BLOCK, b.length - q, a.length - q - BLOCK, a.length - q) === 0) q += BLOCK;
  while (q < limit && a[a.length - q - 1] === b[b.length - q - 1]) q += 1;
  return q;
}
