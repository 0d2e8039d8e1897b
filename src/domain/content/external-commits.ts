// Commits made outside the server (plain git in the content folder, a pull,
// later a push) reach the in-memory index through the write path
// (content-writer.ts): HEAD is polled, and the paths a run of such commits
// changed are re-read here. The entries and types they change are told to the
// event bus like API writes.
import type { Logger } from '../../lib/logger.ts';
import type { ChangedPath } from '../../storage/content-repo.ts';
import { announcedIn, entryEventDrafts, keptPublic, publicationEvents, wholesalePublicationEvents, type Announcements, type EventType } from '../model/events.ts';
import type { AnnouncedCheck } from '../model/entry.ts';
import type { ContentIndex, EntryChange } from './content-index.ts';
import type { ContentFiles, ContentWriter, EventDraft, ReadAt } from './content-writer.ts';
import type { ProblemRegister } from './problem-register.ts';
import { typesDir } from '../model/type-files.ts';
import { groupByWorkspace } from '../model/workspace-file.ts';

/**
 * The workspace registry as re-reading needs it. WorkspaceService sits above
 * this folder (it writes through the content writer), so it is handed in as
 * this, never imported.
 */
export interface WorkspaceRegistry {
  find(slug: string): { archived: boolean } | undefined;
  reload(slug: string, files: Pick<ContentFiles, 'readFile'>): Promise<void>;
}

/** The in-memory pictures that commits from outside are re-read into. */
export interface ReadModels {
  content: ContentIndex;
  workspaces: WorkspaceRegistry;
  /** Further in-memory indexes (the media library) that re-read the paths a commit changed. */
  indexes?: { applyExternalChanges(workspace: string, changes: ChangedPath[], files: ContentFiles): Promise<unknown> }[];
  /** The files the loaders skip; told what is about to be read again, so fixed files drop out. */
  problems?: ProblemRegister;
  /** The publish scheduler's: an entry that came due moments ago is published by the commit that keeps it public. */
  announcements?: Announcements;
}

/** What watchExternalCommits() writes through and logs to. */
export interface WatchOptions {
  writer: ContentWriter;
  logger: Logger;
  intervalMs: number;
}

/** Starts watching HEAD; returns the function that stops it. Failures are logged, never thrown. */
export function watchExternalCommits(options: WatchOptions): () => void {
  const { writer, logger } = options;
  return writer.onExternalCommits(async (tx, from, to, readAt) => {
    try {
      const changes = await tx.receiveCommits(from, to, readAt);
      logger.info('indexed an external commit', { commit: to, files: changes.length });
    } catch (error) {
      logger.error('could not index an external commit', { commit: to, error });
    }
  }, options.intervalMs);
}

/**
 * Applies the paths commits changed to the in-memory picture (workspaces,
 * types and entries, further indexes), reading them at the commit `at`
 * names (ReadAt), and returns the events that tell what changed. The content
 * writer calls it for commits made outside the server and for restored
 * backups, holding the write lock; `at.committedAt` dates entries a commit
 * changed without a new `lastmod` (commit-dates.ts). Throws what reading the
 * files throws.
 */
export async function reindexChangedPaths(models: ReadModels, changes: ChangedPath[], at: ReadAt): Promise<EventDraft[]> {
  const { content, workspaces } = models;
  const events: EventDraft[] = [];
  // Publication is judged when the server takes the commits in, as for its own writes (events.ts).
  const now = Date.now();
  for (const [workspace, paths] of groupByWorkspace(changes)) {
    const known = !!workspaces.find(workspace);
    // Only an active workspace is on the public API (an archived one answers 404), so only its entries are told published or unpublished.
    const wasLive = isLive(workspaces, workspace);
    const announced = announcedIn(models.announcements, workspace);
    if (paths.some((change) => change.path === `${workspace}/workspace.yaml`)) {
      await workspaces.reload(workspace, at.files);
      if (!known) {
        models.problems?.forgetChanged(workspace, [], { wholeWorkspace: true });
        await content.loadWorkspace(workspace, at.files);
      }
    }
    const live = isLive(workspaces, workspace);
    if (!workspaces.find(workspace)) {
      if (known) {
        for (const event of departureEvents(content, now, announced, { workspace, wasLive })) events.push({ ...event, workspace });
        content.forgetWorkspace(workspace);
        // The media records removed with the folder go, and with them their local files (media-removals.ts).
        for (const index of models.indexes ?? []) await index.applyExternalChanges(workspace, paths, at.files);
      }
      // A workspace that went away is no longer read: none of its files is skipped.
      models.problems?.forgetWorkspace(workspace);
      continue;
    }
    // Archived: its public entries leave the site with it, whatever else the commits changed.
    const leaving = wasLive && !live ? content.entries(workspace) : [];
    // A changed type file makes the index read the whole workspace again (content-index.ts).
    const typeChanged = paths.some((change) => change.path.startsWith(`${typesDir(workspace)}/`));
    models.problems?.forgetChanged(workspace, paths.map((change) => change.path), { wholeWorkspace: typeChanged });
    // A workspace the commits added was read whole above: its types and entries are all new.
    const arrived = !known;
    const typesBefore = arrived ? new Map<string, string>() : typeVersions(content, workspace);
    const entryChanges = await content.applyExternalChanges(workspace, paths, at);
    for (const index of models.indexes ?? []) await index.applyExternalChanges(workspace, paths, at.files);
    const changed = new Set(entryChanges.flatMap(({ before, after }) => [before?.id, after?.id]));
    const arrivals: EntryChange[] = arrived ? content.entries(workspace).filter((entry) => !changed.has(entry.id)).map((after) => ({ type: after.type, after })) : [];
    // Entries the commits did not touch, leaving the site or coming back with their workspace (archived, restored).
    const unchanged = arrived || wasLive === live ? [] : (live ? content.entries(workspace) : leaving).filter((entry) => !changed.has(entry.id));
    const liveness = { wasLive, live };
    for (const event of [
      ...schemaEvents(typesBefore, typeVersions(content, workspace)),
      ...[...entryChanges, ...arrivals].flatMap((change) => entryEvents(change, now, announced, liveness)),
      ...wholesalePublicationEvents(unchanged, !live, now, announced),
    ]) {
      events.push({ ...event, workspace });
    }
    // After the events are judged: telling the scheduler changes what `announced` answers.
    for (const { before, after } of entryChanges) {
      if (wasLive && live && before && after && keptPublic(before, after, now, announced)) models.announcements?.keptPublic(workspace, after);
    }
  }
  return events;
}

type Draft = Omit<EventDraft, 'workspace'>;

function typeVersions(content: ContentIndex, workspace: string): Map<string, string> {
  return new Map(content.types(workspace).map(({ type }) => [type.name, JSON.stringify(type)]));
}

function schemaEvents(before: Map<string, string>, after: Map<string, string>): Draft[] {
  const events: Draft[] = [];
  for (const [name, version] of after) {
    const old = before.get(name);
    if (old === undefined) events.push({ type: 'schema.created', data: { type: name } });
    else if (old !== version) events.push({ type: 'schema.updated', data: { type: name } });
  }
  for (const name of before.keys()) if (!after.has(name)) events.push({ type: 'schema.deleted', data: { type: name } });
  return events;
}

// A workspace gone with its workspace.yaml is on no API any more: each of its
// types and entries is told deleted, as its arrival told them created, and
// a public, announced entry unpublished, as an entry delete is told.
function departureEvents(content: ContentIndex, now: number, announced: AnnouncedCheck | undefined, { workspace, wasLive }: { workspace: string; wasLive: boolean }): Draft[] {
  const liveness = { wasLive, live: false };
  return [
    ...schemaEvents(typeVersions(content, workspace), new Map()),
    ...content.entries(workspace).flatMap((before) => entryEvents({ type: before.type, before }, now, announced, liveness)),
  ];
}

function isLive(workspaces: WorkspaceRegistry, workspace: string): boolean {
  const found = workspaces.find(workspace);
  return found !== undefined && !found.archived;
}

// The same events an API write of the same change emits (entry-service.ts),
// publication judged at `now`; an entry counts as public only while its
// workspace is active before (`wasLive`) and after (`live`) the commits.
function entryEvents(change: EntryChange, now: number, announced: AnnouncedCheck | undefined, { wasLive, live }: { wasLive: boolean; live: boolean }): Draft[] {
  const entry = change.after ?? change.before;
  if (entry === undefined) return [];
  const [before, after] = [wasLive ? change.before : undefined, live ? change.after : undefined];
  const types: EventType[] = !change.before
    ? ['content.created', ...publicationEvents(undefined, after, now)]
    : !change.after
      ? ['content.deleted', ...publicationEvents(before, undefined, now, announced)]
      : ['content.updated', ...publicationEvents(before, after, now, announced)];
  return entryEventDrafts(entry, types, change.after ? change.before?.slug : undefined);
}
