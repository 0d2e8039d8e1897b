// The trash: soft-deleted entries of a content type (SPEC state table), which
// can be listed, restored under their slug, purged one by one or emptied.
// Each change is one commit. Grants: trash.read|restore|purge on
// `trash:{type}` (list, empty) and `trash:{type}:{id}` (one entry), see
// docs/permissions.md. Soft deletes themselves belong to the entry service.
import { AppError, notFound, validationFailed } from '../../errors/app-error.ts';
import { authorize } from '../auth/authorize.ts';
import { actorIdOf, type Principal } from '../auth/principal.ts';
import type { ContentIndex, IndexedType } from '../content/content-index.ts';
import type { ContentReader, ContentWriter } from '../content/content-writer.ts';
import { checkReferences } from '../entries/entry-changes.ts';
import { entryVersion } from '../model/entry-version.ts';
import { commitEntryChange, entryEvents, entryFileChanges } from '../entries/entry-writes.ts';
import { publicationEvents } from '../model/events.ts';
import type { ResolvedEntry, StoredEntry } from '../model/entry.ts';
import { validateFieldValues } from '../model/field-values.ts';
import { resolveEntry } from '../locales/resolve.ts';
import type { ContentType } from '../model/content-type.ts';
import { readTrash, readTrashedEntry, type TrashedEntry } from './trash-files.ts';

/** A trash item as the admin API shows it: the entry plus when and by whom it was deleted. */
export type TrashItem = ResolvedEntry & { deleted_at: string | null; deleted_by: string | null };

/** Paging and locale of a trash list. */
export interface TrashListOptions {
  limit?: number;
  offset?: number;
  locale?: string;
}

/** One page of a type's trash, newest deletion first. */
export interface TrashList {
  items: TrashItem[];
  total: number;
}

/** Trash rules over the content repo's `{ws}/trash/{type}/{id}/` folders. */
export class TrashService {
  constructor(
    private readonly repo: ContentReader,
    private readonly writer: ContentWriter,
    private readonly content: ContentIndex,
    private readonly now: () => number = Date.now,
  ) {}

  /** A page of the type's trash. Throws not_found (unknown type), unauthorized, forbidden (trash.read on `trash:{type}`). */
  async list(principal: Principal, workspace: string, typeName: string, options: TrashListOptions = {}): Promise<TrashList> {
    const { type } = this.content.getType(workspace, typeName);
    authorize(principal, { action: 'trash.read', resource: `trash:${type.name}`, workspace });
    const { entries } = await readTrash(this.repo, workspace, type);
    const offset = options.offset ?? 0;
    const page = entries.slice(offset, options.limit === undefined ? undefined : offset + options.limit);
    return { items: page.map((trashed) => presentTrashed(trashed, type, options.locale)), total: entries.length };
  }

  /**
   * Moves a trashed entry back under its slug (one commit) and returns it.
   * Throws not_found (unknown type or no trashed entry with this id),
   * unauthorized, forbidden (trash.restore on `trash:{type}:{id}`), conflict
   * (slug, id or single page taken by an active entry), validation_failed
   * (its values no longer fit the type).
   */
  async restore(principal: Principal, workspace: string, typeName: string, id: string): Promise<{ entry: ResolvedEntry; version: string }> {
    this.content.getType(workspace, typeName);
    authorize(principal, { action: 'trash.restore', resource: `trash:${typeName}:${id}`, workspace });
    return this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, typeName);
      const { trashed, files } = await readTrashedEntry(this.repo, workspace, indexed.type, id);
      if (!trashed) throw notFound(`No entry "${id}" in the trash of "${typeName}".`);
      assertRestorable(indexed, trashed.entry);
      const now = this.now();
      const restored: StoredEntry = { ...trashed.entry, updated_at: new Date(now).toISOString() };
      const actor = actorIdOf(principal);
      if (actor) restored.updated_by = actor;
      const changes = [...files.map((path) => ({ path, content: null })), ...entryFileChanges(workspace, indexed.type, undefined, restored)];
      await commitEntryChange(tx, principal, {
        workspace,
        type: typeName,
        ids: [id],
        message: `Restore ${typeName}/${restored.slug} from trash`,
        changes,
        apply: () => indexed.index.upsert(restored),
        // Back on the public API when it is public: content.published too (docs/operations.md "Publication events").
        events: entryEvents(workspace, restored, ['content.restored', ...publicationEvents(undefined, restored, now)]),
      });
      return { entry: resolveEntry(restored, indexed.type, undefined), version: entryVersion(restored) };
    });
  }

  /**
   * Deletes one trashed entry for good (one commit). Throws not_found,
   * unauthorized, forbidden (trash.purge on `trash:{type}:{id}`).
   */
  async purge(principal: Principal, workspace: string, typeName: string, id: string): Promise<void> {
    this.content.getType(workspace, typeName);
    authorize(principal, { action: 'trash.purge', resource: `trash:${typeName}:${id}`, workspace });
    await this.writer.transaction(async (tx) => {
      const { type } = this.content.getType(workspace, typeName);
      const { trashed, files } = await readTrashedEntry(this.repo, workspace, type, id);
      if (files.length === 0) throw notFound(`No entry "${id}" in the trash of "${typeName}".`);
      const slug = trashed?.entry.slug ?? id;
      await commitEntryChange(tx, principal, {
        workspace,
        type: typeName,
        ids: [id],
        message: `Purge ${typeName}/${slug} from trash`,
        changes: files.map((path) => ({ path, content: null })),
        events: trashed ? entryEvents(workspace, trashed.entry, ['content.purged']) : [],
      });
    });
  }

  /**
   * Deletes every trashed entry of the type for good, in one commit (none
   * when the trash is empty). Returns how many entries were purged. Throws
   * not_found, unauthorized, forbidden (trash.purge on `trash:{type}`).
   */
  async empty(principal: Principal, workspace: string, typeName: string): Promise<number> {
    this.content.getType(workspace, typeName);
    authorize(principal, { action: 'trash.purge', resource: `trash:${typeName}`, workspace });
    return this.writer.transaction(async (tx) => {
      const { type } = this.content.getType(workspace, typeName);
      const { entries, problems } = await readTrash(this.repo, workspace, type);
      const paths = [...entries.flatMap((trashed) => trashed.files), ...problems.flatMap((problem) => problem.files)];
      if (paths.length === 0) return 0;
      const ids = [...entries.map((trashed) => trashed.entry.id), ...problems.map((problem) => problem.folder.slice(problem.folder.lastIndexOf('/') + 1))];
      await commitEntryChange(tx, principal, {
        workspace,
        type: typeName,
        ids,
        message: `Empty the trash of ${typeName}`,
        changes: paths.map((path) => ({ path, content: null })),
        events: entries.flatMap((trashed) => entryEvents(workspace, trashed.entry, ['content.purged'])),
      });
      return ids.length;
    });
  }
}

function presentTrashed(trashed: TrashedEntry, type: ContentType, locale: string | undefined): TrashItem {
  return { ...resolveEntry(trashed.entry, type, locale), deleted_at: trashed.deleted_at, deleted_by: trashed.deleted_by };
}

// A restored entry must fit the collection as it is now: its slug and id
// free, a single page still empty, and its values valid for today's schema.
function assertRestorable(indexed: IndexedType, entry: StoredEntry): void {
  const { type, index } = indexed;
  if (type.singleton && index.size > 0) throw new AppError('conflict', `The single page "${type.name}" already has its entry.`);
  if (index.getBySlug(entry.slug)) throw new AppError('conflict', `The slug "${entry.slug}" is already used in "${type.name}"; rename that entry first.`);
  if (index.get(entry.id)) throw new AppError('conflict', `An active entry with the id "${entry.id}" already exists in "${type.name}".`);
  for (const values of [entry.data, ...Object.values(entry.translations).map((translation) => translation.data)]) {
    const current = Object.fromEntries(Object.entries(values).filter(([key]) => Object.hasOwn(type.fields, key)));
    const { errors } = validateFieldValues(current, type.fields, { partial: true });
    if (Object.keys(errors).length > 0) throw validationFailed(errors, `The trashed entry no longer fits the content type "${type.name}".`);
  }
  const unique = Object.entries(type.fields).filter(([, field]) => field.unique && field.type !== 'relation').map(([name]) => name);
  checkReferences(entry, indexed, () => undefined, unique);
}
