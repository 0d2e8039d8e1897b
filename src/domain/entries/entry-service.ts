// Entry rules: reads with visibility and grants, and writes (create, update,
// soft delete) that validate against the type and become exactly one commit.
import { AppError, notFound, validationFailed } from '../../errors/app-error.ts';
import type { ContentRepo, FileChange } from '../../storage/content-repo.ts';
import { authorize } from '../auth/authorize.ts';
import { actorIdOf, gitAuthorOf, type Principal } from '../auth/principal.ts';
import type { ContentIndex, IndexedType } from '../content/content-index.ts';
import { resolveEntry } from '../locales/resolve.ts';
import { parseListQuery, type RawQuery } from '../query/list-query.ts';
import { expandRelations, omitUnreadableRelations } from '../query/relations.ts';
import type { EventBus, EventType } from '../events.ts';
import { isLocalized, type ContentType } from '../types/content-type.ts';
import { assertCanReadType, canSeeEntry, collectionRequest, entryRequest, readsWholeCollection } from './entry-access.ts';
import { buildCreatedEntry, buildUpdatedEntry, checkReferences } from './entry-changes.ts';
import { entriesDir, entryToFiles, trashDir } from './entry-files.ts';
import { parseEntryInput, type EntryInput } from './entry-input.ts';
import { entryVersion } from './entry-version.ts';
import { isPubliclyVisible, type ResolvedEntry, type StoredEntry } from './entry.ts';

/** How media field values are presented: public reads give absolute URLs, admin reads keep filenames. */
export type MediaPresenter = (filename: string) => string;

export interface ReadOptions {
  mediaUrl?: MediaPresenter;
}

export interface ListResult {
  entries: ResolvedEntry[];
  meta: { total: number; limit: number; offset: number; sort: string; order: 'asc' | 'desc'; locale?: string };
}

export interface EntryResult {
  entry: ResolvedEntry;
  /** The entry's version: the ETag value, compared with If-Match. */
  version: string;
}

export class EntryService {
  constructor(
    private readonly repo: ContentRepo,
    private readonly content: ContentIndex,
    private readonly events: EventBus,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Lists entries visible to the principal, filtered, sorted and paged.
   * Throws not_found, unauthorized, forbidden, invalid_request.
   */
  list(principal: Principal, workspace: string, typeName: string, raw: RawQuery, options: ReadOptions = {}): ListResult {
    const { type, index } = this.content.getType(workspace, typeName);
    assertCanReadType(principal, workspace, type);
    const query = parseListQuery(raw, type);
    const now = this.now();
    const whole = readsWholeCollection(principal, workspace, type.name);
    const result = index.query(query, { isVisible: (entry) => whole || isPubliclyVisible(entry, now), now });
    const entries = this.present(principal, workspace, type, result.entries, query.include, query.locale, options);
    const meta: ListResult['meta'] = { total: result.total, limit: query.limit ?? result.total, offset: query.offset, sort: result.sort, order: result.order };
    if (query.locale !== undefined) meta.locale = query.locale;
    return { entries, meta };
  }

  /** One entry by id or slug, resolved for `locale`. Throws not_found, unauthorized, forbidden, invalid_request. */
  get(principal: Principal, workspace: string, typeName: string, identifier: string, raw: RawQuery, options: ReadOptions = {}): EntryResult {
    const indexed = this.content.getType(workspace, typeName);
    const stored = this.readableEntry(principal, workspace, indexed, identifier);
    const query = parseListQuery(pickReadParams(raw), indexed.type);
    const [entry] = this.present(principal, workspace, indexed.type, [resolveEntry(stored, indexed.type, query.locale)], query.include, query.locale, options);
    return { entry, version: entryVersion(stored) };
  }

  /** The single page entry of a singleton type (its list route). Throws not_found, unauthorized, forbidden. */
  getSingleton(principal: Principal, workspace: string, typeName: string, raw: RawQuery, options: ReadOptions = {}): EntryResult {
    return this.get(principal, workspace, typeName, typeName, raw, options);
  }

  /** Creates an entry (one commit). Throws not_found, unauthorized, forbidden, validation_failed, conflict. */
  async create(principal: Principal, workspace: string, typeName: string, body: Record<string, unknown>): Promise<EntryResult> {
    const { type } = this.content.getType(workspace, typeName);
    const input = this.parseInput(body, type);
    // A new entry is a draft in the default locale unless the body says otherwise; conditions see that.
    const payload = { ...payloadOf(input), status: input.status ?? 'draft', locale: input.locale ?? (type.default_locale || undefined) };
    authorize(principal, collectionRequest(workspace, type.name, 'content.create', payload));
    if (input.status === 'published') authorize(principal, collectionRequest(workspace, type.name, 'content.publish', payload));
    return this.repo.serialize(async () => {
      const indexed = this.content.getType(workspace, typeName);
      const entry = buildCreatedEntry(indexed, input, { actor: actorIdOf(principal), now: new Date(this.now()).toISOString() });
      checkReferences(entry, indexed, (name) => this.content.findType(workspace, name), Object.keys(indexed.type.fields));
      await this.commit(principal, workspace, entry, `Create ${type.name}/${entry.slug}`, this.fileChanges(workspace, indexed.type, undefined, entry));
      indexed.index.upsert(entry);
      this.emit(principal, workspace, entry, ['content.created', ...statusEvents(undefined, entry)]);
      return this.writeResult(indexed.type, entry, input.locale);
    });
  }

  /**
   * Partially updates an entry (PUT and PATCH alike), one commit. `ifMatch` is
   * the client's If-Match value. Throws not_found, unauthorized, forbidden,
   * validation_failed, conflict, precondition_failed.
   */
  async update(principal: Principal, workspace: string, typeName: string, identifier: string, body: Record<string, unknown>, ifMatch?: string): Promise<EntryResult> {
    const { type } = this.content.getType(workspace, typeName);
    const input = this.parseInput(body, type);
    return this.repo.serialize(async () => {
      const indexed = this.content.getType(workspace, typeName);
      const current = this.findEntry(indexed, identifier);
      assertVersion(current, ifMatch);
      authorize(principal, entryRequest(workspace, current, 'content.update', payloadOf(input)));
      if (input.status === 'published') authorize(principal, entryRequest(workspace, current, 'content.publish', payloadOf(input)));
      const entry = buildUpdatedEntry(indexed, current, input, { actor: actorIdOf(principal), now: new Date(this.now()).toISOString() });
      checkReferences(entry, indexed, (name) => this.content.findType(workspace, name), Object.keys(input.values));
      await this.commit(principal, workspace, entry, `Update ${type.name}/${entry.slug}`, this.fileChanges(workspace, indexed.type, current, entry));
      indexed.index.upsert(entry);
      this.emit(principal, workspace, entry, ['content.updated', ...statusEvents(current, entry)]);
      return this.writeResult(indexed.type, entry, input.locale);
    });
  }

  /** Soft-deletes an entry: its files move to the trash folder in one commit. Throws not_found, unauthorized, forbidden, precondition_failed. */
  async remove(principal: Principal, workspace: string, typeName: string, identifier: string, ifMatch?: string): Promise<void> {
    this.content.getType(workspace, typeName);
    await this.repo.serialize(async () => {
      const indexed = this.content.getType(workspace, typeName);
      const current = this.findEntry(indexed, identifier);
      assertVersion(current, ifMatch);
      authorize(principal, entryRequest(workspace, current, 'content.delete'));
      const deletedAt = new Date(this.now()).toISOString();
      const trashed = entryToFiles(current, indexed.type, { deleted_at: deletedAt, deleted_by: actorIdOf(principal) ?? null });
      const changes: FileChange[] = this.fileChanges(workspace, indexed.type, current, undefined);
      for (const [file, content] of trashed) changes.push({ path: `${trashDir(workspace, indexed.type.name)}/${current.id}/${file}`, content });
      await this.commit(principal, workspace, current, `Delete ${indexed.type.name}/${current.slug}`, changes);
      indexed.index.remove(current.id);
      this.emit(principal, workspace, current, ['content.deleted']);
    });
  }

  private parseInput(body: Record<string, unknown>, type: ContentType): EntryInput {
    const { input, errors } = parseEntryInput(body);
    if (input.locale !== undefined && !type.locales.includes(input.locale)) {
      errors.locale = isLocalized(type)
        ? `The locale must be one of: ${type.locales.join(', ')}.`
        : `The content type "${type.name}" is not localized.`;
    }
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
    return input;
  }

  private findEntry(indexed: IndexedType, identifier: string): StoredEntry {
    const entry = indexed.index.get(identifier) ?? indexed.index.getBySlug(identifier);
    if (!entry) throw notFound('Content entry not found.');
    return entry;
  }

  // Hidden entries answer 404 to anonymous readers so that drafts do not
  // reveal their existence; a token without content.read gets 403.
  private readableEntry(principal: Principal, workspace: string, indexed: IndexedType, identifier: string): StoredEntry {
    const entry = this.findEntry(indexed, identifier);
    const now = this.now();
    if (indexed.type.visibility === 'private' || !isPubliclyVisible(entry, now)) {
      if (principal.kind === 'anonymous' && indexed.type.visibility === 'public') throw notFound('Content entry not found.');
      if (!canSeeEntry(principal, workspace, entry, now) || indexed.type.visibility === 'private') {
        authorize(principal, entryRequest(workspace, entry, 'content.read'));
      }
    }
    return entry;
  }

  private present(principal: Principal, workspace: string, type: ContentType, entries: ResolvedEntry[], include: string[], locale: string | undefined, options: ReadOptions): ResolvedEntry[] {
    const now = this.now();
    const canReadType = (name: string) => {
      const target = this.content.findType(workspace, name)?.type;
      return !!target && (target.visibility === 'public' || readsWholeCollection(principal, workspace, name));
    };
    let shaped = omitUnreadableRelations(entries, type, canReadType);
    if (include.length > 0) {
      shaped = expandRelations(shaped, type, include, {
        lookup: (name) => this.content.findType(workspace, name),
        canReadType,
        isVisible: (name, entry) => readsWholeCollection(principal, workspace, name) || isPubliclyVisible(entry, now),
        locale,
      });
    }
    return options.mediaUrl ? presentMedia(shaped, type, options.mediaUrl, (name) => this.content.findType(workspace, name)?.type) : shaped;
  }

  private fileChanges(workspace: string, type: ContentType, before: StoredEntry | undefined, after: StoredEntry | undefined): FileChange[] {
    const dir = entriesDir(workspace, type.name);
    const changes = new Map<string, FileChange>();
    if (before) for (const file of entryToFiles(before, type).keys()) changes.set(file, { path: `${dir}/${file}`, content: null });
    if (after) for (const [file, content] of entryToFiles(after, type)) changes.set(file, { path: `${dir}/${file}`, content });
    return [...changes.values()];
  }

  private async commit(principal: Principal, workspace: string, entry: StoredEntry, message: string, changes: FileChange[]): Promise<void> {
    await this.repo.commitChanges({
      changes,
      message,
      author: gitAuthorOf(principal),
      trailers: { Workspace: workspace, Type: entry.type, Entry: entry.id, Actor: actorIdOf(principal) ?? 'anonymous' },
    });
  }

  private emit(principal: Principal, workspace: string, entry: StoredEntry, types: EventType[]): void {
    const occurredAt = new Date(this.now()).toISOString();
    for (const type of types) {
      this.events.emit({ type, workspace, occurredAt, actor: actorIdOf(principal), data: { type: entry.type, id: entry.id, slug: entry.slug } });
    }
  }

  private writeResult(type: ContentType, entry: StoredEntry, locale: string | undefined): EntryResult {
    return { entry: resolveEntry(entry, type, locale), version: entryVersion(entry) };
  }
}

/** content.published when an entry becomes published, content.unpublished when it leaves published. */
export function statusEvents(before: StoredEntry | undefined, after: StoredEntry): EventType[] {
  const was = before?.status === 'published';
  const is = after.status === 'published';
  if (is && !was) return ['content.published'];
  if (was && !is) return ['content.unpublished'];
  return [];
}

function payloadOf(input: EntryInput) {
  return { status: input.status, locale: input.locale, fields: Object.keys(input.values) };
}

function pickReadParams(raw: RawQuery): RawQuery {
  return { include: raw.include, locale: raw.locale };
}

function assertVersion(entry: StoredEntry, ifMatch: string | undefined): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const current = entryVersion(entry);
  const matches = ifMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '') === current);
  if (!matches) throw new AppError('precondition_failed', 'The entry has changed since it was read (If-Match does not match).');
}

function presentMedia(entries: ResolvedEntry[], type: ContentType, mediaUrl: MediaPresenter, typeOf: (name: string) => ContentType | undefined): ResolvedEntry[] {
  return entries.map((entry) => {
    const data: Record<string, unknown> = { ...entry.data };
    for (const [name, field] of Object.entries(type.fields)) {
      const value = data[name];
      if (field.type === 'media' && Array.isArray(value)) data[name] = value.map((file) => mediaUrl(String(file)));
      const target = field.type === 'relation' && field.target ? typeOf(field.target) : undefined;
      if (target && Array.isArray(value)) data[name] = value.map((item) => presentRelated(item, target, mediaUrl, typeOf));
      else if (target) data[name] = presentRelated(value, target, mediaUrl, typeOf);
    }
    return { ...entry, data };
  });
}

// Expanded relations are entry objects and get their media presented too; plain ids stay as they are.
function presentRelated(value: unknown, target: ContentType, mediaUrl: MediaPresenter, typeOf: (name: string) => ContentType | undefined): unknown {
  if (typeof value !== 'object' || value === null || !('id' in value)) return value;
  return presentMedia([value as ResolvedEntry], target, mediaUrl, typeOf)[0];
}

