// Commits made outside the server (plain git in the content folder, a pull,
// later a push) reach the in-memory index through the write path
// (content-writer.ts): HEAD is polled, and the paths a run of such commits
// changed are re-read here. The entries and types they change are told to the
// event bus like API writes.
import type { Logger } from '../../lib/logger.ts';
import type { ChangedPath } from '../../storage/content-repo.ts';
import { announcedIn, entryEventDrafts, keptPublic, publicationEvents, wholesalePublicationEvents, type Announcements, type EventType, type WorkspaceMove } from '../model/events.ts';
import type { AnnouncedCheck, StoredEntry } from '../model/entry.ts';
import type { ContentIndex, EntryChange } from './content-index.ts';
import type { ChangeTold, ContentFiles, ContentWriter, EventDraft, ReadAt } from './content-writer.ts';
import { checkWorkspaceFolder } from './file-rules.ts';
import type { ProblemRegister } from './problem-register.ts';
import { typesDir } from '../model/type-files.ts';
import { groupByWorkspace, workspaceFilePath } from '../model/workspace-file.ts';

/**
 * The workspace registry as re-reading needs it. WorkspaceService sits above
 * this folder (it writes through the content writer), so it is handed in as
 * this, never imported.
 */
export interface WorkspaceRegistry {
  find(slug: string): { archived: boolean } | undefined;
  reload(slug: string, files: Pick<ContentFiles, 'readFile'>): Promise<void>;
}

/** An in-memory index beside the content index (the media library), read whole when its workspace arrives, path by path after, dropped when it goes. */
export interface FurtherIndex {
  loadWorkspace(workspace: string, files: ContentFiles): Promise<void>;
  applyExternalChanges(workspace: string, changes: ChangedPath[], files: ContentFiles): Promise<unknown>;
  forgetWorkspace(workspace: string): void;
}

/** The in-memory pictures that commits from outside are re-read into. */
export interface ReadModels {
  content: ContentIndex;
  workspaces: WorkspaceRegistry;
  /** Further in-memory indexes (the media library) that re-read the paths a commit changed. */
  indexes?: FurtherIndex[];
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
 * names (ReadAt), and returns the events that tell what changed and the
 * workspaces archived, brought back or removed. The content
 * writer calls it for commits made outside the server and for restored
 * backups, holding the write lock; `at.committedAt` dates entries a commit
 * changed without a new `lastmod` (commit-dates.ts). Throws what reading the
 * files throws.
 */
export async function reindexChangedPaths(models: ReadModels, changes: ChangedPath[], at: ReadAt): Promise<ChangeTold> {
  const told: ChangeTold = { events: [], workspaces: [] };
  // Publication is judged when the server takes the commits in, as for its own writes (events.ts).
  const now = Date.now();
  for (const [workspace, paths] of groupByWorkspace(changes)) {
    const run: WorkspaceRun = { workspace, paths, at, now, announced: announcedIn(models.announcements, workspace) };
    const { events, change } = await reindexWorkspace(models, run);
    for (const event of events) told.events.push({ ...event, workspace });
    if (change) told.workspaces.push({ workspace, change });
  }
  return told;
}

type Draft = Omit<EventDraft, 'workspace'>;

/** One workspace's share of the changed paths, read at `at`, publication judged at `now`. */
interface WorkspaceRun {
  workspace: string;
  paths: ChangedPath[];
  at: ReadAt;
  now: number;
  announced: AnnouncedCheck | undefined;
}

/** Whether a workspace's entries were on the public API before the commits (`wasLive`) and are after them (`live`). */
interface Liveness {
  wasLive: boolean;
  live: boolean;
}

// The workspace file first: whether the workspace exists, and is active,
// decides what its other files mean. A workspace known before that the
// commits removed, archived or brought back is that `change` too.
async function reindexWorkspace(models: ReadModels, run: WorkspaceRun): Promise<{ events: Draft[]; change?: WorkspaceMove }> {
  if (checkWorkspaceFolder(run.workspace)) return { events: await skipMisnamedFolder(models, run) };
  const { workspaces } = models;
  const known = !!workspaces.find(run.workspace);
  // Only an active workspace is on the public API (an archived one answers 404), so only its entries are told published or unpublished.
  const wasLive = isLive(workspaces, run.workspace);
  await reloadWorkspaceFile(models, run, known);
  if (!workspaces.find(run.workspace)) return { events: await leaveWorkspace(models, run, { known, wasLive }), ...(known && { change: 'removed' as const }) };
  const live = isLive(workspaces, run.workspace);
  const events = await reindexContent(models, run, { arrived: !known, wasLive, live });
  return { events, ...(known && wasLive !== live && { change: live ? 'restored' as const : 'archived' as const }) };
}

// A workspace the commits added is read whole here: its types and entries are all new.
async function reloadWorkspaceFile(models: ReadModels, run: WorkspaceRun, known: boolean): Promise<void> {
  if (!run.paths.some((change) => change.path === workspaceFilePath(run.workspace))) return;
  await models.workspaces.reload(run.workspace, run.at.files);
  if (known) return;
  models.problems?.forgetChanged(run.workspace, [], { wholeWorkspace: true });
  await models.content.loadWorkspace(run.workspace, run.at.files);
}

// A folder whose name is no workspace slug is never a workspace, whatever
// it holds (the registry does not take it): only its workspace.yaml is
// reported, again after every change to the folder.
async function skipMisnamedFolder(models: ReadModels, run: WorkspaceRun): Promise<Draft[]> {
  models.problems?.forgetWorkspace(run.workspace);
  await models.content.checkFolderName(run.workspace, run.at.files);
  return [];
}

// A workspace gone with its workspace.yaml (or never there: a folder without
// one) is no longer read: none of its files is skipped any more.
function leaveWorkspace(models: ReadModels, run: WorkspaceRun, { known, wasLive }: { known: boolean; wasLive: boolean }): Draft[] {
  const events = known ? forgetDepartedWorkspace(models, run, wasLive) : [];
  models.problems?.forgetWorkspace(run.workspace);
  return events;
}

// What the workspace held is told deleted, then dropped from memory, the
// further indexes' records too: those its commits removed lose their local
// files then (media-removals.ts), and those still in the repo are read again
// if the workspace comes back, as any arrival is.
function forgetDepartedWorkspace(models: ReadModels, run: WorkspaceRun, wasLive: boolean): Draft[] {
  const events = departureEvents(models.content, run, wasLive);
  models.content.forgetWorkspace(run.workspace);
  for (const index of models.indexes ?? []) index.forgetWorkspace(run.workspace);
  return events;
}

// A workspace that is there after the commits (added, kept, archived or
// brought back): its changed files read again, and what that means.
async function reindexContent(models: ReadModels, run: WorkspaceRun, { arrived, ...liveness }: Liveness & { arrived: boolean }): Promise<Draft[]> {
  const { content } = models;
  const { wasLive, live } = liveness;
  // Archived: its public entries leave the site with it, whatever else the commits changed.
  const leaving = wasLive && !live ? content.entries(run.workspace) : [];
  const typesBefore = arrived ? new Map<string, string>() : typeVersions(content, run.workspace);
  const entryChanges = await rereadChangedFiles(models, run, arrived);
  const changed = new Set(entryChanges.flatMap(({ before, after }) => [before?.id, after?.id]));
  const untouched = (entries: StoredEntry[]) => entries.filter((entry) => !changed.has(entry.id));
  const arrivals: EntryChange[] = arrived ? untouched(content.entries(run.workspace)).map((after) => ({ type: after.type, after })) : [];
  // Entries the commits did not touch, leaving the site or coming back with their workspace (archived, restored).
  const unchanged = arrived || wasLive === live ? [] : untouched(live ? content.entries(run.workspace) : leaving);
  const events = [
    ...schemaEvents(typesBefore, typeVersions(content, run.workspace)),
    ...[...entryChanges, ...arrivals].flatMap((change) => entryEvents(change, run.now, run.announced, liveness)),
    ...wholesalePublicationEvents(unchanged, !live, run.now, run.announced),
  ];
  // After the events are judged: telling the scheduler changes what `announced` answers.
  tellKeptPublic(models, run, entryChanges, liveness);
  return events;
}

// The problems of the changed files are forgotten first, so what is still
// wrong with them is reported again; a changed type file makes the index
// read the whole workspace again (content-index.ts). A workspace that
// `arrived` was read whole by the content index with its workspace.yaml, at
// the same commit (reloadWorkspaceFile()): reading its changed files again
// would report (and log) each file it skips twice, so only the further
// indexes read it now, all its files: those committed before its
// workspace.yaml were read by none. Its entries are all arrivals.
async function rereadChangedFiles(models: ReadModels, run: WorkspaceRun, arrived: boolean): Promise<EntryChange[]> {
  const { workspace, paths, at } = run;
  if (arrived) {
    for (const index of models.indexes ?? []) await index.loadWorkspace(workspace, at.files);
    return [];
  }
  const typeChanged = paths.some((change) => change.path.startsWith(`${typesDir(workspace)}/`));
  models.problems?.forgetChanged(workspace, paths.map((change) => change.path), { wholeWorkspace: typeChanged });
  const entryChanges = await models.content.applyExternalChanges(workspace, paths, at);
  await reindexFurtherIndexes(models, run);
  return entryChanges;
}

async function reindexFurtherIndexes(models: ReadModels, run: WorkspaceRun): Promise<void> {
  for (const index of models.indexes ?? []) await index.applyExternalChanges(run.workspace, run.paths, run.at.files);
}

function tellKeptPublic(models: ReadModels, run: WorkspaceRun, entryChanges: EntryChange[], { wasLive, live }: Liveness): void {
  if (!wasLive || !live) return;
  for (const { before, after } of entryChanges) {
    if (before && after && keptPublic(before, after, run.now, run.announced)) models.announcements?.keptPublic(run.workspace, after);
  }
}

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
// a public, announced entry unpublished, as an entry delete is told; all of
// them one change of the workspace (`withWorkspace`), one activity line.
function departureEvents(content: ContentIndex, run: WorkspaceRun, wasLive: boolean): Draft[] {
  const liveness = { wasLive, live: false };
  const events = [
    ...schemaEvents(typeVersions(content, run.workspace), new Map()),
    ...content.entries(run.workspace).flatMap((before) => entryEvents({ type: before.type, before }, run.now, run.announced, liveness)),
  ];
  return events.map((event) => ({ ...event, withWorkspace: 'removed' }));
}

function isLive(workspaces: WorkspaceRegistry, workspace: string): boolean {
  const found = workspaces.find(workspace);
  return found !== undefined && !found.archived;
}

// The same events an API write of the same change emits (entry-service.ts),
// publication judged at `now`; an entry counts as public only while its
// workspace is active before (`wasLive`) and after (`live`) the commits.
function entryEvents(change: EntryChange, now: number, announced: AnnouncedCheck | undefined, { wasLive, live }: Liveness): Draft[] {
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
