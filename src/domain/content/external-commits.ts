// Commits made outside the server (plain git in the content folder, or a pull)
// are noticed by polling HEAD and applied to the in-memory index path by path.
// The entries and types they change are told to the event bus like API writes.
import type { Logger } from '../../lib/logger.ts';
import type { ChangedPath, ContentRepo } from '../../storage/content-repo.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import { statusEvents } from '../entries/entry-writes.ts';
import type { DomainEvent, EventBus, EventType } from '../model/events.ts';
import type { ContentIndex, EntryChange } from './content-index.ts';

/** What watchExternalCommits() reads from and reports to. */
export interface WatchOptions {
  repo: ContentRepo;
  content: ContentIndex;
  workspaces: WorkspaceService;
  logger: Logger;
  intervalMs: number;
  /** Receives content.* and schema.* events for what the commits changed. */
  events?: EventBus;
  /** Further in-memory indexes (the media library) that re-read the paths a commit changed. */
  indexes?: { applyExternalChanges(workspace: string, changes: ChangedPath[]): Promise<unknown> }[];
}

/** Starts watching; returns the function that stops it. Failures are logged, never thrown. */
export function watchExternalCommits(options: WatchOptions): () => void {
  const { repo, logger } = options;
  return repo.watchHead(async (from, to) => {
    try {
      const changes = await repo.changedPaths(from, to);
      await reindexChangedPaths(options, changes);
      logger.info('indexed an external commit', { commit: to, files: changes.length });
    } catch (error) {
      logger.error('could not index an external commit', { commit: to, error });
    }
  }, options.intervalMs);
}

/**
 * Applies the paths a commit changed to the in-memory picture (workspaces,
 * types and entries, further indexes) and tells the event bus what changed.
 * Used for commits made outside the server and for restored backups; call it
 * inside repo.serialize(). Throws what reading the files throws.
 */
export async function reindexChangedPaths(options: Pick<WatchOptions, 'content' | 'workspaces' | 'events' | 'indexes'>, changes: ChangedPath[]): Promise<void> {
  const { content, workspaces } = options;
  for (const [workspace, paths] of groupByWorkspace(changes)) {
    if (paths.some((change) => change.path === `${workspace}/workspace.yaml`)) {
      const known = !!workspaces.find(workspace);
      await workspaces.reload(workspace);
      if (!known) await content.loadWorkspace(workspace);
    }
    if (!workspaces.find(workspace)) continue;
    const typesBefore = typeVersions(content, workspace);
    const entryChanges = await content.applyExternalChanges(workspace, paths);
    for (const index of options.indexes ?? []) await index.applyExternalChanges(workspace, paths);
    const occurredAt = new Date().toISOString();
    for (const event of [...schemaEvents(typesBefore, typeVersions(content, workspace)), ...entryChanges.flatMap(entryEvents)]) {
      options.events?.emit({ ...event, workspace, occurredAt });
    }
  }
}

function groupByWorkspace(changes: ChangedPath[]): Map<string, ChangedPath[]> {
  const groups = new Map<string, ChangedPath[]>();
  for (const change of changes) {
    const workspace = change.path.split('/')[0];
    groups.set(workspace, [...(groups.get(workspace) ?? []), change]);
  }
  return groups;
}

type EventDraft = Pick<DomainEvent, 'type' | 'data'>;

function typeVersions(content: ContentIndex, workspace: string): Map<string, string> {
  return new Map(content.types(workspace).map(({ type }) => [type.name, JSON.stringify(type)]));
}

function schemaEvents(before: Map<string, string>, after: Map<string, string>): EventDraft[] {
  const events: EventDraft[] = [];
  for (const [name, version] of after) {
    const old = before.get(name);
    if (old === undefined) events.push({ type: 'schema.created', data: { type: name } });
    else if (old !== version) events.push({ type: 'schema.updated', data: { type: name } });
  }
  for (const name of before.keys()) if (!after.has(name)) events.push({ type: 'schema.deleted', data: { type: name } });
  return events;
}

// The same events an API write of the same change emits (entry-service.ts).
function entryEvents(change: EntryChange): EventDraft[] {
  const entry = change.after ?? change.before;
  if (entry === undefined) return [];
  const types: EventType[] = !change.before
    ? ['content.created', ...statusEvents(undefined, entry)]
    : !change.after
      ? ['content.deleted']
      : ['content.updated', ...statusEvents(change.before, change.after)];
  return types.map((type) => ({ type, data: { type: entry.type, id: entry.id, slug: entry.slug } }));
}
