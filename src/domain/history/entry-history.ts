// An entry's history read from git (API.md "Revisions (git)"): the commits
// that touched its files in any locale, newest first, following slug renames
// and moves to and from the trash by the `id:` its files carry (and, for a
// single page, the collection entry it was made from); and the entry as it
// was at one of those commits. Commits made with plain git count too.
import type { CommitInfo } from '../../storage/content-repo.ts';
import { entryFromFiles } from '../model/entry-from-files.ts';
import { entriesDir, entryFileName, parseEntryFileName, trashDir } from '../model/entry-paths.ts';
import type { StoredEntry } from '../model/entry.ts';
import { parseFrontMatter } from '../model/front-matter.ts';
import type { ContentType } from '../model/content-type.ts';
import type { ContentReader } from '../content/content-writer.ts';

/** Which entry a history question is about. */
export interface EntryRef {
  workspace: string;
  type: ContentType;
  entry: StoredEntry;
}

/**
 * The commits (newest first) that changed the entry's current files, traced
 * back through renames and trash moves: when a commit added a followed file,
 * the files it deleted that carry the same id are followed further back.
 */
export async function entryCommits(repo: ContentReader, ref: EntryRef): Promise<CommitInfo[]> {
  const { workspace, type, entry } = ref;
  // A single page made from a collection's one entry took the type's name as its id in that commit; the entry it was goes on its history.
  // An entry without an `id:` line is known by its slug; renamed with git, the id-less file deleted beside it is what it was.
  const idless = entry.id === entry.slug;
  const follows = (path: string, content: string) => {
    const id = idOfFile(workspace, type.name, path, content);
    if (id === entry.id) return true;
    const inFolder = id !== undefined && path.startsWith(`${entriesDir(workspace, type.name)}/`);
    return inFolder && ((type.singleton && entry.id === type.name) || (idless && !hasIdLine(content)));
  };
  return repo.log({ paths: currentFiles(ref), follow: follows });
}

// The repo paths of the entry's files as they are now: root and each translation.
function currentFiles(ref: EntryRef): string[] {
  const dir = entriesDir(ref.workspace, ref.type.name);
  const files = [entryFileName(ref.entry.slug), ...Object.keys(ref.entry.translations).map((locale) => entryFileName(ref.entry.slug, locale))];
  return files.map((file) => `${dir}/${file}`);
}

/**
 * The entry as it was right after `commit`, read from that commit's tree, or
 * undefined when the commit left no file of it (it was removed outright).
 * Throws a plain Error naming the problem when its files cannot be parsed.
 */
export async function entryAt(repo: ContentReader, ref: EntryRef, commit: CommitInfo): Promise<StoredEntry | undefined> {
  const location = await locate(repo, ref, commit);
  if (location === undefined) return undefined;
  const root = await repo.readAt(commit.oid, `${location.dir}/${entryFileName(location.slug)}`);
  if (root === undefined) return undefined;
  const locales = new Set([...ref.type.locales, ...Object.keys(ref.entry.translations), ...location.locales]);
  const translations: Record<string, string> = {};
  for (const locale of locales) {
    const text = await repo.readAt(commit.oid, `${location.dir}/${entryFileName(location.slug, locale)}`);
    if (text !== undefined) translations[locale] = text;
  }
  const { extra: _extra, ...entry } = entryFromFiles({ slug: location.slug, root, translations }, ref.type);
  return entry;
}

interface Location {
  dir: string;
  slug: string;
  /** Locales of the entry's files this commit changed. */
  locales: string[];
}

// Where the entry's files sat after `commit`: among the files the commit
// wrote under the type's entries or trash folder, the ones with the entry's id.
async function locate(repo: ContentReader, ref: EntryRef, commit: CommitInfo): Promise<Location | undefined> {
  const { workspace, type, entry } = ref;
  const written = await writtenFiles(repo, ref, commit);
  const found: Location[] = [];
  for (const path of written) {
    const dir = path.slice(0, path.lastIndexOf('/'));
    const name = parseEntryFileName(path.slice(dir.length + 1));
    if (!name || !isEntryFolder(workspace, type.name, dir)) continue;
    const content = await repo.readAt(commit.oid, path);
    if (content === undefined) continue;
    let id = idOfFile(workspace, type.name, path, content);
    // Hand-written translations may lack `id:`; their root file says whose they are.
    if (id === undefined && name.locale) id = await rootIdAt(repo, workspace, type.name, commit.oid, `${dir}/${entryFileName(name.slug)}`);
    if (id !== entry.id) continue;
    const known = found.find((location) => location.dir === dir && location.slug === name.slug);
    if (known) known.locales.push(...(name.locale ? [name.locale] : []));
    else found.push({ dir, slug: name.slug, locales: name.locale ? [name.locale] : [] });
  }
  return found[0];
}

// The first commit of a repository has nothing to diff against; the entry's
// current file names are the only candidates there.
async function writtenFiles(repo: ContentReader, ref: EntryRef, commit: CommitInfo): Promise<string[]> {
  const parent = commit.parents[0];
  if (parent === undefined) return currentFiles(ref);
  const changed = await repo.changedPaths(parent, commit.oid, ref.workspace);
  return changed.filter((change) => change.change !== 'deleted').map((change) => change.path);
}

async function rootIdAt(repo: ContentReader, workspace: string, type: string, oid: string, path: string): Promise<string | undefined> {
  const content = await repo.readAt(oid, path);
  return content === undefined ? undefined : idOfFile(workspace, type, path, content);
}

function isEntryFolder(workspace: string, type: string, dir: string): boolean {
  if (dir === entriesDir(workspace, type)) return true;
  const trash = `${trashDir(workspace, type)}/`;
  return dir.startsWith(trash) && !dir.slice(trash.length).includes('/');
}

/**
 * The entry id a file of the type belongs to: its `id:` front matter, else
 * (root files under entries/) its slug, as the content index reads it, and
 * for trash files without `id:` the trash folder's name. Undefined for files
 * outside the type's folders or without a readable id.
 */
export function idOfFile(workspace: string, type: string, path: string, content: string): string | undefined {
  const dir = path.slice(0, path.lastIndexOf('/'));
  const name = parseEntryFileName(path.slice(dir.length + 1));
  if (!name || !isEntryFolder(workspace, type, dir)) return undefined;
  let id: unknown;
  try {
    id = parseFrontMatter(content).attributes.id;
  } catch {
    return undefined;
  }
  if (typeof id === 'string' || typeof id === 'number') return String(id);
  if (dir !== entriesDir(workspace, type)) return dir.slice(dir.lastIndexOf('/') + 1);
  return name.locale ? undefined : name.slug;
}

function hasIdLine(content: string): boolean {
  try {
    return parseFrontMatter(content).attributes.id !== undefined;
  } catch {
    return false;
  }
}
