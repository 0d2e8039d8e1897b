// Entry rules: reads with visibility and grants, and writes (create, update,
// soft delete, bulk update and delete, translation delete) that validate
// against the type and become exactly one commit each. Trash and revision
// restores live in domain/trash and domain/history and share entry-writes.ts.
import { AppError, notFound, validationFailed, type FieldErrors } from '../../errors/app-error.ts';
import type { FileChange } from '../../storage/content-repo.ts';
import { authorize } from '../auth/authorize.ts';
import { actorIdOf, type Principal } from '../auth/principal.ts';
import type { ContentIndex, IndexedType } from '../content/content-index.ts';
import type { ContentTransaction, ContentWriter } from '../content/content-writer.ts';
import { resolveEntry } from '../locales/resolve.ts';
import { resolveListQuery, type ListParams, type ReadParams } from '../query/list-query.ts';
import { expandRelations, omitUnreadableRelations } from '../query/relations.ts';
import { announcedIn, keptPublic, publicationEvents, type Announcements, type EventType } from '../model/events.ts';
import { isLocalized, type ContentType } from '../model/content-type.ts';
import { assertCanReadType, collectionRequest, entryRequest, readsWholeCollection } from '../auth/content-access.ts';
import { buildBulkChanges, checkBulkInput, resolveBulkTargets } from './entry-bulk.ts';
import { buildCreatedEntry, buildUpdatedEntry, checkReferences } from './entry-changes.ts';
import { parseEntryInput, type EntryInput } from './entry-input.ts';
import { bulkUpdateVerb, saveSubject } from './save-subject.ts';
import { entryVersion } from '../model/entry-version.ts';
import { commitEntryChange, entryEvents, entryFileChanges, trashFileChanges } from './entry-writes.ts';
import { isPubliclyVisible, type ResolvedEntry, type StoredEntry } from '../model/entry.ts';
import { presentMedia, type MediaPresenter } from './media-urls.ts';
import { counted } from '../../lib/counted.ts';

export type { MediaPresenter } from './media-urls.ts';

/** How a read presents the entry (media as URLs on the public API). */
export interface ReadOptions {
  mediaUrl?: MediaPresenter;
}

/** One page of a list and its meta (SPEC "List meta"). */
export interface ListResult {
  entries: ResolvedEntry[];
  meta: { total: number; limit: number; offset: number; sort: string; order: 'asc' | 'desc'; locale?: string };
}

/** One entry with its version, for single-entry responses. */
/** Tells whether an entry version is the one the client expects (its If-Match). */
export type VersionCheck = (version: string) => boolean;

export interface EntryResult {
  entry: ResolvedEntry;
  /** The entry's version: the ETag value, compared with If-Match. */
  version: string;
}

/** Entry reads and writes over the content index and the content repo. */
export class EntryService {
  constructor(
    private readonly writer: ContentWriter,
    private readonly content: ContentIndex,
    private readonly now: () => number = Date.now,
    /** The publish scheduler's, so a save of an entry that came due moments ago announces it (events.ts). */
    private readonly announcements?: Announcements,
  ) {}

  /**
   * Lists entries visible to the principal, filtered, sorted and paged.
   * Throws not_found, unauthorized, forbidden, invalid_request.
   */
  list(principal: Principal, workspace: string, typeName: string, params: ListParams, options: ReadOptions = {}): ListResult {
    const { type, index } = this.content.getType(workspace, typeName);
    assertCanReadType(principal, workspace, type);
    const query = resolveListQuery(params, type);
    const now = this.now();
    const whole = readsWholeCollection(principal, workspace, type.name);
    const result = index.query(query, whole ? { mode: 'all' } : { mode: 'public', now });
    const entries = this.present(principal, workspace, type, result.entries, query.include, query.locale, options);
    const meta: ListResult['meta'] = { total: result.total, limit: query.limit ?? result.total, offset: query.offset, sort: result.sort, order: result.order };
    if (query.locale !== undefined) meta.locale = query.locale;
    return { entries, meta };
  }

  /** One entry by id or slug, resolved for `locale`. Throws not_found, unauthorized, forbidden, invalid_request. */
  get(principal: Principal, workspace: string, typeName: string, identifier: string, params: ReadParams, options: ReadOptions = {}): EntryResult {
    const indexed = this.content.getType(workspace, typeName);
    const stored = this.readableEntry(principal, workspace, indexed, identifier);
    const query = resolveListQuery({ include: params.include, locale: params.locale, offset: 0, filters: [] }, indexed.type);
    const [entry] = this.present(principal, workspace, indexed.type, [resolveEntry(stored, indexed.type, query.locale)], query.include, query.locale, options);
    return { entry, version: entryVersion(stored) };
  }

  /** The single page entry of a singleton type (its list route). Throws not_found, unauthorized, forbidden. */
  getSingleton(principal: Principal, workspace: string, typeName: string, params: ReadParams, options: ReadOptions = {}): EntryResult {
    return this.get(principal, workspace, typeName, typeName, params, options);
  }

  /** Creates an entry (one commit). Throws not_found, unauthorized, forbidden, validation_failed, conflict. */
  async create(principal: Principal, workspace: string, typeName: string, body: Record<string, unknown>): Promise<EntryResult> {
    const { type } = this.content.getType(workspace, typeName);
    const input = this.parseInput(body, type);
    // A new entry is a draft in the default locale unless the body says otherwise; conditions see that.
    const payload = { ...payloadOf(input), status: input.status ?? 'draft', locale: input.locale ?? (type.default_locale || undefined) };
    authorize(principal, collectionRequest(workspace, type.name, 'content.create', payload));
    if (input.status === 'published') authorize(principal, collectionRequest(workspace, type.name, 'content.publish', payload));
    return this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, typeName);
      const now = this.now();
      const entry = await buildCreatedEntry(indexed, input, { actor: actorIdOf(principal), now: new Date(now).toISOString() });
      checkReferences(entry, indexed, (name) => this.content.findType(workspace, name), Object.keys(indexed.type.fields));
      await this.commit(tx, principal, workspace, {
        entry,
        message: saveSubject(undefined, entry, now),
        changes: entryFileChanges(workspace, indexed.type, undefined, entry),
        apply: () => indexed.index.upsert(entry),
        events: ['content.created', ...publicationEvents(undefined, entry, now)],
      });
      return this.writeResult(indexed.type, entry, input.locale);
    });
  }

  /**
   * Partially updates an entry (PUT and PATCH alike), one commit. `ifMatch`
   * tests the current version (the client's If-Match). Throws not_found, unauthorized, forbidden,
   * validation_failed, conflict, precondition_failed.
   */
  async update(principal: Principal, workspace: string, typeName: string, identifier: string, body: Record<string, unknown>, ifMatch?: VersionCheck): Promise<EntryResult> {
    const { type } = this.content.getType(workspace, typeName);
    const input = this.parseInput(body, type);
    return this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, typeName);
      const current = this.findEntry(indexed, identifier);
      assertVersion(current, ifMatch);
      authorize(principal, entryRequest(workspace, current, 'content.update', payloadOf(input)));
      if (input.status === 'published') authorize(principal, entryRequest(workspace, current, 'content.publish', payloadOf(input)));
      const now = this.now();
      const entry = buildUpdatedEntry(indexed, current, input, { actor: actorIdOf(principal), now: new Date(now).toISOString() });
      checkReferences(entry, indexed, (name) => this.content.findType(workspace, name), Object.keys(input.values));
      const announced = announcedIn(this.announcements, workspace);
      const kept = keptPublic(current, entry, now, announced);
      await this.commit(tx, principal, workspace, {
        entry,
        message: saveSubject(current, entry, now, announced),
        changes: entryFileChanges(workspace, indexed.type, current, entry),
        apply: () => indexed.index.upsert(entry),
        events: ['content.updated', ...publicationEvents(current, entry, now, announced)],
        previousSlug: current.slug,
      });
      if (kept) this.announcements?.keptPublic(workspace, entry);
      return this.writeResult(indexed.type, entry, input.locale);
    });
  }

  /** Soft-deletes an entry: its files move to the trash folder in one commit. Throws not_found, unauthorized, forbidden, precondition_failed. */
  async remove(principal: Principal, workspace: string, typeName: string, identifier: string, ifMatch?: VersionCheck): Promise<void> {
    this.content.getType(workspace, typeName);
    await this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, typeName);
      const current = this.findEntry(indexed, identifier);
      assertVersion(current, ifMatch);
      authorize(principal, entryRequest(workspace, current, 'content.delete'));
      const now = this.now();
      await this.commit(tx, principal, workspace, {
        entry: current,
        message: `Delete ${indexed.type.name}/${current.slug}`,
        changes: this.trashChanges(principal, workspace, indexed.type, current, now),
        apply: () => indexed.index.remove(current.id),
        events: ['content.deleted', ...publicationEvents(current, undefined, now, announcedIn(this.announcements, workspace))],
      });
    });
  }

  /**
   * Applies the same partial changes (a write body without `slug`) to every
   * named entry in one commit; all or nothing. Throws not_found, unauthorized,
   * forbidden, validation_failed (naming every bad id or invalid entry).
   */
  async bulkUpdate(principal: Principal, workspace: string, typeName: string, ids: string[], body: Record<string, unknown>): Promise<ResolvedEntry[]> {
    const { type } = this.content.getType(workspace, typeName);
    const input = this.parseInput(body, type, 'changes.');
    return this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, typeName);
      const targets = resolveBulkTargets(indexed, ids);
      checkBulkInput(indexed, input, targets.length);
      for (const entry of targets) {
        authorize(principal, entryRequest(workspace, entry, 'content.update', payloadOf(input)));
        if (input.status === 'published') authorize(principal, entryRequest(workspace, entry, 'content.publish', payloadOf(input)));
      }
      const now = this.now();
      const context = { actor: actorIdOf(principal), now: new Date(now).toISOString(), findType: (name: string) => this.content.findType(workspace, name) };
      const changes = buildBulkChanges(indexed, targets, input, context);
      const files = changes.flatMap(({ before, after }) => entryFileChanges(workspace, indexed.type, before, after));
      const announced = announcedIn(this.announcements, workspace);
      const kept = changes.filter(({ before, after }) => keptPublic(before, after, now, announced));
      await commitEntryChange(tx, principal, {
        workspace,
        type: type.name,
        ids: targets.map((entry) => entry.id),
        message: `${bulkUpdateVerb(changes, now, announced)} ${counted(changes.length, 'entry', 'entries')} in ${type.name}`,
        changes: files,
        apply: () => changes.forEach(({ after }) => indexed.index.upsert(after)),
        events: changes.flatMap(({ before, after }) => entryEvents(workspace, after, ['content.updated', ...publicationEvents(before, after, now, announced)], before.slug)),
      });
      for (const { after } of kept) this.announcements?.keptPublic(workspace, after);
      return changes.map(({ after }) => resolveEntry(after, indexed.type, input.locale));
    });
  }

  /**
   * Soft-deletes every named entry (to the trash) in one commit; all or
   * nothing. Returns the deleted ids. Throws not_found, unauthorized,
   * forbidden, validation_failed (naming every bad id).
   */
  async bulkRemove(principal: Principal, workspace: string, typeName: string, ids: string[]): Promise<string[]> {
    this.content.getType(workspace, typeName);
    return this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, typeName);
      const targets = resolveBulkTargets(indexed, ids);
      for (const entry of targets) authorize(principal, entryRequest(workspace, entry, 'content.delete'));
      const now = this.now();
      const announced = announcedIn(this.announcements, workspace);
      const files = targets.flatMap((entry) => this.trashChanges(principal, workspace, indexed.type, entry, now));
      const message = `Delete ${counted(targets.length, 'entry', 'entries')} from ${indexed.type.name}`;
      await commitEntryChange(tx, principal, {
        workspace,
        type: indexed.type.name,
        ids: targets.map((entry) => entry.id),
        message,
        changes: files,
        apply: () => targets.forEach((entry) => indexed.index.remove(entry.id)),
        events: targets.flatMap((entry) => entryEvents(workspace, entry, ['content.deleted', ...publicationEvents(entry, undefined, now, announced)])),
      });
      return targets.map((entry) => entry.id);
    });
  }

  /**
   * Permanently deletes one non-default locale variant (its file) and stamps
   * the entry as updated, in one commit. Needs content.delete for that locale.
   * Throws not_found (unknown entry or no such translation), unauthorized,
   * forbidden, validation_failed (the type's default locale).
   */
  async removeTranslation(principal: Principal, workspace: string, typeName: string, identifier: string, locale: string): Promise<EntryResult> {
    this.content.getType(workspace, typeName);
    return this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, typeName);
      const current = this.findEntry(indexed, identifier);
      authorize(principal, entryRequest(workspace, current, 'content.delete', { locale }));
      if (locale === indexed.type.default_locale) {
        throw validationFailed({ locale: `"${locale}" is the default locale of "${indexed.type.name}"; it cannot be deleted.` });
      }
      if (!Object.hasOwn(current.translations, locale)) throw notFound(`The entry "${current.slug}" has no "${locale}" translation.`);
      const { [locale]: _removed, ...translations } = current.translations;
      const next: StoredEntry = { ...current, translations, updated_at: new Date(this.now()).toISOString() };
      const actor = actorIdOf(principal);
      if (actor) next.updated_by = actor;
      // The variant's file is among the old files that the new entry no longer has.
      await this.commit(tx, principal, workspace, {
        entry: next,
        message: `Delete ${locale} translation of ${indexed.type.name}/${current.slug}`,
        changes: entryFileChanges(workspace, indexed.type, current, next),
        apply: () => indexed.index.upsert(next),
        events: ['content.updated'],
      });
      return this.writeResult(indexed.type, next, undefined);
    });
  }

  // `prefix` names where the body sits in the request (`changes.` for bulk calls).
  private parseInput(body: Record<string, unknown>, type: ContentType, prefix = ''): EntryInput {
    const { input, errors } = parseEntryInput(body);
    if (input.locale !== undefined && !type.locales.includes(input.locale)) {
      errors.locale = isLocalized(type)
        ? `The locale must be one of: ${type.locales.join(', ')}.`
        : `The content type "${type.name}" is not localized.`;
    }
    if (Object.keys(errors).length > 0) {
      const fields: FieldErrors = {};
      for (const [key, message] of Object.entries(errors)) fields[prefix + key] = message;
      throw validationFailed(fields);
    }
    return input;
  }

  private findEntry(indexed: IndexedType, identifier: string): StoredEntry {
    const entry = indexed.index.get(identifier) ?? indexed.index.getBySlug(identifier);
    if (!entry) throw notFound('Content entry not found.');
    return entry;
  }

  // Public entries of public types need no grant. Hidden entries answer 404
  // to anonymous readers so that drafts do not reveal their existence; anyone
  // else, and every reader of a private type, needs content.read on the entry.
  private readableEntry(principal: Principal, workspace: string, indexed: IndexedType, identifier: string): StoredEntry {
    const entry = this.findEntry(indexed, identifier);
    const isPublicType = indexed.type.visibility === 'public';
    if (isPublicType && isPubliclyVisible(entry, this.now())) return entry;
    if (isPublicType && principal.kind === 'anonymous') throw notFound('Content entry not found.');
    authorize(principal, entryRequest(workspace, entry, 'content.read'));
    return entry;
  }

  private present(principal: Principal, workspace: string, type: ContentType, entries: ResolvedEntry[], include: string[], locale: string | undefined, options: ReadOptions): ResolvedEntry[] {
    const now = this.now();
    // Asked per related entry, answered once per type for this response.
    const wholeCollections = new Map<string, boolean>();
    const readsWhole = (name: string) => {
      let answer = wholeCollections.get(name);
      if (answer === undefined) wholeCollections.set(name, (answer = readsWholeCollection(principal, workspace, name)));
      return answer;
    };
    const canReadType = (name: string) => {
      const target = this.content.findType(workspace, name)?.type;
      return !!target && (target.visibility === 'public' || readsWhole(name));
    };
    let shaped = omitUnreadableRelations(entries, type, canReadType);
    if (include.length > 0) {
      shaped = expandRelations(shaped, type, include, {
        lookup: (name) => this.content.findType(workspace, name),
        canReadType,
        isVisible: (name, entry) => readsWhole(name) || isPubliclyVisible(entry, now),
        locale,
      });
    }
    return options.mediaUrl ? presentMedia(shaped, type, options.mediaUrl, (name) => this.content.findType(workspace, name)?.type) : shaped;
  }

  // A soft delete: the entry's files leave entries/ and land in its trash folder.
  private trashChanges(principal: Principal, workspace: string, type: ContentType, entry: StoredEntry, now: number): FileChange[] {
    const deleted = { at: new Date(now).toISOString(), by: actorIdOf(principal) };
    return [...entryFileChanges(workspace, type, entry, undefined), ...trashFileChanges(workspace, type, entry, deleted)];
  }

  // One entry's commit; `events` are told about that entry.
  private async commit(tx: ContentTransaction, principal: Principal, workspace: string, write: SingleEntryWrite): Promise<void> {
    const { entry, message, changes, apply, events, previousSlug } = write;
    await commitEntryChange(tx, principal, { workspace, type: entry.type, ids: [entry.id], message, changes, apply, events: entryEvents(workspace, entry, events, previousSlug) });
  }

  private writeResult(type: ContentType, entry: StoredEntry, locale: string | undefined): EntryResult {
    return { entry: resolveEntry(entry, type, locale), version: entryVersion(entry) };
  }
}

/** What a write of one entry commits and does once the commit has landed. */
interface SingleEntryWrite {
  entry: StoredEntry;
  message: string;
  changes: FileChange[];
  apply: () => void;
  events: EventType[];
  /** The slug before an update; the events name it when it changed. */
  previousSlug?: string;
}

function payloadOf(input: EntryInput) {
  return { status: input.status, locale: input.locale, fields: Object.keys(input.values) };
}

function assertVersion(entry: StoredEntry, ifMatch: VersionCheck | undefined): void {
  if (ifMatch && !ifMatch(entryVersion(entry))) throw new AppError('precondition_failed', 'The entry has changed since it was read (If-Match does not match).');
}
