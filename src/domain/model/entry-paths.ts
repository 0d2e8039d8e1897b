// Where an entry's files live in the content repo and how they are named
// (docs/static-sites.md): {ws}/entries/{type}/{slug}.md for the default
// locale, {slug}.{locale}.md for another one, {ws}/trash/{type} once deleted.
import { groupBy } from '../../lib/group-by.ts';

/** The locale codes a file name may carry (`{slug}.{locale}.md`). */
const SLUG_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:\.([A-Za-z0-9_-]{1,35}))?\.md$/;
/** A file directly in a type's entries folder: `{ws}/entries/{type}/{name}`. */
const ENTRY_PATH = /^([^/]+)\/entries\/([^/]+)\/([^/]+)$/;

/** A repo path directly in a type's entries folder, split (parseEntryPath). */
export interface EntryPath {
  workspace: string;
  type: string;
  fileName: string;
  /** The slug and locale the file name gives; undefined for a stray file (not an entry file name). */
  file: { slug: string; locale?: string } | undefined;
}

/** The folder of a type's entries: `{ws}/entries/{type}`. */
export function entriesDir(workspace: string, type: string): string {
  return `${workspace}/entries/${type}`;
}

/** The folder of a type's deleted entries: `{ws}/trash/{type}`. */
export function trashDir(workspace: string, type: string): string {
  return `${workspace}/trash/${type}`;
}

/** The name of an entry file: `{slug}.md` or `{slug}.{locale}.md`. */
export function entryFileName(slug: string, locale?: string): string {
  return locale ? `${slug}.${locale}.md` : `${slug}.md`;
}

/** Splits an entry file name into slug and locale; undefined when it is not an entry file. */
export function parseEntryFileName(name: string): { slug: string; locale?: string } | undefined {
  const match = SLUG_FILE.exec(name);
  if (!match) return undefined;
  return match[2] ? { slug: match[1], locale: match[2] } : { slug: match[1] };
}

/**
 * Splits `{ws}/entries/{type}/{name}` into its parts, the file name parsed as
 * parseEntryFileName does; undefined for any other path (deeper or elsewhere).
 * One reading of the layout for the index, the problems register and the
 * changes feed, so they agree on which files belong to which entry.
 */
export function parseEntryPath(path: string): EntryPath | undefined {
  const match = ENTRY_PATH.exec(path);
  if (!match) return undefined;
  return { workspace: match[1], type: match[2], fileName: match[3], file: parseEntryFileName(match[3]) };
}

/**
 * Files by the slug their repo path (`pathOf(file)`) gives, an entry's root
 * file and its translations together, in their order; files that are not
 * entry files (parseEntryPath: a stray name, a subfolder) are left out.
 * Slugs are unique per type only, so the files are those of one type's
 * folder.
 */
export function groupBySlug<T>(files: Iterable<T>, pathOf: (file: T) => string): Map<string, T[]> {
  return groupBy(files, (file) => parseEntryPath(pathOf(file))?.file?.slug);
}
