// The size of a media file whose record does not say it (written by hand
// without `size`): shown from the stored original, on every path that shows
// a record (lists, items, the dashboard's bytes), and remembered in the
// library until the record is read again. The record in the repo is left as
// it is; the server writes the size only when it rewrites the record
// (media-writer.ts). An original that is missing (a replica before its first
// request for the file) leaves the size 0 and is looked for again next time.
import type { MediaLibrary } from './media-library.ts';
import type { MediaRecord } from './media-record.ts';

/** The size in bytes of a stored original, undefined when it is missing (MediaStore.sizeOf of kind `file`). */
export type OriginalSize = (workspace: string, filename: string) => Promise<number | undefined>;

/** Records as they are shown: with the stored original's size where the record names none. */
export class StoredSizes {
  constructor(
    private readonly library: Pick<MediaLibrary, 'all' | 'rememberSize'>,
    private readonly sizeOf: OriginalSize,
  ) {}

  /** `records` of `workspace`, each with a size where its original is on disk. Rejects with what reading the disk throws. */
  async of(workspace: string, records: readonly MediaRecord[]): Promise<MediaRecord[]> {
    return Promise.all(records.map(async (record) => {
      if (record.size > 0) return record;
      const size = await this.sizeOf(workspace, record.filename);
      return size === undefined ? record : this.library.rememberSize(workspace, record, size);
    }));
  }

  /** Every record of a workspace (MediaLibrary.all()) with its size (the dashboard's bytes). */
  all(workspace: string): Promise<MediaRecord[]> {
    return this.of(workspace, this.library.all(workspace));
  }
}
