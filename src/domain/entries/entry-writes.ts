// The shared mechanics of an entry write, used by the entry, trash and
// revision services: which files a change touches, the commit with its
// trailers, and the domain events told after it. The rules (what may change)
// stay with each service; this only turns a decided change into one commit.
import type { CommitInfo, ContentRepo, FileChange } from '../../storage/content-repo.ts';
import { actorIdOf, gitAuthorOf, type Principal } from '../auth/principal.ts';
import type { EventBus, EventType } from '../model/events.ts';
import type { ContentType } from '../model/content-type.ts';
import { entriesDir, entryToFiles, trashDir } from '../model/entry-files.ts';
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

/** What one entry commit says about itself. */
export interface EntryCommit {
  workspace: string;
  type: string;
  /** The entry ids the commit is about (bulk writes name several). */
  ids: string[];
  message: string;
  changes: FileChange[];
}

/**
 * Writes one commit authored by the principal, with the Workspace, Type,
 * Entry (or Entries) and Actor trailers. Call it inside `repo.serialize`.
 * Throws what commitChanges throws (invalid_request, conflict).
 */
export function commitEntryChange(repo: ContentRepo, principal: Principal, commit: EntryCommit): Promise<CommitInfo> {
  const ids: Record<string, string> = commit.ids.length === 1 ? { Entry: commit.ids[0] } : { Entries: commit.ids.join(' ') };
  return repo.commitChanges({
    changes: commit.changes,
    message: commit.message,
    author: gitAuthorOf(principal),
    trailers: { Workspace: commit.workspace, Type: commit.type, ...ids, Actor: actorIdOf(principal) ?? 'anonymous' },
  });
}

/** Tells the event bus about a committed entry change, one event per type, with `{ type, id, slug }`. Throws nothing. */
export function emitEntryEvents(events: EventBus, principal: Principal, workspace: string, entry: StoredEntry, types: EventType[], now: number): void {
  const occurredAt = new Date(now).toISOString();
  for (const type of types) {
    events.emit({ type, workspace, occurredAt, actor: actorIdOf(principal), data: { type: entry.type, id: entry.id, slug: entry.slug } });
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
