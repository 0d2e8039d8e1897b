// Whether commits from outside may land on the server's branch: the files a
// push (or a rebase onto the upstream) changes must follow the rules the API
// applies to the same change. Per file, the index loader's own rules
// (content/file-rules.ts); across files, the API's (entries/entry-changes.ts:
// unique values, relation targets) plus ids, single pages and the layout.
// Files outside the content layout (a README, a folder that is not a
// workspace) are the developer's business and always pass.
import type { CommitFiles } from '../../storage/git-cli/git-peer.ts';
import { isAppError } from '../../errors/app-error.ts';
import { checkEntryFiles, checkTypeFile, checkWorkspaceFile, checkWorkspaceFolder, isDotFile, MISNAMED_TYPE_FILE, missingTypeProblems, type FileProblem } from '../content/file-rules.ts';
import { checkReferences, type ReferenceScope } from '../entries/entry-changes.ts';
import { categoriesFromYaml, filenameOfRecordPath, recordFromYaml, categoriesPath } from '../media/media-record.ts';
import { isLocalized, type ContentType } from '../model/content-type.ts';
import { entriesDir, parseEntryFileName, parseEntryPath } from '../model/entry-paths.ts';
import type { StoredEntry } from '../model/entry.ts';
import { isValidSlug } from '../model/slug.ts';
import { typeFilesAmong, typeNameOfPath, typesDir } from '../model/type-files.ts';
import { groupByWorkspace, readWorkspaceYaml, workspaceFilePath } from '../model/workspace-file.ts';

export type { FileProblem } from '../content/file-rules.ts';

/** The active entries a type held before the change (the in-memory index when it starts at HEAD). */
export type EntriesBefore = (workspace: string, type: string) => Promise<readonly StoredEntry[]>;

/** One changed entry of a push: where its root file is, and what it is now (undefined: deleted). */
interface PushedEntry {
  slug: string;
  path: string;
  entry: StoredEntry | undefined;
}

/**
 * The problems that keep the change `from` → `to` off the branch, each with
 * its file and field; [] when it may land. Reads only the workspaces, types
 * and entries the change touches. Throws what reading the commits throws.
 */
export async function validatePush(files: CommitFiles, before: EntriesBefore, range: { from: string; to: string }): Promise<FileProblem[]> {
  const changed = await files.changedPaths(range.from, range.to);
  const problems: FileProblem[] = [];
  for (const [workspace, paths] of groupByWorkspace(changed)) {
    const check = new WorkspaceCheck(files, before, range.to, workspace);
    problems.push(...(await check.run(paths)));
  }
  return problems;
}

type Change = { path: string; change: 'added' | 'modified' | 'deleted' };

// The checks of one workspace folder at the pushed commit.
class WorkspaceCheck {
  private readonly problems: FileProblem[] = [];
  private readonly types = new Map<string, ContentType>();
  private readonly views = new Map<string, Map<string, StoredEntry>>();

  constructor(
    private readonly files: CommitFiles,
    private readonly before: EntriesBefore,
    private readonly to: string,
    private readonly workspace: string,
  ) {}

  async run(changes: Change[]): Promise<FileProblem[]> {
    const workspaceFile = workspaceFilePath(this.workspace);
    const text = (await this.files.readFilesAt(this.to, [workspaceFile])).get(workspaceFile);
    // Without workspace.yaml the folder is no workspace: outside the content layout.
    if (text === undefined) return [];
    // The server never reads a folder whose name is no slug (file-rules.ts); blamed on the push that adds or edits its workspace.yaml.
    const misnamed = checkWorkspaceFolder(this.workspace);
    if (misnamed) return changes.some((change) => change.path === workspaceFile) ? [misnamed] : [];
    const typeChanges = changes.filter((change) => change.path.startsWith(`${typesDir(this.workspace)}/`));
    await this.checkTypes(typeChanges);
    if (changes.some((change) => change.path === workspaceFile)) {
      this.problems.push(...checkWorkspaceFile(this.workspace, text, (name) => this.types.has(name)));
    } else if (typeChanges.length > 0) {
      // The file names types: a push that takes one away breaks it; names it held before are not this push's doing.
      const takenAway = new Set(typeChanges.map((change) => typeNameOfPath(this.workspace, change.path)).filter((name) => name !== undefined && !this.types.has(name)));
      this.problems.push(...missingTypeProblems(this.workspace, readWorkspaceYaml(this.workspace, text).workspace.type_order, (name) => !takenAway.has(name)));
    }
    await this.checkEntries(changes.filter((change) => change.path.startsWith(`${this.workspace}/entries/`)));
    await this.checkMedia(changes.filter((change) => change.path.startsWith(`${this.workspace}/media/`) && change.change !== 'deleted'));
    return this.problems;
  }

  // Every type file at the pushed commit is read (entries need their types);
  // only changed ones can be blamed.
  private async checkTypes(changed: Change[]): Promise<void> {
    const typeFiles = typeFilesAmong(this.workspace, await this.files.listFilesAt(this.to, typesDir(this.workspace)));
    const names = new Set(typeFiles.values());
    const texts = await this.files.readFilesAt(this.to, [...typeFiles.keys()]);
    const blamed = new Set(changed.map((change) => change.path));
    for (const [path, name] of typeFiles) {
      const checked = checkTypeFile(path, name, texts.get(path) ?? '', (other) => names.has(other));
      if (checked.ok) this.types.set(name, checked.value);
      else if (blamed.has(path)) this.problems.push(...checked.problems);
    }
    for (const change of changed) {
      const name = typeNameOfPath(this.workspace, change.path);
      if (change.change !== 'deleted' && name === undefined && !isDotFile(change.path)) this.problems.push({ path: change.path, message: MISNAMED_TYPE_FILE });
      const deleted = change.change === 'deleted' ? name : undefined;
      if (deleted && !this.types.has(deleted) && (await this.files.listFilesAt(this.to, entriesDir(this.workspace, deleted))).length > 0) {
        this.problems.push({ path: change.path, message: `The type "${deleted}" is deleted but ${entriesDir(this.workspace, deleted)}/ still holds entries; delete them too.` });
      }
    }
  }

  private async checkEntries(changed: Change[]): Promise<void> {
    const slugsByType = new Map<string, Map<string, boolean>>();
    for (const change of changed) {
      const target = this.entryTarget(change);
      if (!target) continue;
      const slugs = slugsByType.get(target.type) ?? new Map<string, boolean>();
      // A root file that is new makes a new entry, which must be complete (as on create).
      slugs.set(target.slug, (slugs.get(target.slug) ?? false) || (change.change === 'added' && target.locale === undefined));
      slugsByType.set(target.type, slugs);
    }
    const pushedByType = new Map<string, PushedEntry[]>();
    for (const [typeName, slugs] of slugsByType) pushedByType.set(typeName, await this.readPushed(this.types.get(typeName)!, slugs));
    // Every collection a check may look into, as it is at the pushed commit.
    for (const [typeName, pushed] of pushedByType) await this.viewOf(typeName, pushed);
    for (const typeName of pushedByType.keys()) {
      for (const field of Object.values(this.types.get(typeName)!.fields)) {
        if (field.type === 'relation' && field.target && this.types.has(field.target) && !this.views.has(field.target)) await this.viewOf(field.target, []);
      }
    }
    for (const [typeName, pushed] of pushedByType) await this.checkCollection(this.types.get(typeName)!, pushed);
  }

  // Where an entry file belongs, or undefined (with a problem) when its path breaks the layout.
  private entryTarget(change: Change): { type: string; slug: string; locale?: string } | undefined {
    // The caller passes only paths under this workspace's entries/, so the workspace part is ours.
    const entryPath = parseEntryPath(change.path);
    // As the index: a dot file (.gitkeep) is no entry file and passes without a word.
    const report = (message: string) => {
      if (change.change !== 'deleted' && !isDotFile(change.path)) this.problems.push({ path: change.path, message });
      return undefined;
    };
    if (!entryPath?.file) return report('An entry file is {slug}.md or {slug}.{locale}.md directly in entries/{type}/.');
    const file = entryPath.file;
    if (!isValidSlug(file.slug)) return report('The slug in the file name must be lowercase letters and digits separated by single hyphens, up to 120 characters.');
    const type = this.types.get(entryPath.type);
    if (!type) return report(`No valid content type "${entryPath.type}" in workspace "${this.workspace}".`);
    if (file.locale !== undefined && !type.locales.includes(file.locale)) {
      return report(isLocalized(type) ? `The locale "${file.locale}" is not one of ${type.locales.join(', ')}.` : `The type "${type.name}" has no locales.`);
    }
    return { type: type.name, slug: file.slug, locale: file.locale };
  }

  // Reads the files of each changed slug at the pushed commit and checks them one entry at a time.
  private async readPushed(type: ContentType, slugs: Map<string, boolean>): Promise<PushedEntry[]> {
    const folder = entriesDir(this.workspace, type.name);
    const paths = (await this.files.listFilesAt(this.to, folder)).filter((path) => slugs.has(parseEntryFileName(path.slice(folder.length + 1))?.slug ?? ''));
    const texts = await this.files.readFilesAt(this.to, paths);
    const pushed: PushedEntry[] = [];
    for (const [slug, isNew] of slugs) {
      const path = `${folder}/${slug}.md`;
      const root = texts.get(path);
      const translations: Record<string, string> = {};
      for (const [file, text] of texts) {
        const parsed = parseEntryFileName(file.slice(folder.length + 1));
        if (parsed?.slug === slug && parsed.locale !== undefined) translations[parsed.locale] = text;
      }
      if (root === undefined) {
        if (Object.keys(translations).length > 0) this.problems.push({ path, message: 'A translation needs the entry\'s root file {slug}.md.' });
        pushed.push({ slug, path, entry: undefined });
        continue;
      }
      pushed.push({ slug, path, entry: this.checkEntry(type, path, { slug, root, translations }, isNew) });
    }
    return pushed;
  }

  private checkEntry(type: ContentType, path: string, files: { slug: string; root: string; translations: Record<string, string> }, isNew: boolean): StoredEntry | undefined {
    const checked = checkEntryFiles(path, files, type, { requireFields: isNew });
    if (!checked.ok) {
      this.problems.push(...checked.problems);
      return undefined;
    }
    const entry = checked.value;
    if (type.singleton && (entry.slug !== type.name || entry.id !== type.name)) {
      this.problems.push({ path, message: `The single page "${type.name}" is the file ${type.name}.md with the id "${type.name}".` });
    }
    return entry;
  }

  // What needs the whole collection: ids, the single page, unique values, relation targets.
  private async checkCollection(type: ContentType, pushed: PushedEntry[]): Promise<void> {
    const view = this.views.get(type.name)!;
    if (type.singleton && view.size > 1) {
      for (const { path, entry } of pushed) if (entry) this.problems.push({ path, message: `The single page "${type.name}" has one entry only.` });
    }
    const earlier = new Map((await this.before(this.workspace, type.name)).map((entry) => [entry.id, entry]));
    const scope: ReferenceScope = { type, index: lookupOf(view) };
    for (const { path, slug, entry } of pushed) {
      if (!entry) continue;
      if (view.get(entry.id)?.slug !== slug) {
        this.problems.push({ path, field: 'id', message: `The id "${entry.id}" is used by another entry of "${type.name}".` });
        continue;
      }
      const written = changedFields(earlier.get(entry.id), entry, type);
      try {
        checkReferences(entry, scope, (name) => { const target = this.views.get(name); return target && { index: lookupOf(target) }; }, written);
      } catch (error) {
        if (!isAppError(error) || !error.fields) throw error;
        for (const [field, message] of Object.entries(error.fields)) this.problems.push({ path, field, message });
      }
    }
  }

  // The type's active entries at the pushed commit, by id: those from before
  // that the push left alone, then the pushed ones. A pushed entry whose id
  // another entry holds keeps the other's place, so the clash is reported.
  private async viewOf(typeName: string, pushed: PushedEntry[]): Promise<void> {
    const touched = new Set(pushed.map((item) => item.slug));
    const view = new Map<string, StoredEntry>();
    for (const entry of await this.before(this.workspace, typeName)) if (!touched.has(entry.slug)) view.set(entry.id, entry);
    for (const { entry } of pushed) if (entry && !view.has(entry.id)) view.set(entry.id, entry);
    this.views.set(typeName, view);
  }

  private async checkMedia(changed: Change[]): Promise<void> {
    const texts = await this.files.readFilesAt(this.to, changed.map((change) => change.path));
    for (const { path } of changed) {
      const text = texts.get(path) ?? '';
      const filename = filenameOfRecordPath(this.workspace, path);
      try {
        if (path === categoriesPath(this.workspace)) categoriesFromYaml(text);
        else if (filename !== undefined) recordFromYaml(filename, text);
      } catch (error) {
        this.problems.push({ path, message: error instanceof Error ? error.message : String(error) });
      }
    }
  }
}

function lookupOf(view: Map<string, StoredEntry>): ReferenceScope['index'] {
  return { all: () => [...view.values()], get: (id) => view.get(id) };
}

// The custom fields whose values the push sets or changes, in any locale (all of them for a new entry).
function changedFields(previous: StoredEntry | undefined, entry: StoredEntry, type: ContentType): string[] {
  return Object.keys(type.fields).filter((name) => {
    if (!previous) return true;
    const sets = [[previous.data, entry.data], ...Object.entries(entry.translations).map(([locale, translation]) => [previous.translations[locale]?.data ?? {}, translation.data])];
    return sets.some(([old, now]) => JSON.stringify(old[name]) !== JSON.stringify(now[name]));
  });
}
