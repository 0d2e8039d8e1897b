// Where an entry's files live in the content repo and how they are named
// (docs/static-sites.md): {ws}/entries/{type}/{slug}.md for the default
// locale, {slug}.{locale}.md for another one, {ws}/trash/{type} once deleted.
import { groupBy } from '../../lib/group-by.ts';

/** The locale codes a file name may carry (`{slug}.{locale}.md`). */
const SLUG_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:\.([A-Za-z0-9_-]{1,35}))?\.md$/;

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
 * Files by the slug their file name (the last segment of `pathOf(file)`)
 * gives, an entry's root file and its translations together, in their order;
 * files that are not entry files are left out. Slugs are unique per type
 * only, so the files are those of one type's folder.
 */
export function groupBySlug<T>(files: Iterable<T>, pathOf: (file: T) => string): Map<string, T[]> {
  return groupBy(files, (file) => {
    const path = pathOf(file);
    return parseEntryFileName(path.slice(path.lastIndexOf('/') + 1))?.slug;
  });
}
