// The start-up snapshot of parsed entries (docs/performance.md, "The
// entry snapshot at start"): what parsing each entry's files gives, kept up
// to date while the server runs and keyed by everything that parse depends
// on, so a start reads and parses only the entries whose files or type
// changed since it was written. The file itself is storage/snapshot-file.ts's;
// the rules of what may be used, and when it is written, are here.
import { createHash } from 'node:crypto';
import type { Logger } from '../../lib/logger.ts';
import type { ListedFile } from '../../storage/content-repo.ts';
import type { SnapshotFile } from '../../storage/snapshot-file.ts';
import type { ContentType } from '../model/content-type.ts';
import type { StoredEntry } from '../model/entry.ts';
import { isPlainObject } from '../../lib/plain-object.ts';

// Raised whenever what a record holds, or what its key covers, changes shape.
const FORMAT = 1;

// Winter and summer days, then and now: the zone's name and offsets on them tell time zones apart.
const ZONE_PROBES = [Date.UTC(2000, 0, 1), Date.UTC(2000, 6, 1), Date.UTC(2030, 0, 1), Date.UTC(2030, 6, 1)];

/**
 * What the parse depends on besides the files, the type and the server's
 * code (which snapshot-file.ts fingerprints): the record format and the
 * time zone, in which Date.parse reads a date written without one (told by
 * Date's own words for it: asking Intl for its name costs a start 35 ms).
 */
export function entrySnapshotStamp(): string {
  const zone = ZONE_PROBES.map((time) => new Date(time).toString().replace(/^.*? GMT/, 'GMT'));
  return JSON.stringify({ format: FORMAT, zone });
}

/** One record of a snapshot: an entry as its parse gave it, and the key of that parse. */
export interface SnapshotRecord {
  key: string;
  entry: StoredEntry;
}

// An entry the index took (from the snapshot or a parse), with updated_at as
// the parse gave it: the index then sets it from the commit dates.
interface Kept {
  key: string;
  entry: StoredEntry;
  parsedUpdatedAt: string;
}

/**
 * The entries a start may take instead of parsing, and the parses the
 * index holds for the next snapshot, for as long as the server runs (start
 * loads and commits from outside alike). Every entry handed out is a fresh
 * object (each record is used once). A start without a snapshot file uses
 * an empty one, which still collects what the next start can use.
 */
export class EntrySnapshot {
  // By the path of the entry's root file: a newer parse of an entry replaces the older one.
  private readonly kept = new Map<string, Kept>();
  private readonly fingerprints = new WeakMap<ContentType, string>();
  private misses = 0;

  private constructor(private readonly stored: Map<string, StoredEntry>) {}

  static empty(): EntrySnapshot {
    return new EntrySnapshot(new Map());
  }

  /** The snapshot of records read from a file; undefined when any of them is not a record (the file is not used at all). */
  static fromRecords(records: readonly unknown[]): EntrySnapshot | undefined {
    const stored = new Map<string, StoredEntry>();
    for (const record of records) {
      if (!isRecord(record)) return undefined;
      stored.set(record.key, record.entry);
    }
    return new EntrySnapshot(stored);
  }

  /**
   * Drops the records no load took, once the start's loads are done, and
   * says whether the next snapshot differs from the one read: an entry was
   * parsed, or a record was left (a changed or removed file).
   */
  endLoading(): boolean {
    const isOutdated = this.misses > 0 || this.stored.size > 0;
    this.stored.clear();
    return isOutdated;
  }

  /**
   * The entry the files `files` of one entry (root file first, in listing
   * order) parse to under `type`, when the snapshot holds it: taken out, so
   * the caller owns the object. Undefined when it does not, or when a file
   * has no blob id (a working folder's).
   */
  take(type: ContentType, files: readonly ListedFile[]): StoredEntry | undefined {
    const key = this.keyOf(type, files);
    const entry = key === undefined ? undefined : this.stored.get(key);
    if (key === undefined || entry === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.stored.delete(key);
    return entry;
  }

  /**
   * Remembers `entry`, just taken or parsed without any problem from
   * `files`, for the next snapshot; call it before updated_at is changed,
   * or say what the parse gave (`parsedUpdatedAt`). Entries stay unchanged
   * in the index (a write makes a new object), so holding them costs nothing.
   */
  keep(type: ContentType, files: readonly ListedFile[], entry: StoredEntry, parsedUpdatedAt = entry.updated_at): void {
    const key = this.keyOf(type, files);
    if (key !== undefined) this.kept.set(files[0].path, { key, entry, parsedUpdatedAt: parsedUpdatedAt === entry.updated_at ? entry.updated_at : detachedCopy(parsedUpdatedAt) });
  }

  /** The record of the entry whose files are `files`, when a parse of these very files is kept; undefined otherwise. */
  recordOf(type: ContentType, files: readonly ListedFile[]): SnapshotRecord | undefined {
    const kept = this.kept.get(files[0].path);
    if (kept === undefined || kept.key !== this.keyOf(type, files)) return undefined;
    return { key: kept.key, entry: { ...kept.entry, updated_at: kept.parsedUpdatedAt } };
  }

  /** The record of a parse made for the snapshot only (not kept): an entry whose index object was built by a write. */
  recordOfParse(type: ContentType, files: readonly ListedFile[], entry: StoredEntry): SnapshotRecord | undefined {
    const key = this.keyOf(type, files);
    return key === undefined ? undefined : { key, entry };
  }

  /** Forgets the kept parses of entries whose root file is not in `listed` (root paths): removed since. */
  forgetAllBut(listed: ReadonlySet<string>): void {
    for (const path of this.kept.keys()) if (!listed.has(path)) this.kept.delete(path);
  }

  // The type's definition, the entry's path and each file's blob: what checkEntryFiles() reads.
  private keyOf(type: ContentType, files: readonly ListedFile[]): string | undefined {
    let key = this.fingerprintOf(type);
    for (const { path, oid } of files) {
      if (oid === undefined) return undefined;
      key += `\n${path} ${oid}`;
    }
    return key;
  }

  private fingerprintOf(type: ContentType): string {
    let fingerprint = this.fingerprints.get(type);
    if (fingerprint === undefined) {
      fingerprint = createHash('sha1').update(canonicalJson(type)).digest('base64url');
      this.fingerprints.set(type, fingerprint);
    }
    return fingerprint;
  }
}

/** Where snapshots are kept: storage/snapshot-file.ts. */
export type SnapshotStore = Pick<SnapshotFile, 'read' | 'write'>;

/** What the saver writes, and when: ContentIndex.snapshotRecords() and the repo's HEAD (services.ts). */
export interface SnapshotSources {
  /** The records of the next snapshot; undefined once `signal` aborted. */
  records(signal: AbortSignal): Promise<SnapshotRecord[] | undefined>;
  head(): Promise<string | undefined>;
  /** How many entries the index holds: a graceful close writes only a small snapshot. */
  entryCount(): number;
}

// How often the saver looks at HEAD. It writes once HEAD stood still for a
// whole look and differs from what the snapshot holds: 5–10 s after a start
// or after the last commit of a burst, past the start's own work and the
// burst's writes, whatever wrote them (the API, a push, a commit by hand).
const LOOK_EVERY_MS = 5_000;
// A graceful close writes a due snapshot only up to this many entries (~0.3
// s at 10,000 posts): the next start waits for the data lock the closing
// server holds. Larger ones are written by the looks alone.
const SAVED_AT_CLOSE_MAX_ENTRIES = 20_000;

/**
 * Keeps the snapshot file up to date with the index while the server runs,
 * in the background; a start that took every entry from the file it read
 * (`from.outdated` false) writes nothing until something changes. Failures
 * are logged, never thrown.
 */
export class EntrySnapshotSaver {
  private seen: string | undefined;
  private saved: string | undefined;
  private saving: Promise<void> | undefined;
  private stopSaving = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: SnapshotStore,
    private readonly sources: SnapshotSources,
    private readonly logger: Logger,
    from: { head: string | undefined; outdated: boolean },
    lookEveryMs = LOOK_EVERY_MS,
  ) {
    this.seen = from.head;
    this.saved = from.outdated ? undefined : from.head;
    this.timer = setInterval(() => void this.look(), lookEveryMs);
    this.timer.unref();
  }

  /** At a graceful close: stops looking, stops a write in progress at its next slice, and writes a due snapshot when it is small. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.stopSaving.abort();
    await this.saving;
    this.stopSaving = new AbortController();
    const head = await this.sources.head().catch(() => this.saved);
    if (head !== this.saved && this.sources.entryCount() <= SAVED_AT_CLOSE_MAX_ENTRIES) await this.save(head);
  }

  private async look(): Promise<void> {
    if (this.saving !== undefined) return;
    const head = await this.sources.head().catch(() => this.seen);
    if (head !== this.seen) this.seen = head;
    else if (head !== this.saved) await this.save(head);
  }

  private save(head: string | undefined): Promise<void> {
    this.saving ??= this.write(head)
      .catch((error: unknown) => this.logger.error('could not write the entry snapshot; the next start parses the entries it lacks', { error }))
      .finally(() => {
        this.saving = undefined;
      });
    return this.saving;
  }

  private async write(head: string | undefined): Promise<void> {
    const records = await this.sources.records(this.stopSaving.signal);
    if (records === undefined) return;
    const entries = await this.store.write(entrySnapshotStamp(), records);
    this.saved = head;
    this.logger.info('wrote the entry snapshot', { entries });
  }
}

/**
 * The snapshot the last start left, or an empty one when there is none or
 * it cannot be used (another build, damaged, foreign), which is logged and
 * costs only the parse it would have spared.
 */
export async function readEntrySnapshot(store: SnapshotStore, logger: Logger): Promise<EntrySnapshot> {
  const read = await store.read(entrySnapshotStamp());
  if ('unusable' in read) {
    if (read.unusable !== 'missing') logger.info('ignored the entry snapshot; this start parses every entry', { reason: read.unusable });
    return EntrySnapshot.empty();
  }
  const snapshot = EntrySnapshot.fromRecords(read.values);
  if (!snapshot) logger.info('ignored the entry snapshot; this start parses every entry', { reason: 'a line of it is no entry record' });
  return snapshot ?? EntrySnapshot.empty();
}

// A parse's strings are slices of its file's text, and V8 keeps the whole
// text alive for a slice: a date kept from a parse made only to be compared
// (an entry written through the API, ten thousand after a seed) held ~1.5 KB
// of markdown each, 15 MB at 10,000 posts. structuredClone makes a string of its own.
function detachedCopy(text: string): string {
  return structuredClone(text);
}

// JSON with every object's keys sorted: one text for one definition, however its keys were ordered.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).filter((key) => object[key] !== undefined).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`).join(',')}}`;
}

// The shape of a record, checked so that a hand-edited or foreign file cannot put a malformed entry in the index.
function isRecord(value: unknown): value is SnapshotRecord {
  if (!isPlainObject(value) || typeof value.key !== 'string' || !isPlainObject(value.entry)) return false;
  const { entry } = value;
  return (
    ['id', 'slug', 'type', 'status', 'title', 'created_at', 'updated_at'].every((key) => typeof entry[key] === 'string') &&
    (entry.published_at === null || typeof entry.published_at === 'string') &&
    isPlainObject(entry.data) &&
    isPlainObject(entry.translations)
  );
}
