// The in-memory picture of the content repo that every read is served from:
// per workspace, each content type with a TypeIndex of its active entries.
// It is loaded once at start, updated by the services after each commit, and
// re-indexed path by path when commits arrive from outside the server.
import { isDeepStrictEqual } from 'node:util';
import type { ChangedPath, ListedFile } from '../../storage/content-repo.ts';
import { notFound } from '../../errors/app-error.ts';
import { TypeIndex } from '../query/type-index.ts';
import type { ContentType } from '../model/content-type.ts';
import { typeFilesAmong, typesDir } from '../model/type-files.ts';
import { entriesDir, groupBySlug, parseEntryPath } from '../model/entry-paths.ts';
import { workspaceFilePath } from '../model/workspace-file.ts';
import type { StoredEntry } from '../model/entry.ts';
import { entryVersion } from '../model/entry-version.ts';
import type { ContentFiles, ReadAt } from './content-writer.ts';
import { CommitDates } from './commit-dates.ts';
import type { EntrySnapshot, SnapshotRecord } from './entry-snapshot.ts';
import { checkEntryFiles, checkTypeFile, checkWorkspaceFile, checkWorkspaceFolder, isDotFile, MISNAMED_TYPE_FILE, workspaceFilesJudgedAgain, type Checked, type FileProblem } from './file-rules.ts';

const NOT_AN_ENTRY_NAME = 'The file name is not an entry file name: lowercase letters, digits and hyphens, then .md (or .{locale}.md for a translation).';
// As a push is told (push-validation.ts): a file in a subfolder of a type's folder is no entry.
const NOT_DIRECTLY_IN_FOLDER = 'An entry file is {slug}.md or {slug}.{locale}.md directly in entries/{type}/.';

/** A content type with its index of active entries. */
export interface IndexedType {
  type: ContentType;
  index: TypeIndex;
}

/** An entry that re-indexing created (`before` absent), changed, or removed (`after` absent); compared by id. */
export interface EntryChange {
  type: string;
  before?: StoredEntry;
  after?: StoredEntry;
}

/** Called for every file that cannot be indexed; the file is skipped. */
export type ProblemReporter = (problem: ReportedProblem) => void;

/** A file that cannot be used (file-rules.ts) and its workspace. */
export interface ReportedProblem extends FileProblem {
  workspace: string;
}

/** Options of ContentIndex.warmSearch. */
export interface WarmSearchOptions {
  /** Stops the warm-up (server shutdown). */
  signal: AbortSignal;
  /** Longest stretch of indexing between two turns of the event loop; 5 ms by default. */
  sliceMs?: number;
}

// One entry's files in listing order, root file first, each with the locale its name gives.
type EntryFiles = { file: ListedFile; locale: string | undefined }[];

/** The in-memory content of every workspace; the read model of all entry reads. */
export class ContentIndex {
  private readonly workspaces = new Map<string, Map<string, IndexedType>>();
  private warming: Promise<void> | undefined;
  private warmAgain = false;
  private snapshot: EntrySnapshot | undefined;

  constructor(
    private readonly repo: ContentFiles,
    private readonly reportProblem: ProblemReporter,
    private readonly commitDates = CommitDates.none(),
  ) {}

  /**
   * Reads every type and entry of a workspace from `files` (HEAD's by default;
   * an outside commit's when it is re-read), and reports what is wrong with
   * its workspace.yaml.
   */
  async loadWorkspace(workspace: string, files: ContentFiles = this.repo): Promise<void> {
    // Built aside and swapped in whole, so reads during a reload see the old picture, never half of the new one.
    const types = new Map<string, IndexedType>();
    const paths = await files.listFiles(typesDir(workspace));
    const typeFiles = typeFilesAmong(workspace, paths);
    // As a push is told (push-validation.ts): a misnamed file, or one in a subfolder, defines no type.
    for (const path of paths) if (!typeFiles.has(path)) this.reportStray(workspace, path, MISNAMED_TYPE_FILE);
    const names = new Set(typeFiles.values());
    for (const [path, name] of typeFiles) {
      const type = await this.readType(workspace, files, path, name, (other) => names.has(other));
      if (type) types.set(type.name, { type, index: new TypeIndex(type) });
    }
    for (const { type, index } of types.values()) {
      for (const entry of await this.readEntries(workspace, files, type)) index.upsert(entry);
    }
    for (const folder of await files.listFolders(`${workspace}/entries`)) {
      if (types.has(folder)) continue;
      for (const path of await files.listFiles(entriesDir(workspace, folder))) this.reportUntyped(workspace, path, folder);
    }
    // As applyExternalChanges() and a push judge them: a file directly in entries/ belongs to no type.
    for (const path of await files.listFilesIn(`${workspace}/entries`)) this.reportStray(workspace, path, NOT_DIRECTLY_IN_FOLDER);
    this.workspaces.set(workspace, types);
    await this.checkWorkspaceFile(workspace, files);
  }

  /**
   * Has the start's loads take entries from `snapshot` instead of reading
   * and parsing their files, where it holds the same files' parse, and
   * every load from now on keep what it indexes in it (snapshotRecords()).
   */
  useSnapshot(snapshot: EntrySnapshot): void {
    this.snapshot = snapshot;
  }

  /**
   * The records of the next entry snapshot: every entry of every indexed
   * type at HEAD whose files parse without a problem, from the parses the
   * loads kept where the files are the same, else read and parsed now, a
   * slice at a time (entries written through the API: the index holds what
   * the write built). One that parses to the very entry the index holds
   * (but for updated_at, which comes from the commit dates) is kept by
   * reference, so the next snapshot does not parse it again. Reports no
   * problem: the loads did. Undefined once `signal` aborts.
   */
  async snapshotRecords(signal: AbortSignal, sliceMs = 5): Promise<SnapshotRecord[] | undefined> {
    const snapshot = this.snapshot;
    if (snapshot === undefined) return [];
    const records: SnapshotRecord[] = [];
    const roots = new Set<string>();
    let sliceStart = performance.now();
    for (const [workspace, types] of this.workspaces) {
      for (const { type, index } of types.values()) {
        const sets = this.entryFileSets(workspace, await this.repo.listFileIds(entriesDir(workspace, type.name)), false);
        for (const [slug, set] of sets) {
          if (signal.aborted) return undefined;
          const files = set.map(({ file }) => file);
          roots.add(files[0].path);
          const record = snapshot.recordOf(type, files) ?? (await this.parseForSnapshot(snapshot, type, slug, set, index.getBySlug(slug)));
          if (record) records.push(record);
          if (performance.now() - sliceStart < sliceMs) continue;
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
    }
    snapshot.forgetAllBut(roots);
    return records;
  }

  /** How many entries the index holds, in every workspace. */
  entryCount(): number {
    let count = 0;
    for (const types of this.workspaces.values()) for (const { index } of types.values()) count += index.size;
    return count;
  }

  /**
   * Reports a top-level folder whose `workspace.yaml` makes it look like a
   * workspace but whose name is no workspace slug (checkWorkspaceFolder()):
   * the workspace registry does not take it, so none of its files is read.
   * Nothing for a good name or a folder without the file. Throws what
   * reading the repo throws.
   */
  async checkFolderName(folder: string, files: ContentFiles = this.repo): Promise<void> {
    const problem = checkWorkspaceFolder(folder);
    if (problem && (await files.readFile(problem.path)) !== undefined) this.reportProblem({ workspace: folder, ...problem });
  }

  /**
   * Builds the search index of every type (default locale) in short slices,
   * yielding to the event loop between them, so that the first `q` after a
   * start does not wait seconds for it while other requests are barely
   * delayed. A `q` that arrives first completes its type's index at once.
   */
  async warmSearch(options: WarmSearchOptions): Promise<void> {
    const sliceMs = options.sliceMs ?? 5;
    for (const workspace of [...this.workspaces.keys()]) {
      for (const { index } of this.types(workspace)) {
        // A built type costs no turn of the event loop: a run after a write usually finds every type built.
        let isBuilt = index.isSearchWarm;
        while (!isBuilt) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (options.signal.aborted) return;
          const deadline = performance.now() + sliceMs;
          isBuilt = index.warmSearchStep(() => performance.now() >= deadline);
        }
      }
    }
  }

  /**
   * Runs warmSearch() now, or once more after the one running, which may have
   * passed a type before it changed: types made since the start, and the
   * entries of an outside commit (thousands, whose first `q` would otherwise
   * wait seconds for them). Resolves when no warm-up is left to run.
   */
  warmSearchSoon(options: WarmSearchOptions): Promise<void> {
    if (this.warming) {
      this.warmAgain = true;
      return this.warming;
    }
    const warming = (async () => {
      try {
        do {
          this.warmAgain = false;
          await this.warmSearch(options);
        } while (this.warmAgain && !options.signal.aborted);
      } finally {
        this.warming = undefined;
      }
    })();
    this.warming = warming;
    return warming;
  }

  /** The first moment after `now` when a scheduled entry of `workspace` goes public (Infinity when none): public reads change then without a commit. */
  nextPublishAfter(workspace: string, now: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const { index } of this.types(workspace)) next = Math.min(next, index.nextPublishAfter(now));
    return next;
  }

  /** The types of a workspace (unordered). */
  types(workspace: string): IndexedType[] {
    return [...(this.workspaces.get(workspace)?.values() ?? [])];
  }

  /** Every active entry of a workspace, type by type. */
  entries(workspace: string): StoredEntry[] {
    return this.types(workspace).flatMap(({ index }) => index.all());
  }

  findType(workspace: string, name: string): IndexedType | undefined {
    return this.workspaces.get(workspace)?.get(name);
  }

  /** The indexed type, or throws not_found. */
  getType(workspace: string, name: string): IndexedType {
    const found = this.findType(workspace, name);
    if (!found) throw notFound(`No content type "${name}" in workspace "${workspace}".`);
    return found;
  }

  /** Adds or replaces a type, keeping its entries when it already existed. */
  putType(workspace: string, type: ContentType): IndexedType {
    const types = this.workspaceTypes(workspace);
    const existing = types.get(type.name);
    if (existing) {
      existing.type = type;
      existing.index.setType(type);
      return existing;
    }
    const created = { type, index: new TypeIndex(type) };
    types.set(type.name, created);
    return created;
  }

  removeType(workspace: string, name: string): void {
    this.workspaces.get(workspace)?.delete(name);
  }

  /** Drops every type and entry of a workspace that went away (its workspace.yaml removed by a commit); one that comes back is read whole (loadWorkspace). */
  forgetWorkspace(workspace: string): void {
    this.workspaces.delete(workspace);
  }

  /**
   * Brings the index in line with commits made outside the server: reloads
   * each type whose YAML changed, and re-reads only the entries whose files
   * changed, all read at the run's last commit (`at.files`). Returns the
   * entries that were created, changed or removed, so the caller can tell the
   * event bus. With `at.committedAt` (that commit's time), an entry whose
   * files changed without a new `lastmod` takes that time as its updated_at
   * (commit-dates.ts).
   */
  async applyExternalChanges(workspace: string, changes: ChangedPath[], at: ReadAt): Promise<EntryChange[]> {
    const { files, committedAt } = at;
    const typePrefix = `${typesDir(workspace)}/`;
    if (changes.some((change) => change.path.startsWith(typePrefix))) {
      const before = this.entries(workspace);
      await this.loadWorkspace(workspace, files);
      return diffEntries(before, this.entries(workspace));
    }
    if (changes.some((change) => change.path === workspaceFilePath(workspace))) await this.checkWorkspaceFile(workspace, files);
    const touched = new Map<string, Set<string>>();
    for (const change of changes) {
      const entryPath = parseEntryPath(change.path);
      if (!entryPath) {
        if (change.change !== 'deleted' && change.path.startsWith(`${workspace}/entries/`)) this.reportStray(workspace, change.path, NOT_DIRECTLY_IN_FOLDER);
        continue;
      }
      const { type, file } = entryPath;
      if (change.change !== 'deleted' && !this.findType(workspace, type)) this.reportUntyped(workspace, change.path, type);
      else if (change.change !== 'deleted' && !file) this.reportStray(workspace, change.path, NOT_AN_ENTRY_NAME);
      if (!file) continue;
      const slugs = touched.get(type) ?? new Set<string>();
      slugs.add(file.slug);
      touched.set(type, slugs);
    }
    const before: StoredEntry[] = [];
    const after: StoredEntry[] = [];
    for (const [typeName, slugs] of touched) {
      const indexed = this.findType(workspace, typeName);
      if (!indexed) continue;
      // One listing per type, however many of its entries the commit touched.
      const filesBySlug = groupBySlug(await files.listFileIds(entriesDir(workspace, indexed.type.name)), (file) => file.path);
      // Every old entry first: an entry renamed to a touched slug that is reloaded earlier would be gone from its old one.
      for (const slug of slugs) {
        const previous = indexed.index.getBySlug(slug);
        if (previous) before.push(previous);
      }
      for (const slug of slugs) {
        const current = await this.reloadEntry(workspace, indexed, slug, files, filesBySlug.get(slug) ?? [], committedAt);
        if (current) after.push(current);
      }
    }
    if (committedAt !== undefined) await this.commitDates.save();
    return diffEntries(before, after);
  }

  // The files are read before the index changes, so a read meanwhile sees the old entry, never none.
  private async reloadEntry(workspace: string, indexed: IndexedType, slug: string, files: ContentFiles, listed: ListedFile[], committedAt?: string): Promise<StoredEntry | undefined> {
    const [entry] = await this.entriesOf(workspace, indexed.type, files, listed);
    const previous = indexed.index.getBySlug(slug);
    if (entry) {
      const path = `${entriesDir(workspace, indexed.type.name)}/${slug}.md`;
      entry.updated_at = committedAt !== undefined && previous?.id === entry.id
        ? this.commitDates.afterCommit(path, entry.updated_at, previous.updated_at, committedAt)
        : this.commitDates.updatedAt(path, entry.updated_at);
    }
    if (previous && previous.id !== entry?.id) indexed.index.remove(previous.id);
    if (entry) indexed.index.upsert(entry);
    return entry;
  }

  /**
   * Reports what is still wrong with the `{ws}/workspace.yaml` of each
   * workspace a commit of the server's own changed the file or a type file
   * of (`paths`): the server rewrites the file with the settings in use,
   * which may name types that do not exist, and a type it creates or
   * deletes may be one the file names. Call it once the commit is applied,
   * after ProblemRegister.forgetWritten(). Throws what reading the repo throws.
   */
  async judgeWorkspaceFilesAgain(paths: readonly string[]): Promise<void> {
    for (const workspace of workspaceFilesJudgedAgain(paths)) await this.checkWorkspaceFile(workspace, this.repo);
  }

  // The workspace registry reads the file for its settings (bad ones keep their last good value); here it is only judged, as its type names need the types.
  private async checkWorkspaceFile(workspace: string, files: ContentFiles): Promise<void> {
    const text = await files.readFile(workspaceFilePath(workspace));
    if (text === undefined) return;
    for (const problem of checkWorkspaceFile(workspace, text, (name) => !!this.findType(workspace, name))) this.reportProblem({ workspace, ...problem });
  }

  // Dot files (.gitkeep) are not content and pass without a word.
  private reportStray(workspace: string, path: string, reason: string): void {
    if (!isDotFile(path)) this.reportProblem({ workspace, path, message: reason });
  }

  private reportUntyped(workspace: string, path: string, typeName: string): void {
    this.reportStray(workspace, path, `There is no content type "${typeName}" (${typesDir(workspace)}/${typeName}.yaml) for this file.`);
  }

  private workspaceTypes(workspace: string): Map<string, IndexedType> {
    let types = this.workspaces.get(workspace);
    if (!types) {
      types = new Map();
      this.workspaces.set(workspace, types);
    }
    return types;
  }

  private async readType(workspace: string, files: ContentFiles, path: string, name: string, typeExists: (name: string) => boolean): Promise<ContentType | undefined> {
    return this.usable(workspace, checkTypeFile(path, name, (await files.readFile(path)) ?? '', typeExists));
  }

  private async readEntries(workspace: string, files: ContentFiles, type: ContentType): Promise<StoredEntry[]> {
    const entries = await this.entriesOf(workspace, type, files, await files.listFileIds(entriesDir(workspace, type.name)));
    if (this.commitDates.isEmpty) return entries;
    for (const entry of entries) entry.updated_at = this.commitDates.updatedAt(`${entriesDir(workspace, type.name)}/${entry.slug}.md`, entry.updated_at);
    return entries;
  }

  // The entries of `listed` (the files of a type's folder, or of one entry):
  // each taken from the snapshot when it holds the parse of the very same
  // files, else read and parsed. The ids are checked in listing order either
  // way, so the same entry wins a shared id with or without a snapshot.
  private async entriesOf(workspace: string, type: ContentType, files: ContentFiles, listed: ListedFile[]): Promise<StoredEntry[]> {
    const sets = this.entryFileSets(workspace, listed);
    const taken = new Map<string, StoredEntry>();
    const toRead: ListedFile[] = [];
    for (const [slug, set] of sets) {
      const entry = this.snapshot?.take(type, set.map(({ file }) => file));
      if (entry) taken.set(slug, entry);
      else toRead.push(...set.map(({ file }) => file));
    }
    const read = await files.readListed(toRead);
    const texts = new Map(toRead.map(({ path }, position) => [path, read[position]]));
    const entries: StoredEntry[] = [];
    const seenIds = new Set<string>();
    for (const [slug, set] of sets) {
      const entry = taken.get(slug) ?? this.parseEntry(workspace, type, slug, set, texts);
      if (!entry) continue;
      const path = `${entriesDir(workspace, type.name)}/${slug}.md`;
      if (seenIds.has(entry.id)) {
        this.reportProblem({ workspace, path, message: `The id "${entry.id}" is used by another entry.` });
        continue;
      }
      seenIds.add(entry.id);
      entries.push(entry);
      // A file whose blob could not be read was parsed as absent: that parse is not the files'.
      if (set.every(({ file }) => taken.has(slug) || texts.get(file.path) !== undefined)) this.snapshot?.keep(type, set.map(({ file }) => file), entry);
    }
    return entries;
  }

  // The files of each slug, in listing order; a file that is no entry file is reported (unless `report` is false).
  private entryFileSets(workspace: string, listed: ListedFile[], report = true): Map<string, EntryFiles> {
    const sets = new Map<string, EntryFiles>();
    for (const file of listed) {
      const entryPath = parseEntryPath(file.path);
      if (!entryPath?.file) {
        if (report) this.reportStray(workspace, file.path, entryPath ? NOT_AN_ENTRY_NAME : NOT_DIRECTLY_IN_FOLDER);
        continue;
      }
      const { slug, locale } = entryPath.file;
      const set = sets.get(slug) ?? [];
      // The root file first: `a.md` sorts after `a.de.md`.
      if (locale === undefined) set.unshift({ file, locale });
      else set.push({ file, locale });
      sets.set(slug, set);
    }
    return sets;
  }

  // A file whose blob cannot be read counts as absent.
  private parseEntry(workspace: string, type: ContentType, slug: string, set: EntryFiles, texts: Map<string, string | undefined>): StoredEntry | undefined {
    const path = `${entriesDir(workspace, type.name)}/${slug}.md`;
    const { root, translations } = entryTexts(set, set.map(({ file }) => texts.get(file.path)));
    if (root === undefined) {
      for (const locale of Object.keys(translations)) {
        this.reportProblem({ workspace, path: `${entriesDir(workspace, type.name)}/${slug}.${locale}.md`, message: `A translation needs its entry file ${slug}.md beside it.` });
      }
      return undefined;
    }
    return this.usable(workspace, checkEntryFiles(path, { slug, root, translations }, type));
  }

  // The record of an entry the loads did not parse (or whose files changed
  // since): its files read and parsed without reporting anything; none when
  // a file cannot be read or the parse finds a problem. `current` is what
  // the index holds under its slug: kept in place of the parse when they
  // are the same entry.
  private async parseForSnapshot(snapshot: EntrySnapshot, type: ContentType, slug: string, set: EntryFiles, current: StoredEntry | undefined): Promise<SnapshotRecord | undefined> {
    const files = set.map(({ file }) => file);
    const texts = await this.repo.readListed(files);
    const { root, translations } = entryTexts(set, texts);
    if (root === undefined || texts.includes(undefined)) return undefined;
    const checked = checkEntryFiles(files[0].path, { slug, root, translations }, type);
    if (!checked.ok) return undefined;
    const parsed = checked.value;
    if (current === undefined || !isDeepStrictEqual({ ...current, updated_at: parsed.updated_at }, parsed)) return snapshot.recordOfParse(type, files, parsed);
    // The record holds the index's object, not the parse: a parse held until the write (ten thousand after an API seed) would be promoted to the old generation, and the heap grew by ~50 MB.
    snapshot.keep(type, files, current, parsed.updated_at);
    return snapshot.recordOf(type, files);
  }

  // A file that breaks a rule is skipped, and each of its problems reported.
  private usable<T>(workspace: string, checked: Checked<T>): T | undefined {
    if (checked.ok) return checked.value;
    for (const problem of checked.problems) this.reportProblem({ workspace, ...problem });
    return undefined;
  }
}

// The texts of one entry's files (`texts`, in the order of `set`) as
// checkEntryFiles() takes them; a file without text (its blob could not be
// read) counts as absent.
function entryTexts(set: EntryFiles, texts: readonly (string | undefined)[]): { root?: string; translations: Record<string, string> } {
  let root: string | undefined;
  const translations: Record<string, string> = {};
  set.forEach(({ locale }, position) => {
    const text = texts[position];
    if (text === undefined) return;
    if (locale === undefined) root = text;
    else translations[locale] = text;
  });
  return { root, translations };
}

// A slug rename is one entry leaving one file and arriving in another, so
// entries are matched by id; unchanged ones (same version) are left out.
function diffEntries(before: StoredEntry[], after: StoredEntry[]): EntryChange[] {
  const previous = new Map(before.map((entry) => [entry.id, entry]));
  const changes: EntryChange[] = [];
  for (const entry of after) {
    const old = previous.get(entry.id);
    previous.delete(entry.id);
    if (!old) changes.push({ type: entry.type, after: entry });
    else if (entryVersion(old) !== entryVersion(entry)) changes.push({ type: entry.type, before: old, after: entry });
  }
  for (const old of previous.values()) changes.push({ type: old.type, before: old });
  return pairRenames(changes);
}

// A file without an `id:` is known by its slug, so `git mv hello.md hi.md` of
// one reads as a removal and an addition. A removed and an added id-less
// entry of one type with the same title and values are one entry, renamed.
function pairRenames(changes: EntryChange[]): EntryChange[] {
  const isIdless = (entry: StoredEntry | undefined) => entry !== undefined && entry.id === entry.slug;
  const sameContent = (a: StoredEntry, b: StoredEntry) => a.title === b.title && JSON.stringify(a.data) === JSON.stringify(b.data);
  const removed = changes.filter((change) => !change.after && isIdless(change.before));
  const result = changes.filter((change) => !removed.includes(change));
  for (const removal of removed) {
    const before = removal.before as StoredEntry;
    const addition = result.find((change) => !change.before && isIdless(change.after) && change.type === removal.type && sameContent(before, change.after as StoredEntry));
    if (addition) addition.before = before;
    else result.push(removal);
  }
  return result;
}
