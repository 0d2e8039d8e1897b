// How an entry maps onto files in the content repo (docs/static-sites.md):
// {ws}/entries/{type}/{slug}.md is the entry's page in the default locale and
// {slug}.{locale}.md its page in another locale. Every file is a complete
// page, so Hugo, Eleventy and Astro build each one as it is: the shared keys
// (id, status, dates, author) and every field value, the locale's own or the
// default locale's. Custom fields sit at the top level of the front matter;
// the type's first markdown field is the file body.
import { isLocalized, type ContentType } from './content-type.ts';
import { isPubliclyVisible, type StoredEntry } from './entry.ts';
import { bodyFieldOf, isToolKey } from './entry-file-keys.ts';
import { withoutClearedValues, withoutEmptyValues } from './entry-empty-values.ts';
import { entriesDir, entryFileName } from './entry-paths.ts';
import { stringifyFrontMatter } from './front-matter.ts';

/**
 * Serializes an entry into its files, keyed by file name: the default locale's
 * page first, then one page per other saved locale. `now` decides `draft`
 * (true while the entry is not public), so a scheduled entry's files change
 * when it comes due (PublishScheduler rewrites them then).
 */
export function entryToFiles(entry: StoredEntry, type: ContentType, extra: Record<string, unknown> = {}, now = Date.now()): Map<string, string> {
  const files = new Map<string, string>();
  const bodyField = bodyFieldOf(type);
  const shared = { ...sharedKeys(entry, type, now), ...extra };
  const rootValues = withoutEmptyValues(entry.data, type);
  files.set(entryFileName(entry.slug), pageText(entry.title, shared, rootValues, type, bodyField));
  const defaultLocale = isLocalized(type) ? type.default_locale : undefined;
  for (const [locale, translation] of Object.entries(entry.translations)) {
    if (locale === defaultLocale) continue;
    const values = { ...rootValues, ...withoutClearedValues(translation.data, type) };
    files.set(entryFileName(entry.slug, locale), pageText(translation.title || entry.title, shared, values, type, bodyField));
  }
  return files;
}

/** The entry's files as repo paths and texts under `{ws}/entries/{type}` (see entryToFiles). */
export function entryFileWrites(workspace: string, type: ContentType, entry: StoredEntry, now = Date.now()): { path: string; content: string }[] {
  const dir = entriesDir(workspace, type.name);
  return [...entryToFiles(entry, type, {}, now)].map(([file, content]) => ({ path: `${dir}/${file}`, content }));
}

// The keys every page of the entry carries, in the order they are written.
function sharedKeys(entry: StoredEntry, type: ContentType, now: number): Record<string, unknown> {
  const keys: Record<string, unknown> = { id: entry.id, status: entry.status, draft: !isPubliclyVisible(entry, now) };
  const tool = (name: string, value: unknown) => {
    if (value !== null && value !== undefined && isToolKey(type, name)) keys[name] = value;
  };
  tool('date', entry.published_at ?? entry.created_at);
  tool('publishDate', entry.published_at);
  tool('lastmod', entry.updated_at);
  keys.created_at = entry.created_at;
  if (entry.author_id) keys.author_id = entry.author_id;
  if (entry.updated_by) keys.updated_by = entry.updated_by;
  return keys;
}

function pageText(title: string, shared: Record<string, unknown>, values: Record<string, unknown>, type: ContentType, bodyField: string | undefined): string {
  const { id, ...rest } = shared;
  const attributes: Record<string, unknown> = { id, title, ...rest };
  let body = '';
  for (const [name, value] of Object.entries(values)) {
    if (name === bodyField) body = typeof value === 'string' ? value : '';
    else if (!Object.hasOwn(attributes, name)) attributes[name] = fileValue(type, name, value);
  }
  return stringifyFrontMatter({ attributes, body });
}

// A single media field is one filename in the file (the API still answers a list, as SPEC says); an empty one is never written (withoutEmptyValues).
function fileValue(type: ContentType, name: string, value: unknown): unknown {
  const field = type.fields[name];
  if (field?.type !== 'media' || field.multiple || !Array.isArray(value)) return value;
  return value[0];
}
