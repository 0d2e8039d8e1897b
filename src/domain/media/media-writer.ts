// Every media write ends here: one set of metadata changes becomes exactly one
// commit through the content transaction, which then updates the in-memory
// library and tells the events. Binaries are moved by the callers around this
// step (see media-service.ts).
import { nameList } from '../../lib/name-list.ts';
import type { CommitInfo, FileChange } from '../../storage/content-repo.ts';
import type { ChangeAuthor, ContentTransaction } from '../content/content-writer.ts';
import type { EventType } from '../model/events.ts';
import type { MediaLibrary } from './media-library.ts';
import { categoriesPath, categoriesToYaml, mediaCopyPath, mediaRecordPath, recordToYaml, type MediaRecord } from './media-record.ts';

/** What one media write changes, committed together. */
export interface MediaChangeSet {
  /** The commit subject, e.g. `Upload media photo.jpg`. */
  message: string;
  /** Records to write (new or changed). */
  put?: MediaRecord[];
  /** File names whose records are deleted. */
  remove?: string[];
  /** The new stored category list, when it changes. */
  categories?: string[];
  /** Further files of the same commit (entries whose media references change). */
  extra?: FileChange[];
  /** Further in-memory updates of the same commit (the index of those entries). */
  applyExtra?: () => void;
  /** Events to emit after the commit; media events carry `{ filename }`. */
  events: { type: EventType; data: Record<string, string> }[];
}

/** Reads a stored binary for its copy in the repo (MediaStore.read of kind `file`). */
export type BinaryReader = (workspace: string, filename: string) => Promise<Uint8Array | undefined>;

/** What a MediaWriter reads of the stored binaries. */
export interface MediaWriterFiles {
  /** The size in bytes of a stored original, undefined when it is missing: for records that do not say it. */
  sizeOf: (workspace: string, filename: string) => Promise<number | undefined>;
  /** With it, public files are also kept in the repo at mediaCopyPath() (CMS_MEDIA_IN_REPO). */
  copies?: BinaryReader;
}

/** Commits media change sets through a content transaction. */
export class MediaWriter {
  constructor(
    private readonly library: MediaLibrary,
    private readonly files: MediaWriterFiles,
  ) {}

  /**
   * Writes the change set as one commit authored by the principal (or the
   * system), then updates the library and tells the events; returns the
   * commit. Throws what the commit throws (conflict, invalid_request);
   * nothing is changed in memory then.
   */
  async apply(tx: ContentTransaction, principal: ChangeAuthor, workspace: string, given: MediaChangeSet): Promise<CommitInfo> {
    const set = { ...given, put: await this.withSizes(workspace, given.put ?? []) };
    const changes: FileChange[] = [];
    for (const filename of set.remove ?? []) changes.push({ path: mediaRecordPath(workspace, filename), content: null });
    for (const record of set.put ?? []) changes.push({ path: mediaRecordPath(workspace, record.filename), content: recordToYaml(record) });
    if (set.categories) changes.push({ path: categoriesPath(workspace), content: categoriesToYaml(set.categories) });
    changes.push(...(await this.copyChanges(workspace, set)));
    changes.push(...(set.extra ?? []));
    const files = [...new Set([...(set.remove ?? []), ...(set.put ?? []).map((record) => record.filename)])];
    return tx.commit({
      by: principal,
      message: set.message,
      changes: dedupe(changes),
      trailers: { Workspace: workspace, Media: nameList(files, 3) },
      apply: () => {
        this.library.remove(workspace, set.remove ?? []);
        this.library.put(workspace, set.put ?? []);
        if (set.categories) this.library.setCategories(workspace, set.categories);
        set.applyExtra?.();
      },
      events: set.events.map((event) => ({ type: event.type, workspace, data: event.data })),
    });
  }

  // A record written by hand may leave `size` out (read as 0; no upload is
  // empty): rewritten, it takes the stored original's size, or keeps leaving
  // it out (recordToYaml) while the original is missing.
  private async withSizes(workspace: string, records: MediaRecord[]): Promise<MediaRecord[]> {
    return Promise.all(records.map(async (record) => (record.size > 0 ? record : { ...record, size: (await this.files.sizeOf(workspace, record.filename)) ?? 0 })));
  }

  // A file's copy is in the repo while it is public: added with a new public
  // name, removed with the name or when the file is made private.
  private async copyChanges(workspace: string, set: MediaChangeSet): Promise<FileChange[]> {
    const { copies } = this.files;
    if (!copies) return [];
    const changes: FileChange[] = (set.remove ?? []).map((filename) => ({ path: mediaCopyPath(workspace, filename), content: null }));
    for (const record of set.put ?? []) {
      const path = mediaCopyPath(workspace, record.filename);
      const before = this.library.find(workspace, record.filename);
      const wasCopied = before?.visibility === 'public' && !(set.remove ?? []).includes(record.filename);
      if (record.visibility !== 'public') changes.push({ path, content: null });
      else if (!wasCopied) {
        const bytes = await copies(workspace, record.filename);
        if (bytes) changes.push({ path, content: bytes });
      }
    }
    return changes;
  }
}

// A later change to the same path wins (a rename that puts back a removed name).
function dedupe(changes: FileChange[]): FileChange[] {
  return [...new Map(changes.map((change) => [change.path, change])).values()];
}
