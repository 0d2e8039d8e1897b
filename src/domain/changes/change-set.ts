// What changed in one workspace between two commits, read from git alone and
// the same for every caller: the types and entries on either side, matched by
// id, each with the newest commit that touched its files. Only the files that
// differ are parsed, on both sides; who may see what is decided later
// (changes-feed.ts), so one change set serves every caller and every page.
import { basename } from 'node:path/posix';
import { AppError } from '../../errors/app-error.ts';
import type { ChangedPath, CommitInfo, NewestChange } from '../../storage/content-repo.ts';
import type { ContentReader } from '../content/content-writer.ts';
import { checkEntryFiles, checkTypeFile } from '../content/file-rules.ts';
import type { ContentType } from '../model/content-type.ts';
import { entriesDir, entryFileName, groupBySlug, parseEntryFileName, parseEntryPath } from '../model/entry-paths.ts';
import type { StoredEntry } from '../model/entry.ts';
import { typeFilePath, typeFilesAmong, typeNameOfPath, typesDir } from '../model/type-files.ts';
import { readWorkspaceYaml, workspaceFilePath } from '../model/workspace-file.ts';
import { groupBy } from '../../lib/group-by.ts';

/** The reads a change set needs: the repo's history and files at a commit. */
export type ChangeReader = Pick<ContentReader, 'commitInfo' | 'changedPaths' | 'listFilesAt' | 'readAt' | 'newestChanges'>;

/** What visibility needs of an entry on one side. */
export type EntrySide = Pick<StoredEntry, 'id' | 'slug' | 'status' | 'published_at'>;

/** A change of one translation file (`{slug}.{locale}.md`) of an entry. */
export interface TranslationChange {
  locale: string;
  change: ChangedPath['change'];
  commit: CommitInfo;
}

/** An entry whose files differ: its state at `since` and at `head` (absent where it did not exist or could not be read). */
export interface TouchedEntry {
  type: string;
  id: string;
  before?: EntrySide;
  after?: EntrySide;
  /** Whether its root file (`{slug}.md`) differs, or it moved to another slug. */
  rootChanged: boolean;
  translations: TranslationChange[];
  /** The newest commit that changed any of its files. */
  commit: CommitInfo;
}

/** A content type on both sides (absent where it did not exist or could not be read) and whether its file differs. */
export interface TypeSides {
  name: string;
  before?: ContentType;
  after?: ContentType;
  changed: boolean;
  /** The newest commit that changed its file (HEAD when it did not change). */
  commit: CommitInfo;
}

/** Everything that differs in a workspace between `since` and `head`. */
export interface ChangeSet {
  since: CommitInfo;
  head: CommitInfo;
  types: Map<string, TypeSides>;
  entries: TouchedEntry[];
  /** The side the workspace is off the API on while on it at the other (archived, removed or not yet there), whose every type and entry is then touched; absent when on both or neither. */
  emptySide?: 'since' | 'head';
  /** Whether the workspace is on the API at `head`, and why not. */
  atHead: WorkspacePresence;
}

/**
 * A workspace at a commit: `live` (its workspace.yaml there and not
 * archived), `archived` (an `archived` the file does not say clearly counts
 * as archived, as a server starting on that commit reads it) or `removed`
 * (no workspace.yaml).
 */
export type WorkspacePresence = 'live' | 'archived' | 'removed';

/** The workspace's presence at commit `oid`. Throws not_found for an unknown commit. */
export async function presenceAt(repo: Pick<ContentReader, 'readAt'>, workspace: string, oid: string): Promise<WorkspacePresence> {
  const text = await repo.readAt(oid, workspaceFilePath(workspace));
  if (text === undefined) return 'removed';
  return readWorkspaceYaml(workspace, text).workspace.archived ? 'archived' : 'live';
}

/** Bounds on the work of one change set. */
export interface ChangeSetLimits {
  /** Most changed files under the workspace's types/ and entries/ that are read; more is `conflict`. */
  maxFiles: number;
  /** Most commits walked back from `head` to find which commit changed each file. */
  maxCommits: number;
}

// Object reads and parsing are synchronous, so a large range gives other requests a turn this often.
const YIELD_EVERY_MS = 10;

/**
 * Reads what changed in `workspace` between the commits `since` and `head`.
 * Throws not_found for an unknown commit and conflict when more than
 * `limits.maxFiles` files changed (the caller starts over without since).
 */
export async function readChangeSet(repo: ChangeReader, workspace: string, range: { since: string; head: string }, limits: ChangeSetLimits): Promise<ChangeSet> {
  const [since, head] = await Promise.all([repo.commitInfo(range.since), repo.commitInfo(range.head)]);
  const [atSince, atHead] = await Promise.all([since, head].map(({ oid }) => presenceAt(repo, workspace, oid)));
  const sides: Sides = { since, head, emptySide: emptySide(atSince, atHead) };
  const typePaths = await changedFiles(repo, sides, typesDir(workspace));
  const entryPaths = await changedFiles(repo, sides, `${workspace}/entries`);
  if (typePaths.length + entryPaths.length > limits.maxFiles) {
    throw new AppError('conflict', `More than ${limits.maxFiles} files changed since ${since.oid}; read the changes without since to start over from the current content.`);
  }
  // A workspace that arrived or went (its workspace.yaml added, removed or archiving it) changed all its files with the newest commit that changed that file.
  const paths = sides.emptySide === undefined ? [...typePaths, ...entryPaths].map((change) => change.path) : [workspaceFilePath(workspace)];
  const commits = await repo.newestChanges({ head: head.oid, since: since.oid, paths, maxCommits: limits.maxCommits });
  // A file whose commit the bounded walk did not reach (since is no ancestor of head) is dated at head.
  const commitOf = (path: string): NewestChange => commits.get(sides.emptySide === undefined ? path : workspaceFilePath(workspace)) ?? { commit: head, depth: 0 };
  const types = await readTypes(repo, workspace, sides, typePaths, commitOf);
  const entries = await readEntries(repo, workspace, { since, head, types }, entryPaths, commitOf);
  return { since, head, types, entries, ...(sides.emptySide && { emptySide: sides.emptySide }), atHead };
}

/** The two commits of a change set, and the one the workspace is not on while it is on the other. */
interface Sides {
  since: CommitInfo;
  head: CommitInfo;
  /**
   * `head` for a workspace that left the API after `since` (archived, or its
   * workspace.yaml removed with git), `since` for one that came after it
   * (added, brought back, or its file added back over files it had kept):
   * nothing of the workspace is seen there.
   */
  emptySide?: 'since' | 'head';
}

function emptySide(atSince: WorkspacePresence, atHead: WorkspacePresence): Sides['emptySide'] {
  const [wasLive, isLive] = [atSince === 'live', atHead === 'live'];
  return wasLive === isLive ? undefined : wasLive ? 'head' : 'since';
}

// The files under `folder` that differ between the sides: with one side
// empty, every file of the other.
async function changedFiles(repo: ChangeReader, sides: Sides, folder: string): Promise<ChangedPath[]> {
  if (sides.emptySide === undefined) return repo.changedPaths(sides.since.oid, sides.head.oid, folder);
  const [oid, change] = sides.emptySide === 'head' ? [sides.since.oid, 'deleted' as const] : [sides.head.oid, 'added' as const];
  return (await repo.listFilesAt(oid, folder)).map((path) => ({ path, change }));
}

async function readTypes(repo: ChangeReader, workspace: string, sides: Sides, changed: ChangedPath[], commitOf: (path: string) => NewestChange): Promise<Map<string, TypeSides>> {
  const typesOn = async (side: 'since' | 'head') => (sides.emptySide === side ? new Map<string, ContentType>() : typesAt(repo, workspace, sides[side].oid));
  const [before, after] = await Promise.all([typesOn('since'), typesOn('head')]);
  const changedNames = new Set(changed.map(({ path }) => typeNameOfPath(workspace, path)).filter((name) => name !== undefined));
  const types = new Map<string, TypeSides>();
  for (const name of new Set([...before.keys(), ...after.keys(), ...changedNames])) {
    const isChanged = changedNames.has(name);
    const commit = isChanged ? commitOf(typeFilePath(workspace, name)).commit : sides.head;
    types.set(name, { name, before: before.get(name), after: after.get(name), changed: isChanged, commit });
  }
  return types;
}

// Every type of the workspace at a commit, read as the index reads them; a type file that breaks the rules counts as absent.
async function typesAt(repo: ChangeReader, workspace: string, oid: string): Promise<Map<string, ContentType>> {
  const files = typeFilesAmong(workspace, await repo.listFilesAt(oid, typesDir(workspace)));
  const names = new Set(files.values());
  const types = new Map<string, ContentType>();
  for (const [path, name] of files) {
    const checked = checkTypeFile(path, name, (await repo.readAt(oid, path)) ?? '', (other) => names.has(other));
    if (checked.ok) types.set(name, checked.value);
  }
  return types;
}

interface SlugFiles {
  type: string;
  slug: string;
  rootChanged: boolean;
  translations: { locale: string; change: ChangedPath['change']; path: string }[];
  paths: string[];
}

async function readEntries(
  repo: ChangeReader,
  workspace: string,
  sides: { since: CommitInfo; head: CommitInfo; types: Map<string, TypeSides> },
  changed: ChangedPath[],
  commitOf: (path: string) => NewestChange,
): Promise<TouchedEntry[]> {
  const slugs = filesByEntry(changed);
  const touched = new Map<string, TouchedEntry & { depth: number }>();
  const touch = (files: SlugFiles, id: string): TouchedEntry & { depth: number } => {
    const key = `${files.type}/${id}`;
    const found = touched.get(key) ?? { type: files.type, id, rootChanged: false, translations: [], commit: sides.head, depth: Number.POSITIVE_INFINITY };
    touched.set(key, found);
    for (const path of files.paths) {
      const { commit, depth } = commitOf(path);
      if (depth < found.depth) Object.assign(found, { commit, depth });
    }
    return found;
  };
  let lastYield = performance.now();
  for (const files of slugs) {
    if (performance.now() - lastYield > YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = performance.now();
    }
    const typeSides = sides.types.get(files.type);
    const before = await entryAt(repo, workspace, sides.since.oid, typeSides?.before, files.slug);
    const after = await entryAt(repo, workspace, sides.head.oid, typeSides?.after, files.slug);
    if (before) touch(files, before.id).before = before;
    if (after) touch(files, after.id).after = after;
    for (const side of [before, after]) if (side && files.rootChanged) touch(files, side.id).rootChanged = true;
    for (const translation of files.translations) {
      // A translation belongs to the entry whose slug it carries on the side where the file exists.
      const owner = translation.change === 'deleted' ? (before ?? after) : (after ?? before);
      if (owner) touch(files, owner.id).translations.push({ locale: translation.locale, change: translation.change, commit: commitOf(translation.path).commit });
    }
  }
  const entries: TouchedEntry[] = [];
  for (const { depth: _depth, ...entry } of touched.values()) {
    // A move to another slug changes the entry as a whole, even when the bytes of its root file stayed the same.
    if (entry.before && entry.after && entry.before.slug !== entry.after.slug) entry.rootChanged = true;
    entries.push(entry);
  }
  return entries;
}

// The changed entry files by type and slug: a root file and its translations together.
function filesByEntry(changed: ChangedPath[]): SlugFiles[] {
  const groups: SlugFiles[] = [];
  for (const [type, changes] of groupBy(changed, ({ path }) => parseEntryPath(path)?.type)) {
    for (const [slug, files] of groupBySlug(changes, ({ path }) => path)) {
      const group: SlugFiles = { type, slug, rootChanged: false, translations: [], paths: files.map(({ path }) => path) };
      for (const { path, change } of files) {
        const locale = parseEntryFileName(basename(path))?.locale;
        if (locale === undefined) group.rootChanged = true;
        else group.translations.push({ locale, change, path });
      }
      groups.push(group);
    }
  }
  return groups;
}

// The entry at `slug` as the index would read it at that commit (root file only:
// visibility is decided there); undefined when absent, untyped or broken.
async function entryAt(repo: ChangeReader, workspace: string, oid: string, type: ContentType | undefined, slug: string): Promise<EntrySide | undefined> {
  if (type === undefined) return undefined;
  const path = `${entriesDir(workspace, type.name)}/${entryFileName(slug)}`;
  const root = await repo.readAt(oid, path);
  if (root === undefined) return undefined;
  const checked = checkEntryFiles(path, { slug, root, translations: {} }, type);
  if (!checked.ok) return undefined;
  const { id, status, published_at } = checked.value;
  return { id, slug, status, published_at };
}
