// Content type rules: who may read or change a schema, what a change does to
// existing entries (SPEC "Schema rules"), and the one commit each change is.
import { AppError, validationFailed, type FieldErrors } from '../../errors/app-error.ts';
import type { FileChange } from '../../storage/content-repo.ts';
import { authorize, can } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContentIndex } from '../content/content-index.ts';
import type { ContentReader, ContentTransaction, ContentWriter } from '../content/content-writer.ts';
import { ownTranslationValues } from '../model/entry-from-files.ts';
import { entriesDir, entryFileName, trashDir } from '../model/entry-paths.ts';
import { entryFileWrites } from '../model/entry-to-files.ts';
import type { StoredEntry } from '../model/entry.ts';
import { announcedIn, entryEventDrafts, publicationEvents, type Announcements, type EntryEventDraft, type EventType } from '../model/events.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import type { Workspace } from '../model/workspace-file.ts';
import { isLocalized, type ContentType } from '../model/content-type.ts';
import { typeFilePath, typeToYaml } from '../model/type-files.ts';
import { normalizeContentTypeInput } from '../model/type-input.ts';

/** Content type reads and schema changes, each change one commit; created once by services.ts. */
export class TypeService {
  constructor(
    private readonly repo: ContentReader,
    private readonly writer: ContentWriter,
    private readonly content: ContentIndex,
    private readonly workspaces: WorkspaceService,
    private readonly announcements?: Announcements,
  ) {}

  /** Types the principal may see (public ones, plus private ones with schema.read), in the workspace's order. Throws not_found for an unknown or archived workspace. */
  list(principal: Principal, workspace: string): ContentType[] {
    return this.listIn(principal, this.workspaces.get(workspace));
  }

  /** As list(), in a workspace the caller has found, archived ones included (the dashboard of those who may manage it). */
  listIn(principal: Principal, { slug: workspace, type_order: order }: Workspace): ContentType[] {
    return this.content
      .types(workspace)
      .map(({ type }) => type)
      .filter((type) => this.maySee(principal, workspace, type))
      .sort((a, b) => rank(order, a.name) - rank(order, b.name) || a.name.localeCompare(b.name))
      .map((type) => this.withoutHiddenRelations(principal, workspace, type));
  }

  private maySee(principal: Principal, workspace: string, type: ContentType): boolean {
    return type.visibility === 'public' || can(principal, schemaRead(workspace, type.name));
  }

  // A relation to a type the reader may not see would tell its name: such fields are left out.
  private withoutHiddenRelations(principal: Principal, workspace: string, type: ContentType): ContentType {
    const hidden = Object.entries(type.fields).filter(([, field]) => {
      const target = field.type === 'relation' && field.target ? this.content.findType(workspace, field.target)?.type : undefined;
      return target !== undefined && !this.maySee(principal, workspace, target);
    });
    if (hidden.length === 0) return type;
    const fields = { ...type.fields };
    for (const [name] of hidden) delete fields[name];
    return { ...type, fields };
  }

  private compare(workspace: string, a: string, b: string): number {
    const order = this.workspaces.get(workspace).type_order;
    return rank(order, a) - rank(order, b) || a.localeCompare(b);
  }

  /** One type; private types need schema.read. Throws not_found, unauthorized, forbidden. */
  get(principal: Principal, workspace: string, name: string): ContentType {
    const { type } = this.content.getType(workspace, name);
    if (type.visibility === 'private') authorize(principal, schemaRead(workspace, name));
    return this.withoutHiddenRelations(principal, workspace, type);
  }

  /** Creates a type (one commit). Throws unauthorized, forbidden, validation_failed, conflict. */
  async create(principal: Principal, workspace: string, body: Record<string, unknown>): Promise<ContentType> {
    const name = typeof body.name === 'string' ? body.name : '';
    authorize(principal, { action: 'schema.create', resource: `schema:${name}`, workspace });
    return this.writer.transaction(async (tx) => {
      const type = normalizeContentTypeInput(body, { mode: 'create', typeExists: (other) => other === name || !!this.content.findType(workspace, other) });
      if (this.content.findType(workspace, type.name)) {
        throw new AppError('conflict', `A content type named "${type.name}" already exists.`);
      }
      await this.commit(tx, principal, workspace, type.name, {
        message: `Create type ${type.name}`,
        changes: [{ path: typeFilePath(workspace, type.name), content: typeToYaml(type) }],
        apply: () => this.content.putType(workspace, type),
        event: 'schema.created',
      });
      return type;
    });
  }

  /**
   * Updates a type (partial; `name` in the body is ignored). Enabling
   * localization copies each entry's root values into the new default locale
   * in the same commit. A collection made a single page turns its one entry
   * into the page, told as that entry deleted and the page created (with
   * their publication events). Throws not_found, unauthorized, forbidden, validation_failed, conflict.
   */
  async update(principal: Principal, workspace: string, name: string, body: Record<string, unknown>): Promise<ContentType> {
    this.content.getType(workspace, name);
    authorize(principal, { action: 'schema.update', resource: `schema:${name}`, workspace });
    return this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, name);
      const type = normalizeContentTypeInput(body, {
        mode: 'update',
        existing: indexed.type,
        pathName: name,
        typeExists: (other) => other === name || !!this.content.findType(workspace, other),
      });
      if (type.singleton && !indexed.type.singleton && indexed.index.size > 1) {
        throw new AppError('conflict', `"${name}" has ${indexed.index.size} entries; a single page may have at most one.`);
      }
      const changes: FileChange[] = [{ path: typeFilePath(workspace, name), content: typeToYaml(type) }];
      // Entries whose files the locale settings rewrite: localization enabled, or a new default locale.
      const defaultMoved = defaultLocaleMoved(indexed.type, type);
      let rewritten: StoredEntry[] = [];
      if (!isLocalized(indexed.type) && isLocalized(type)) rewritten = copyRootIntoLocale(indexed.index.all(), type);
      else if (defaultMoved) rewritten = rootOnNewDefault(indexed.index.all(), indexed.type, type);
      for (const entry of rewritten) {
        // The new default locale's own file becomes the root file.
        if (defaultMoved) changes.push({ path: `${entriesDir(workspace, name)}/${entryFileName(entry.slug, type.default_locale)}`, content: null });
        changes.push(...entryFileWrites(workspace, type, entry));
      }
      // A collection made a single page: its one entry becomes the page, in the same commit.
      const [only] = type.singleton && !indexed.type.singleton ? indexed.index.all() : [];
      const page = only && only.slug !== name ? { ...(rewritten[0] ?? only), id: name, slug: name } : undefined;
      if (only && page) {
        const moved = new Set(entryFileWrites(workspace, type, page).map((change) => change.path));
        changes.push(...entryFileWrites(workspace, indexed.type, only).filter((change) => !moved.has(change.path)).map((change) => ({ path: change.path, content: null })));
        changes.push(...entryFileWrites(workspace, type, page));
      }
      // The page is a new entry (id and address), the collection's entry is gone: told as a commit from outside that made the same change tells it.
      const now = Date.now();
      const entryEvents = only && page
        ? [
          ...entryEventDrafts(only, ['content.deleted', ...publicationEvents(only, undefined, now, announcedIn(this.announcements, workspace))]),
          ...entryEventDrafts(page, ['content.created', ...publicationEvents(undefined, page, now)]),
        ]
        : [];
      await this.commit(tx, principal, workspace, name, {
        message: page ? `Update type ${name}: ${only?.slug} becomes the single page` : `Update type ${name}`,
        changes: dropSuperseded(changes),
        apply: () => {
          this.content.putType(workspace, type);
          for (const entry of rewritten) indexed.index.upsert(entry);
          if (only && page) {
            indexed.index.remove(only.id);
            indexed.index.upsert(page);
          }
        },
        event: 'schema.updated',
        entryEvents,
      });
      return type;
    });
  }

  /**
   * Saves the workspace's type order (PATCH /admin/api/content-types/order)
   * in workspace.yaml, one commit, and returns the types in the new order;
   * types not named keep their relative order after the named ones. Needs
   * schema.update on each named type. Throws unauthorized, forbidden,
   * not_found (workspace), validation_failed (unknown or repeated names).
   */
  async reorder(principal: Principal, workspace: string, names: string[]): Promise<ContentType[]> {
    for (const name of names) authorize(principal, { action: 'schema.update', resource: `schema:${name}`, workspace });
    const errors: FieldErrors = {};
    names.forEach((name, position) => {
      if (!this.content.findType(workspace, name)) errors[`names.${position}`] = `No content type "${name}" in workspace "${workspace}".`;
      else if (names.indexOf(name) !== position) errors[`names.${position}`] = `The type "${name}" is named more than once.`;
    });
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
    // The order is read and saved under one hold of the write lock; setTypeOrder joins it.
    await this.writer.transaction(async () => {
      const previous = this.content.types(workspace).map(({ type }) => type.name).sort((a, b) => this.compare(workspace, a, b));
      await this.workspaces.setTypeOrder(workspace, [...names, ...previous.filter((name) => !names.includes(name))], principal);
    });
    return this.list(principal, workspace);
  }

  /**
   * Deletes a type with all its entries and trash, permanently, in one
   * commit. Each entry is told as an entry delete tells it (`content.deleted`,
   * and `content.unpublished` for a public, announced one), after
   * `schema.deleted`, as a commit from outside that removes the type tells
   * them. Throws not_found, unauthorized, forbidden.
   */
  async remove(principal: Principal, workspace: string, name: string): Promise<void> {
    this.content.getType(workspace, name);
    authorize(principal, { action: 'schema.delete', resource: `schema:${name}`, workspace });
    await this.writer.transaction(async (tx) => {
      const { index } = this.content.getType(workspace, name);
      const now = Date.now();
      const announced = announcedIn(this.announcements, workspace);
      const entryEvents = index.all().flatMap((entry) => entryEventDrafts(entry, ['content.deleted', ...publicationEvents(entry, undefined, now, announced)]));
      const files = [
        typeFilePath(workspace, name),
        ...(await this.repo.listFiles(entriesDir(workspace, name))),
        ...(await this.repo.listFiles(trashDir(workspace, name))),
      ];
      const order = this.workspaces.typeOrderWithout(workspace, name);
      await this.commit(tx, principal, workspace, name, {
        message: `Delete type ${name}`,
        changes: [...files.map((path) => ({ path, content: null })), ...(order ? [order.change] : [])],
        apply: () => {
          this.content.removeType(workspace, name);
          order?.apply();
        },
        event: 'schema.deleted',
        entryEvents,
      });
    });
  }

  // One schema commit of the type `name`, telling `event` about it.
  private async commit(tx: ContentTransaction, principal: Principal, workspace: string, name: string, write: SchemaWrite): Promise<void> {
    await tx.commit({
      by: principal,
      message: write.message,
      changes: write.changes,
      trailers: { Workspace: workspace, Type: name },
      apply: write.apply,
      events: [{ type: write.event, workspace, data: { type: name } }, ...(write.entryEvents ?? []).map((event) => ({ ...event, workspace }))],
    });
  }
}

/** What a schema change commits and does once the commit has landed. */
interface SchemaWrite {
  message: string;
  changes: FileChange[];
  apply: () => void;
  event: EventType;
  /** Events of the type's entries the change tells after `event` (a delete's). */
  entryEvents?: EntryEventDraft[];
}

function schemaRead(workspace: string, name: string) {
  return { action: 'schema.read', resource: `schema:${name}`, workspace };
}

function rank(order: string[], name: string): number {
  const position = order.indexOf(name);
  return position === -1 ? Number.MAX_SAFE_INTEGER : position;
}

// SPEC schema rule 5: enabling localization copies root content into the new
// default locale; entries that already hold that translation keep it.
function copyRootIntoLocale(entries: StoredEntry[], type: ContentType): StoredEntry[] {
  return entries
    .filter((entry) => !entry.translations[type.default_locale])
    .map((entry) => ({
      ...entry,
      translations: { ...entry.translations, [type.default_locale]: { title: entry.title, data: structuredClone(entry.data) } },
    }));
}

function defaultLocaleMoved(before: ContentType, after: ContentType): boolean {
  return isLocalized(before) && isLocalized(after) && before.default_locale !== after.default_locale;
}

// The root file is the default locale's page (entry-to-files.ts), so a new default
// locale swaps places with the old one in every entry that has a translation in it;
// the others keep their root values as the fallback (SPEC schema rule 5).
function rootOnNewDefault(entries: StoredEntry[], before: ContentType, after: ContentType): StoredEntry[] {
  const [from, to] = [before.default_locale, after.default_locale];
  return entries.filter((entry) => entry.translations[to] !== undefined).map((entry) => {
    const page = entry.translations[to];
    const data = { ...entry.data, ...page.data };
    const title = page.title || entry.title;
    const translations = { ...entry.translations, [to]: { title, data }, [from]: { title: entry.title, data: ownTranslationValues(entry.data, data) } };
    return { ...entry, title, data, translations };
  });
}


// The last change to a path wins (a localized copy written, then the same entry moved).
function dropSuperseded(changes: FileChange[]): FileChange[] {
  const last = new Map(changes.map((change) => [change.path, change]));
  return [...last.values()];
}
