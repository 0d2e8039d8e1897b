// The shared mechanics of an entry write, used by the entry, trash and
// revision services: which files a change touches, the commit with its
// trailers, and the domain events told after it. The rules (what may change)
// stay with each service; this only turns a decided change into one commit.
import type { CommitInfo, FileChange } from '../../storage/content-repo.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContentTransaction, EventDraft } from '../content/content-writer.ts';
import { entryEventDrafts, type EventType } from '../model/events.ts';
import { isLocalized, type ContentType } from '../model/content-type.ts';
import { entriesDir, entryFileName, trashDir } from '../model/entry-paths.ts';
import { entryToFiles } from '../model/entry-to-files.ts';
import type { StoredEntry } from '../model/entry.ts';

/**
 * The file changes that turn `before` into `after` under `{ws}/entries/{type}`:
 * every old file deleted, every new file written (a file in both is written).
 * Either side may be undefined (create, delete).
 */
export function entryFileChanges(workspace: string, type: ContentType, before: StoredEntry | undefined, after: StoredEntry | undefined): FileChange[] {
  const dir = entriesDir(workspace, type.name);
  const changes = new Map<string, FileChange>();
  if (before) for (const file of entryToFiles(before, type).keys()) changes.set(file, { path: `${dir}/${file}`, content: null });
  // A `{slug}.{default}.md` from the earlier layout is folded into the root file by the first write.
  if (before && isLocalized(type)) {
    const legacy = entryFileName(before.slug, type.default_locale);
    changes.set(legacy, { path: `${dir}/${legacy}`, content: null });
  }
  if (after) for (const [file, content] of entryToFiles(after, type)) changes.set(file, { path: `${dir}/${file}`, content });
  return [...changes.values()];
}

/** The repo folder of one trashed entry: `{ws}/trash/{type}/{id}`; ids never repeat, so trashed entries never collide. */
export function trashFolderOf(workspace: string, type: string, id: string): string {
  return `${trashDir(workspace, type)}/${id}`;
}

/** The files a soft delete writes: the entry's files in its trash folder, `deleted_at`/`deleted_by` in the root front matter. */
export function trashFileChanges(workspace: string, type: ContentType, entry: StoredEntry, deleted: { at: string; by: string | undefined }): FileChange[] {
  const folder = trashFolderOf(workspace, type.name, entry.id);
  const files = entryToFiles(entry, type, { deleted_at: deleted.at, deleted_by: deleted.by ?? null });
  return [...files].map(([file, content]) => ({ path: `${folder}/${file}`, content }));
}

/** What one entry commit says about itself, and what it does in memory once it has landed. */
export interface EntryCommit {
  workspace: string;
  type: string;
  /** The entry ids the commit is about (bulk writes name several). */
  ids: string[];
  message: string;
  changes: FileChange[];
  /** The index update (see ContentChange.apply). */
  apply?: () => void;
  events?: EventDraft[];
}

/**
 * Commits an entry change through the transaction, authored by the
 * principal, with the Workspace, Type and Entry (or Entries) trailers.
 * Throws what ContentTransaction.commit throws (invalid_request, conflict).
 */
export function commitEntryChange(tx: ContentTransaction, principal: Principal, commit: EntryCommit): Promise<CommitInfo> {
  const ids: Record<string, string> = commit.ids.length === 1 ? { Entry: commit.ids[0] } : { Entries: commit.ids.join(' ') };
  return tx.commit({
    by: principal,
    changes: commit.changes,
    message: commit.message,
    trailers: { Workspace: commit.workspace, Type: commit.type, ...ids },
    apply: commit.apply,
    events: commit.events,
  });
}

/** The events of one entry change, one per type, with `{ type, id, slug }` and `previous_slug` when the slug changed. */
export function entryEvents(workspace: string, entry: StoredEntry, types: EventType[], previousSlug?: string): EventDraft[] {
  return entryEventDrafts(entry, types, previousSlug).map((event) => ({ ...event, workspace }));
}
