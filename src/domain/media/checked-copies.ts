// The copy of a media original that a node serves, with the hash its
// validators name (docs/media.md "Validators"): the record's, or the copy's
// own when the record has none; on a replica, the copy fetched from the
// primary on first request and kept only while it is the bytes the record
// names. What belongs here: opening, checking and fetching copies. Not here:
// who may read a file, thumbnails and variants (media-service.ts).
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { notFound, type AppError } from '../../errors/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import { sha256PassThrough } from '../../lib/sha256.ts';
import type { MediaStore, OpenedMediaFile } from '../../storage/media-store.ts';
import type { ContentHashes } from './content-hashes.ts';
import type { ImageVariants } from './image-variants.ts';
import type { MediaLibrary } from './media-library.ts';
import type { MediaRecord } from './media-record.ts';

/**
 * Where a replica gets a media binary it does not have yet: its primary.
 * Resolves with the bytes, or undefined when the primary has no such file.
 */
export type MissingFileSource = (workspace: string, filename: string) => Promise<Readable | undefined>;

/** What CheckedCopies opens, hashes and fetches with (MediaService builds it from its own deps). */
export interface CheckedCopiesDeps {
  store: MediaStore;
  library: Pick<MediaLibrary, 'find'>;
  hashes: ContentHashes;
  variants: Pick<ImageVariants, 'dropFile'>;
  logger: Logger;
  /** On a replica: originals missing or stale on disk are fetched from here. */
  source?: MissingFileSource;
}

/** The copies of originals this node serves, opened with the hash that names them. */
export class CheckedCopies {
  private readonly fetching = new Map<string, Promise<void>>();
  // `{ws}/{filename}@{sha256}` of files whose primary copy is not the bytes its record names: fetched once, not on every request.
  private readonly mismatched = new Set<string>();

  constructor(private readonly deps: CheckedCopiesDeps) {}

  /**
   * Opens the copy of a known file: the hash its validators name, with the
   * open file when it had to be opened for it. A record without sha256
   * hashes the copy, and a replica keeps what it fetched only while it is
   * the bytes the record names. A file deleted and uploaded again under its
   * name on the primary has a new sha256 (the replica may take in the delete
   * and the upload as one run of commits, so its copy stayed): the copy is
   * fetched again and its thumbnail and variants dropped. The copy is opened
   * once and what was hashed is what is served (the open file, or a small
   * copy's bytes read once: ContentHashes.ofServed). A record without sha256
   * keeps whatever copy there is. Throws not_found when there is no copy.
   */
  async open(workspace: string, record: MediaRecord): Promise<{ sha256: string; file?: OpenedMediaFile }> {
    const source = this.deps.source;
    const { filename } = record;
    if (record.sha256 !== null && !source) return { sha256: record.sha256 };
    let file = await this.deps.store.open('file', workspace, filename);
    try {
      let copy = file && (await this.hashCopy(workspace, record, file));
      file = copy?.file;
      if (source && !(copy && (record.sha256 === null || copy.sha256 === record.sha256))) {
        await file?.close();
        file = undefined;
        await this.fetchOnce(source, workspace, record);
        file = await this.deps.store.open('file', workspace, filename);
        copy = file && (await this.hashCopy(workspace, record, file));
        file = copy?.file;
      }
      if (!copy) throw missingOnDisk(filename);
      return { sha256: record.sha256 ?? copy.sha256, file: copy.file };
    } catch (error) {
      await file?.close();
      throw error;
    }
  }

  // The copy's hash where the record's is not enough (a record without one,
  // a replica's check), else the record's: a primary copy found not to match
  // its record is served as it is (fetchOriginal logged it).
  private async hashCopy(workspace: string, record: MediaRecord, file: OpenedMediaFile): Promise<{ sha256: string; file: OpenedMediaFile }> {
    if (record.sha256 !== null && this.mismatched.has(`${workspace}/${record.filename}@${record.sha256}`)) return { sha256: record.sha256, file };
    return this.deps.hashes.ofServed(workspace, record.filename, file);
  }

  private async fetchOnce(source: MissingFileSource, workspace: string, record: MediaRecord): Promise<void> {
    const key = `${workspace}/${record.filename}`;
    const running = this.fetching.get(key) ?? this.fetchOriginal(source, workspace, record).finally(() => this.fetching.delete(key));
    this.fetching.set(key, running);
    await running;
  }

  private async fetchOriginal(source: MissingFileSource, workspace: string, record: MediaRecord): Promise<void> {
    const { filename } = record;
    const bytes = await source(workspace, filename);
    if (!bytes) return;
    const staged = this.deps.store.createStaged(Number.MAX_SAFE_INTEGER);
    // Hashed as it arrives: the copy is read once, to store it.
    const hashing = sha256PassThrough();
    try {
      await pipeline(bytes, hashing.stream, staged.stream);
      await this.deps.store.replaceWithStaged(staged.id, workspace, filename);
    } catch (error) {
      await this.deps.store.discardStaged(staged.id);
      throw error;
    }
    const sha256 = hashing.digest();
    await this.deps.hashes.remember(workspace, filename, sha256);
    // Made from the copy this one replaced, if there was one.
    await this.deps.store.remove('thumb', workspace, filename);
    await this.deps.variants.dropFile(workspace, filename);
    // Its record went away while the copy arrived: the removal (media-removals.ts) may have run already, and nothing else would delete it.
    if (!this.deps.library.find(workspace, filename)) {
      await this.deps.store.remove('file', workspace, filename);
      return;
    }
    if (record.sha256 !== null && sha256 !== record.sha256) {
      this.mismatched.add(`${workspace}/${filename}@${record.sha256}`);
      this.deps.logger.error("the primary's copy of a media file is not the bytes its record names; serving it anyway", { workspace, filename });
    }
  }
}

/** The not_found of a known file whose original is not on disk. */
export function missingOnDisk(filename: string): AppError {
  return notFound(`The media file "${filename}" is missing on disk.`);
}
