// The media library's rules (SPEC "Media"): who may list, upload, change,
// rename and delete files and categories, and the one commit each write is.
// What belongs here: authorization, validation and ordering of writes. Not
// here: sniffing and image work (media-types.ts, images.ts), bytes on disk
// (storage/media-store.ts), opening and checking the copy a file is served
// from (checked-copies.ts), HTTP (api/media/).
import { AppError, notFound } from '../../errors/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import { nameList } from '../../lib/name-list.ts';
import type { MediaFileKind, MediaStore, OpenedMediaFile, StagedUpload } from '../../storage/media-store.ts';
import { authorize, can } from '../auth/authorize.ts';
import { actorIdOf, type Principal } from '../auth/principal.ts';
import type { ContentIndex } from '../content/content-index.ts';
import type { ContentWriter } from '../content/content-writer.ts';
import { entryRequest } from '../auth/content-access.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import { parseCategory } from './categories.ts';
import { CheckedCopies, missingOnDisk, type MissingFileSource } from './checked-copies.ts';
import type { ContentHashes } from './content-hashes.ts';
import {
  assertCategoryExists, listWith, newCategoryPath, planCategoryDelete, planCategoryRename, renamedCategoryPath, type CategoryState,
} from './category-plans.ts';
import { isValidMediaFilename } from './file-names.ts';
import { isTransformRequested, normalizeTransform, type ImageTransformRequest } from './image-transforms.ts';
import type { ImageVariants, VariantStats } from './image-variants.ts';
import { makeThumbnail } from './images.ts';
import type { MediaLibrary } from './media-library.ts';
import { mediaMatcher, type MediaQuery } from './media-query.ts';
import { hasThumbnail, type MediaRecord, type MediaVisibility } from './media-record.ts';
import { entriesUsingMedia } from './media-references.ts';
import { renameMedia } from './media-rename.ts';
import { isRasterImage, SVG_TYPE, type AllowedTypes } from './media-types.ts';
import { placeUploads, prepareUpload, type PreparedUpload, type UploadedFile } from './media-uploads.ts';
import { derivedValidators, originalValidators, thumbnailName, variantSourceVersion, type MediaValidators } from './media-validators.ts';
import { MediaWriter, type MediaChangeSet } from './media-writer.ts';
import type { StoredSizes } from './stored-sizes.ts';

export type { MediaFileKind } from '../../storage/media-store.ts';

/** What MediaService is built from (services.ts). */
export interface MediaServiceDeps {
  writer: ContentWriter;
  content: ContentIndex;
  workspaces: WorkspaceService;
  library: MediaLibrary;
  store: MediaStore;
  /** This node's hashes of its media copies, shared with what acts on records removed by commits (media-removals.ts). */
  hashes: ContentHashes;
  /** The sizes of records that name none, from their stored originals; shared with the dashboard. */
  sizes: StoredSizes;
  /** Transformed images (`?w=&h=&fit=&format=&q=` on file URLs). */
  variants: ImageVariants;
  allowedTypes: AllowedTypes;
  logger: Logger;
  /** On a replica: binaries missing on disk are fetched from here on first request and kept. */
  missingFiles?: MissingFileSource;
  /** Keep a copy of each public file in the content repo (docs/static-sites.md). */
  copiesInRepo?: boolean;
  now?: () => number;
}

/** A page of the media list with SPEC's list meta plus `categories`. */
export interface MediaList {
  items: readonly MediaRecord[];
  meta: { total: number; limit: number; offset: number; categories: string[] };
}

/** An entry that uses a media file. */
export interface MediaUse {
  type: string;
  id: string;
  slug: string;
  title: string;
}

/** A file ready to serve, with the record that decides its headers. */
export interface ServedFile {
  record: MediaRecord;
  file: OpenedMediaFile;
  /** The MIME type of what is served: a transformation's output format, else the record's. */
  mime: string;
  /** ETag and Last-Modified, from the record (the same on every node). */
  validators: MediaValidators;
}

/** Body of the meta route: empty string or null clears a value, a missing key keeps it. */
export interface MediaMetaInput {
  alt?: string | null;
  title?: string | null;
}

/** The media library of every workspace. */
export class MediaService {
  private readonly mediaWriter: MediaWriter;
  private readonly now: () => number;
  private readonly copies: CheckedCopies;
  constructor(private readonly deps: MediaServiceDeps) {
    this.now = deps.now ?? Date.now;
    const { store } = deps;
    this.mediaWriter = new MediaWriter(deps.library, {
      sizeOf: (workspace, filename) => store.sizeOf('file', workspace, filename),
      copies: deps.copiesInRepo ? (workspace, filename) => store.read('file', workspace, filename) : undefined,
    });
    this.copies = new CheckedCopies({ store, library: deps.library, hashes: deps.hashes, variants: deps.variants, logger: deps.logger, source: deps.missingFiles });
  }

  /**
   * Lists files matching `q` and `category`, newest first, paged. Anonymous
   * callers see public files; `media.read` on `media:*` adds private ones.
   * Throws not_found (workspace).
   */
  /**
   * The active entries that use a file in a media field (what a rename
   * rewrites, what a delete leaves pointing nowhere): those the principal may
   * read, as type, id, slug and title. Needs `media.read` on the file. Throws
   * not_found, unauthorized, forbidden.
   */
  usedBy(principal: Principal, workspace: string, filename: string): MediaUse[] {
    this.authorizeOn(principal, workspace, 'media.read', `media:${filename}`);
    this.getRecords(workspace, [filename], false);
    return entriesUsingMedia(this.deps.content, workspace, filename)
      .filter((entry) => can(principal, entryRequest(workspace, entry, 'content.read')))
      .map((entry) => ({ type: entry.type, id: entry.id, slug: entry.slug, title: entry.title }));
  }

  async list(principal: Principal, workspace: string, query: MediaQuery): Promise<MediaList> {
    this.deps.workspaces.get(workspace);
    const withPrivate = can(principal, request(workspace, 'media.read', 'media:*'));
    const matches = mediaMatcher(query);
    const matching = this.deps.library.all(workspace).filter((record) => (withPrivate || record.visibility === 'public') && matches(record));
    const items = await this.deps.sizes.of(workspace, matching.slice(query.offset, query.limit === undefined ? undefined : query.offset + query.limit));
    return { items, meta: { total: matching.length, limit: query.limit ?? matching.length, offset: query.offset, categories: this.categories(workspace) } };
  }

  /** Every category path of a workspace, sorted (meta.categories). */
  categories(workspace: string): string[] {
    return this.deps.library.categories(workspace);
  }

  /**
   * Opens a file (or its thumbnail) for serving. Private files need
   * `media.read` on `media:{filename}`. A thumbnail missing from the cache is
   * made again; files without one serve the original. With a
   * transformation (either URL), a raster image is served transformed; SVG,
   * an image that cannot be read and a transformation that changes nothing
   * serve the original. Throws not_found, unauthorized (401), forbidden
   * (403), invalid_request (a transformation of a file that is no image).
   */
  async openFile(principal: Principal, workspace: string, filename: string, kind: MediaFileKind, transform: ImageTransformRequest = {}): Promise<ServedFile> {
    this.deps.workspaces.get(workspace);
    const record = isValidMediaFilename(filename) ? this.deps.library.find(workspace, filename) : undefined;
    if (!record) throw notFound(`No media file "${filename.slice(0, 200)}".`);
    if (record.visibility === 'private') authorize(principal, request(workspace, 'media.read', `media:${filename}`));
    if (isTransformRequested(transform) && !isRasterImage(record.mime) && record.mime !== SVG_TYPE.mime) {
      throw new AppError('invalid_request', `The media file "${filename}" is not an image; only images can be resized or converted.`);
    }
    const copy = await this.copies.open(workspace, record);
    const derived = await this.openDerived(workspace, record, copy.sha256, kind, transform).catch(async (error: unknown) => {
      await copy.file?.close();
      throw error;
    });
    if (derived) {
      await copy.file?.close();
      return derived;
    }
    const file = copy.file ?? (await this.deps.store.open('file', workspace, filename));
    if (!file) throw missingOnDisk(filename);
    return { record, file, mime: record.mime, validators: originalValidators(record, copy.sha256, this.now()) };
  }

  /** Hits, variants made and evicted since start, and what the variant cache holds now (what the tests check a cache hit by). */
  variantStats(): VariantStats {
    return this.deps.variants.stats();
  }

  /**
   * The original of a known media file whatever its visibility, for
   * callers that checked their own grant (replication to replicas). Throws not_found.
   */
  async openOriginal(workspace: string, filename: string): Promise<OpenedMediaFile> {
    this.deps.workspaces.get(workspace);
    const file = isValidMediaFilename(filename) && this.deps.library.find(workspace, filename) ? await this.deps.store.open('file', workspace, filename) : undefined;
    if (!file) throw notFound(`No media file "${filename.slice(0, 200)}".`);
    return file;
  }

  /** Starts receiving one uploaded file (limited to `maxBytes`); hand its id to upload() or discardUpload(). */
  createUploadSink(maxBytes: number): StagedUpload {
    return this.deps.store.createStaged(maxBytes);
  }

  /** Drops a received file that will not be uploaded. */
  async discardUpload(id: string): Promise<void> {
    await this.deps.store.discardStaged(id);
  }

  /**
   * What can be checked before an upload's body is read, so that nobody can
   * fill the staging folder without a chance of storing anything: the
   * workspace exists and the caller is not anonymous. The grant itself may
   * depend on the category sent in the body; upload() checks it. Throws
   * not_found, unauthorized.
   */
  beginUpload(principal: Principal, workspace: string): void {
    this.deps.workspaces.get(workspace);
    if (principal.kind === 'anonymous') authorize(principal, request(workspace, 'media.upload', 'media:*'));
  }

  /**
   * Stores received files as media in one commit, all or none, optionally in
   * a category (created with its parents when new). Needs `media.upload` on
   * `media:*` or on `media:category:{category}`. The received files are
   * discarded in every case. Throws not_found, unauthorized, forbidden,
   * validation_failed (no file, empty file, bad category), file_type_not_allowed.
   */
  async upload(principal: Principal, workspace: string, input: { files: UploadedFile[]; category?: string }): Promise<MediaRecord[]> {
    try {
      this.beginUpload(principal, workspace);
      const category = parseCategory(input.category ?? '', 'category');
      if (!can(principal, request(workspace, 'media.upload', 'media:*'))) {
        authorize(principal, request(workspace, 'media.upload', category === '' ? 'media:*' : `media:category:${category}`));
      }
      if (input.files.length === 0) throw new AppError('validation_failed', 'No file was uploaded.', { fields: { 'media[]': 'Send at least one file in media[].' } });
      const prepared: PreparedUpload[] = [];
      for (const file of input.files) prepared.push(await prepareUpload(this.deps.store, this.deps.allowedTypes, file));
      return await this.deps.writer.transaction(async (tx) => {
        const context = { workspace, category, uploadedBy: actorIdOf(principal) ?? null, uploadedAt: this.isoNow() };
        const { records, undo } = await placeUploads(this.deps.store, this.deps.library, prepared, context);
        const names = records.map((record) => record.filename);
        try {
          await this.mediaWriter.apply(tx, principal, workspace, {
            message: names.length === 1 ? `Upload media ${names[0]}` : `Upload ${names.length} media files`,
            put: records,
            categories: category === '' ? undefined : listWith(this.state(workspace), category),
            events: names.map((filename) => ({ type: 'media.uploaded', data: { filename } })),
          });
        } catch (error) {
          await undo();
          throw error;
        }
        return records;
      });
    } finally {
      await Promise.all(input.files.map((file) => this.deps.store.discardStaged(file.stagedId).catch((error: unknown) => this.logCleanup(error, file.stagedId))));
    }
  }

  /** Sets `alt` and `title` (media.update on media:*). Throws not_found, unauthorized, forbidden. */
  async updateMeta(principal: Principal, workspace: string, filename: string, input: MediaMetaInput): Promise<MediaRecord> {
    this.authorizeOn(principal, workspace, 'media.update', 'media:*');
    const [record] = await this.updateRecords(principal, workspace, [filename], { bulk: false, message: 'Update media' }, (current) => ({
      ...current,
      alt: input.alt === undefined ? current.alt : (input.alt ?? ''),
      title: input.title === undefined ? current.title : (input.title ?? ''),
    }));
    return record;
  }

  /**
   * Makes files public or private (media.update on media:*). With `bulk`,
   * unknown names are a 422 and nothing changes; otherwise 404. Throws
   * not_found, unauthorized, forbidden, validation_failed.
   */
  async setVisibility(principal: Principal, workspace: string, filenames: string[], visibility: MediaVisibility, bulk: boolean): Promise<MediaRecord[]> {
    this.authorizeOn(principal, workspace, 'media.update', 'media:*');
    return this.updateRecords(principal, workspace, filenames, { bulk, message: `Make media ${visibility}:` }, (current) => ({ ...current, visibility }));
  }

  /**
   * Assigns files to a category ('' clears; a new path is created), needing
   * media.update on each `media:{filename}`. With `bulk`, unknown names are a
   * 422 and nothing changes; otherwise 404. Throws not_found, unauthorized,
   * forbidden, validation_failed.
   */
  async setCategory(principal: Principal, workspace: string, filenames: string[], rawCategory: string, bulk: boolean): Promise<MediaRecord[]> {
    this.deps.workspaces.get(workspace);
    for (const filename of filenames) authorize(principal, request(workspace, 'media.update', `media:${filename}`));
    const category = parseCategory(rawCategory, 'category');
    return this.updateRecords(principal, workspace, filenames, { bulk, message: 'Categorize media', category }, (current) => ({ ...current, category }));
  }

  /**
   * Deletes files: their metadata in one commit, then the binaries and
   * thumbnails. Needs media.delete on each `media:{filename}`. With `bulk`,
   * unknown names are a 422 and nothing changes; otherwise 404. Throws
   * not_found, unauthorized, forbidden, validation_failed.
   */
  async remove(principal: Principal, workspace: string, filenames: string[], bulk: boolean): Promise<void> {
    this.deps.workspaces.get(workspace);
    for (const filename of filenames) authorize(principal, request(workspace, 'media.delete', `media:${filename}`));
    const removed = await this.deps.writer.transaction(async (tx) => {
      const records = this.getRecords(workspace, filenames, bulk);
      const names = records.map((record) => record.filename);
      await this.mediaWriter.apply(tx, principal, workspace, {
        message: `Delete media ${nameList(names, 3)}`,
        remove: names,
        events: names.map((filename) => ({ type: 'media.deleted', data: { filename } })),
      });
      return names;
    });
    for (const filename of removed) {
      await this.deps.store.remove('file', workspace, filename).catch((error: unknown) => this.logCleanup(error, filename));
      await this.deps.store.remove('thumb', workspace, filename).catch((error: unknown) => this.logCleanup(error, filename));
      await this.deps.variants.dropFile(workspace, filename).catch((error: unknown) => this.logCleanup(error, filename));
    }
  }

  /**
   * Renames a file, its thumbnail and its metadata, and rewrites every active
   * entry's media-field references, in one commit (media.update on
   * `media:{filename}`). The new name keeps an extension of the file's type.
   * Throws not_found, unauthorized, forbidden, validation_failed, conflict.
   */
  async rename(principal: Principal, workspace: string, filename: string, newName: string): Promise<MediaRecord> {
    this.authorizeOn(principal, workspace, 'media.update', `media:${filename}`);
    const renamed = await this.deps.writer.transaction(async (tx) => {
      const [current] = this.getRecords(workspace, [filename], false);
      const { store, library, content } = this.deps;
      return renameMedia({ store, library, content, writer: this.mediaWriter, tx, now: this.isoNow() }, principal, workspace, current, newName);
    });
    // The new name's variants are made on demand; the old name's would never be asked for again.
    if (renamed.filename !== filename) await this.deps.variants.dropFile(workspace, filename).catch((error: unknown) => this.logCleanup(error, filename));
    const [shown] = await this.deps.sizes.of(workspace, [renamed]);
    return shown;
  }

  /**
   * Creates a category (media.update on media:*); an existing one is
   * returned as it is. Returns the full path. Throws not_found, unauthorized,
   * forbidden, validation_failed (bad name, unknown parent).
   */
  async createCategory(principal: Principal, workspace: string, name: string, parent: string | undefined): Promise<string> {
    this.authorizeOn(principal, workspace, 'media.update', 'media:*');
    return this.deps.writer.transaction(async (tx) => {
      const path = newCategoryPath(this.state(workspace), name, parent);
      const categories = listWith(this.state(workspace), path);
      if (categories) await this.mediaWriter.apply(tx, principal, workspace, { message: `Create media category ${path}`, categories, events: [] });
      return path;
    });
  }

  /**
   * Renames a category with its subcategories and files (media.update on
   * `media:category:{category}`); returns the new full path. Throws
   * not_found, unauthorized, forbidden, validation_failed.
   */
  async renameCategory(principal: Principal, workspace: string, rawCategory: string, name: string): Promise<string> {
    const from = parseCategory(rawCategory, 'category');
    this.authorizeOn(principal, workspace, 'media.update', `media:category:${from}`);
    return this.deps.writer.transaction(async (tx) => {
      const state = this.state(workspace);
      assertCategoryExists(state, from);
      const to = renamedCategoryPath(state, from, name);
      if (to !== from) await this.mediaWriter.apply(tx, principal, workspace, planCategoryRename(state, from, to));
      return to;
    });
  }

  /**
   * Deletes a category and its subcategories; their files stay, with no
   * category (media.update on `media:category:{category}`). Throws
   * not_found, unauthorized, forbidden, validation_failed.
   */
  async deleteCategory(principal: Principal, workspace: string, rawCategory: string): Promise<void> {
    const category = parseCategory(rawCategory, 'category');
    this.authorizeOn(principal, workspace, 'media.update', `media:category:${category}`);
    await this.deps.writer.transaction(async (tx) => {
      const state = this.state(workspace);
      assertCategoryExists(state, category);
      await this.mediaWriter.apply(tx, principal, workspace, planCategoryDelete(state, category));
    });
  }

  // Applies `change` to each named record in one commit; unchanged records make no commit.
  private async updateRecords(
    principal: Principal,
    workspace: string,
    filenames: string[],
    options: { bulk: boolean; message: string; category?: string },
    change: (current: MediaRecord) => MediaRecord,
  ): Promise<MediaRecord[]> {
    const next = await this.deps.writer.transaction(async (tx) => {
      const records = this.getRecords(workspace, filenames, options.bulk).map(change);
      const changed = records.filter((record) => !sameRecord(record, this.deps.library.find(workspace, record.filename)));
      const categories = options.category ? listWith(this.state(workspace), options.category) : undefined;
      if (changed.length === 0 && !categories) return records;
      const set: MediaChangeSet = {
        message: `${options.message} ${nameList(changed.map((record) => record.filename), 3)}`.trim(),
        put: changed,
        categories,
        events: changed.map((record) => ({ type: 'media.updated', data: { filename: record.filename } })),
      };
      await this.mediaWriter.apply(tx, principal, workspace, set);
      return records;
    });
    return this.deps.sizes.of(workspace, next);
  }

  // Bulk calls answer 422 naming every unknown file; single-file routes 404.
  private getRecords(workspace: string, filenames: string[], bulk: boolean): MediaRecord[] {
    const unique = [...new Set(filenames)];
    const missing: Record<string, string> = {};
    const records: MediaRecord[] = [];
    for (const [index, filename] of unique.entries()) {
      const record = this.deps.library.find(workspace, filename);
      if (record) records.push(record);
      else missing[`files.${index}`] = `No media file "${filename.slice(0, 200)}".`;
    }
    if (Object.keys(missing).length === 0) return records;
    if (!bulk) throw notFound(Object.values(missing)[0]);
    throw new AppError('validation_failed', 'Some of the named media files do not exist; nothing was changed.', { fields: missing });
  }

  // A transformation, else a thumbnail; undefined means "serve the original":
  // SVG and unreadable images have no pixels to work on, and a transformation
  // may normalize to nothing.
  private async openDerived(workspace: string, record: MediaRecord, sha256: string, kind: MediaFileKind, request: ImageTransformRequest): Promise<ServedFile | undefined> {
    const { filename } = record;
    const transform = isTransformRequested(request) && hasThumbnail(record) ? normalizeTransform(request, record.mime) : undefined;
    if (transform) {
      const read = () => this.deps.store.read('file', workspace, filename);
      const served = await this.deps.variants.open({ workspace, filename, version: variantSourceVersion(sha256), read }, transform);
      if (served) return { record, file: served.file, mime: served.mime, validators: derivedValidators(record, served.name, this.now()) };
    }
    const thumbnail = kind === 'thumb' && hasThumbnail(record) ? await this.openThumbnail(workspace, filename, record.mime) : undefined;
    return thumbnail && { record, file: thumbnail, mime: record.mime, validators: derivedValidators(record, thumbnailName(sha256), this.now()) };
  }

  private async openThumbnail(workspace: string, filename: string, mime: string): Promise<OpenedMediaFile | undefined> {
    const cached = await this.deps.store.open('thumb', workspace, filename);
    if (cached) return cached;
    const original = await this.deps.store.read('file', workspace, filename);
    const thumbnail = original && (await makeThumbnail(original, mime));
    if (!thumbnail) return undefined;
    await this.deps.store.write('thumb', workspace, filename, thumbnail);
    return this.deps.store.open('thumb', workspace, filename);
  }

  private authorizeOn(principal: Principal, workspace: string, action: string, resource: string): void {
    this.deps.workspaces.get(workspace);
    authorize(principal, request(workspace, action, resource));
  }

  private state(workspace: string): CategoryState {
    return { categories: this.deps.library.categories(workspace), records: this.deps.library.all(workspace) };
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  private logCleanup(error: unknown, name: string): void {
    this.deps.logger.error('could not remove a media file', { name, error });
  }
}

function request(workspace: string, action: string, resource: string) {
  return { action, resource, workspace };
}

function sameRecord(a: MediaRecord, b: MediaRecord | undefined): boolean {
  return b !== undefined && (Object.keys(a) as (keyof MediaRecord)[]).every((key) => a[key] === b[key]);
}
