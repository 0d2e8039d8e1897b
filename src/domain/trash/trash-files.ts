// Reading the trash folder of a content type: `{ws}/trash/{type}/{id}/` holds
// one soft-deleted entry in the entry file format, with `deleted_at` and
// `deleted_by` in the root front matter. The trash is not indexed in memory:
// only admin screens read it, and reading the folder keeps it true to the
// working tree, commits made with plain git included.
import { entryFromFiles } from '../model/entry-from-files.ts';
import { parseEntryFileName, trashDir } from '../model/entry-paths.ts';
import type { StoredEntry } from '../model/entry.ts';
import type { ContentType } from '../model/content-type.ts';
import type { ContentReader } from '../content/content-writer.ts';
import { groupBy } from '../../lib/group-by.ts';

/** A soft-deleted entry with who deleted it, when, and the repo paths of its files. */
export interface TrashedEntry {
  entry: StoredEntry;
  deleted_at: string | null;
  deleted_by: string | null;
  files: string[];
}

/** A trash folder whose files could not be read as an entry. */
export interface TrashProblem {
  folder: string;
  files: string[];
  reason: string;
}

/** Every trashed entry of a type, newest deletion first, and the folders that could not be read. */
export async function readTrash(repo: ContentReader, workspace: string, type: ContentType): Promise<{ entries: TrashedEntry[]; problems: TrashProblem[] }> {
  const root = trashDir(workspace, type.name);
  const folders = groupBy(await repo.listFiles(root), (path) => {
    const [id, file, ...deeper] = path.slice(root.length + 1).split('/');
    return file === undefined || deeper.length > 0 ? undefined : id;
  });
  const entries: TrashedEntry[] = [];
  const problems: TrashProblem[] = [];
  for (const [id, files] of folders) {
    const read = await readFolder(repo, type, files);
    if ('reason' in read) problems.push({ folder: `${root}/${id}`, files, reason: read.reason });
    else entries.push(read);
  }
  entries.sort((a, b) => (b.deleted_at ?? '').localeCompare(a.deleted_at ?? '') || a.entry.slug.localeCompare(b.entry.slug));
  return { entries, problems };
}

/** The trashed entry in folder `{id}`, or undefined when there is none (or it cannot be read; `files` then still lists what is there). */
export async function readTrashedEntry(repo: ContentReader, workspace: string, type: ContentType, id: string): Promise<{ trashed?: TrashedEntry; files: string[] }> {
  const files = (await repo.listFiles(`${trashDir(workspace, type.name)}/${id}`)).filter((path) => path.split('/').length === 5);
  if (files.length === 0) return { files };
  const read = await readFolder(repo, type, files);
  return 'reason' in read ? { files } : { trashed: read, files };
}

async function readFolder(repo: ContentReader, type: ContentType, files: string[]): Promise<TrashedEntry | { reason: string }> {
  const named = files.map((path) => ({ path, name: parseEntryFileName(path.slice(path.lastIndexOf('/') + 1)) }));
  const rootFile = named.find(({ name }) => name !== undefined && name.locale === undefined);
  const root = rootFile && (await repo.readFile(rootFile.path));
  if (!rootFile?.name || root === undefined) return { reason: 'The folder has no root entry file.' };
  const slug = rootFile.name.slug;
  const translations: Record<string, string> = {};
  for (const { path, name } of named) {
    const text = name?.locale && name.slug === slug ? await repo.readFile(path) : undefined;
    if (name?.locale && text !== undefined) translations[name.locale] = text;
  }
  try {
    const { extra, ...entry } = entryFromFiles({ slug, root, translations }, type);
    return { entry, deleted_at: asText(extra.deleted_at), deleted_by: asText(extra.deleted_by), files };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  return null;
}
