// Reading an entry from its files (docs/static-sites.md): hand-written files
// work too, with lenient defaults for the system keys, and a translation file
// holds its locale's own values where they differ from the default page.
// Writing them is entry-to-files.ts.
import { isDeepStrictEqual } from 'node:util';
import { isLocalized, type ContentType } from './content-type.ts';
import { ENTRY_STATUSES, type EntryStatus, type StoredEntry, type Translation } from './entry.ts';
import { bodyFieldOf, isToolKey } from './entry-file-keys.ts';
import { entryFileName } from './entry-paths.ts';
import { setOwn } from './field-values.ts';
import { parseFrontMatter } from './front-matter.ts';
import { isoDate } from './iso-date.ts';
import { IDENTIFIER_PATTERN } from './slug.ts';

const EPOCH = '1970-01-01T00:00:00.000Z';

/** What entryFromFiles needs: the root file's text and each translation file's text by locale. */
export interface EntryFileSet {
  slug: string;
  root: string;
  translations: Record<string, string>;
}

/** A problem with one of an entry's files: `file` is the file name (`{slug}.{locale}.md`), `field` the key to blame. */
export class EntryFileError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Parses an entry's files with the reading rules of docs/static-sites.md:
 * missing system values get lenient defaults so that hand-written files work
 * (id defaults to the slug; `status` and `draft` read as Hugo, Eleventy and
 * Astro read them; dates from `date`, `publishDate` and `lastmod` too). A
 * translation's values equal to the default locale's are inherited, not its
 * own. Throws EntryFileError naming the file when one cannot be used, or
 * when a translation disagrees with the default page on a shared key.
 */
export function entryFromFiles(files: EntryFileSet, type: ContentType): StoredEntry & { extra: Record<string, unknown> } {
  const bodyField = bodyFieldOf(type);
  const rootName = entryFileName(files.slug);
  const root = parseFrontMatter(files.root);
  const attributes = root.attributes;
  const read = <T>(file: string, parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      throw error instanceof EntryFileError ? error : new EntryFileError(error instanceof Error ? error.message : String(error), file);
    }
  };
  const entry = read(rootName, () => rootEntry(files.slug, attributes, type));
  entry.data = customValues(attributes, root.body, bodyField, type);
  entry.extra = { deleted_at: attributes.deleted_at, deleted_by: attributes.deleted_by };
  const defaultLocale = isLocalized(type) ? type.default_locale : undefined;
  for (const [locale, text] of Object.entries(files.translations)) {
    const file = entryFileName(files.slug, locale);
    const translation = read(file, () => translationFromFile(text, bodyField, locale, type, attributes, file));
    if (locale === defaultLocale) {
      // A `{slug}.{default}.md` from before the default page was the root file: its values win, and the next write folds it in.
      entry.title = translation.title || entry.title;
      entry.data = { ...entry.data, ...translation.data };
    } else {
      entry.translations[locale] = { title: translation.title, data: ownTranslationValues(translation.data, entry.data) };
    }
  }
  if (defaultLocale !== undefined) entry.translations[defaultLocale] = { title: entry.title, data: entry.data };
  return entry;
}

function rootEntry(slug: string, attributes: Record<string, unknown>, type: ContentType): StoredEntry & { extra: Record<string, unknown> } {
  const id = optionalString(attributes.id, 'id') ?? slug;
  if (!IDENTIFIER_PATTERN.test(id)) throw new Error('The id must be letters, digits, hyphens or underscores.');
  const status = statusOf(attributes.status, attributes.draft);
  const tool = (name: string) => (isToolKey(type, name) ? optionalDate(attributes[name], name) : undefined);
  const date = tool('date');
  const createdAt = optionalDate(attributes.created_at, 'created_at') ?? date ?? EPOCH;
  const publishedAt = optionalDate(attributes.published_at, 'published_at') ?? tool('publishDate') ?? (status === 'published' || status === 'scheduled' ? date : undefined);
  const entry: StoredEntry & { extra: Record<string, unknown> } = {
    id,
    slug,
    type: type.name,
    status,
    title: optionalString(attributes.title, 'title') ?? '',
    published_at: publishedAt ?? null,
    created_at: createdAt,
    updated_at: optionalDate(attributes.updated_at, 'updated_at') ?? tool('lastmod') ?? createdAt,
    data: {},
    translations: {},
    extra: {},
  };
  const authorId = optionalString(attributes.author_id, 'author_id');
  const updatedBy = optionalString(attributes.updated_by, 'updated_by');
  if (authorId) entry.author_id = authorId;
  if (updatedBy) entry.updated_by = updatedBy;
  return entry;
}

/**
 * The status a file means, reading `draft` as the site generators do: without
 * `status`, `draft: true` is a draft and anything else is published;
 * `draft: true` hides a `published` entry, `draft: false` publishes a draft,
 * protected or archived one; a scheduled entry waits for its date either way.
 */
function statusOf(status: unknown, draft: unknown): EntryStatus {
  if (draft !== undefined && draft !== null && typeof draft !== 'boolean') throw new Error('The draft must be true or false.');
  if (status === undefined || status === null) return draft === true ? 'draft' : 'published';
  if (typeof status !== 'string' || !(ENTRY_STATUSES as readonly string[]).includes(status)) {
    throw new Error(`The status must be one of ${ENTRY_STATUSES.join(', ')}.`);
  }
  if (draft === true && status === 'published') return 'draft';
  if (draft === false && status !== 'published' && status !== 'scheduled') return 'published';
  return status as EntryStatus;
}

// Keys a translation file repeats from the default page; a different value is a disagreement (issue: translations drift apart).
const SHARED_FILE_KEYS = ['id', 'status', 'draft', 'date', 'publishDate', 'lastmod', 'published_at', 'created_at', 'updated_at', 'author_id', 'updated_by'];

function translationFromFile(text: string, bodyField: string | undefined, locale: string, type: ContentType, rootAttributes: Record<string, unknown>, file: string): Translation {
  const parsed = parseFrontMatter(text);
  for (const key of SHARED_FILE_KEYS) {
    if (!isToolKey(type, key)) continue;
    const own = parsed.attributes[key];
    if (own === undefined || sameScalar(own, rootAttributes[key])) continue;
    throw new EntryFileError(`"${key}" is ${JSON.stringify(own)} here but ${JSON.stringify(rootAttributes[key] ?? null)} in the default-locale file; shared keys must agree in every locale's file.`, file, key);
  }
  const title = parsed.attributes.title;
  if (title !== undefined && title !== null && typeof title !== 'string') throw new EntryFileError(`The title of locale "${locale}" must be a string.`, file, 'title');
  return { title: title ?? '', data: customValues(parsed.attributes, parsed.body, bodyField, type) };
}

function sameScalar(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') {
    const [timeA, timeB] = [Date.parse(a), Date.parse(b)];
    return !Number.isNaN(timeA) && timeA === timeB;
  }
  return false;
}

/** A translation's own values: those that differ from the default locale's (a translation page repeats the others). */
export function ownTranslationValues(values: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!isDeepStrictEqual(value, Object.hasOwn(defaults, name) ? defaults[name] : undefined)) setOwn(own, name, value);
  }
  return own;
}

const SYSTEM_FILE_KEYS = new Set([...SHARED_FILE_KEYS, 'title', 'deleted_at', 'deleted_by']);

// Everything that is not a key of the files' own is a field value; a custom field may be named like a tool key (`date`).
function customValues(attributes: Record<string, unknown>, body: string, bodyField: string | undefined, type: ContentType) {
  const data: Record<string, unknown> = {};
  // Keys, not entries: no [key, value] pair is made for each key of each file at start.
  for (const key of Object.keys(attributes)) {
    if (!SYSTEM_FILE_KEYS.has(key) || (!isToolKey(type, key) && key !== 'title')) setOwn(data, key, storedValue(type, key, attributes[key]));
  }
  if (bodyField && body !== '') data[bodyField] = body;
  return data;
}

// In memory a media field is a list, as the admin API answers it.
function storedValue(type: ContentType, name: string, value: unknown): unknown {
  return type.fields[name]?.type === 'media' && typeof value === 'string' ? [value] : value;
}

function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new Error(`The ${key} must be a string.`);
  return value;
}

function optionalDate(value: unknown, key: string): string | undefined {
  const text = optionalString(value, key);
  if (text === undefined || text === '') return undefined;
  const iso = isoDate(text);
  if (iso === undefined) throw new Error(`The ${key} is not a date.`);
  return iso;
}
