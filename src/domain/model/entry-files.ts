// How an entry maps onto files in the content repo (docs/static-sites.md):
// {ws}/entries/{type}/{slug}.md is the entry's page in the default locale and
// {slug}.{locale}.md its page in another locale. Every file is a complete
// page, so Hugo, Eleventy and Astro build each one as it is: the shared keys
// (id, status, dates, author) and every field value, the locale's own or the
// default locale's. Custom fields sit at the top level of the front matter;
// the type's first markdown field is the file body.
import { isDeepStrictEqual } from 'node:util';
import { isLocalized, type ContentType } from './content-type.ts';
import { ENTRY_STATUSES, isPubliclyVisible, type EntryStatus, type StoredEntry, type Translation } from './entry.ts';
import { setOwn } from './field-values.ts';
import { parseFrontMatter, stringifyFrontMatter } from './front-matter.ts';
import { IDENTIFIER_PATTERN } from './slug.ts';

/** The locale codes a file name may carry (`{slug}.{locale}.md`). */
const SLUG_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:\.([A-Za-z0-9_-]{1,35}))?\.md$/;
const EPOCH = '1970-01-01T00:00:00.000Z';

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

/** The field whose value is the markdown body of the file: the type's first markdown field. */
export function bodyFieldOf(type: ContentType): string | undefined {
  return Object.entries(type.fields).find(([, field]) => field.type === 'markdown')?.[0];
}

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

/** Whether `name` is a front-matter key the files use for themselves in `type` (a custom field may take a tool key's name). */
function isToolKey(type: ContentType, name: string): boolean {
  return !Object.hasOwn(type.fields, name);
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

/**
 * `values` without the fields that hold no value: null, an empty list, or an
 * empty body (the file has none). A cleared optional field is a missing key
 * in the file, which every site generator reads as "not set" and Astro's
 * `.optional()` schemas accept, where `null` breaks the build
 * (docs/static-sites.md, "Empty fields"). The API answers a missing key as
 * it answers null or [] (locales/resolve.ts), so entries keep their answers.
 * Keys that are not fields of the type, and the empty string of another
 * field (a text's value), stay as they are. Throws nothing.
 */
export function withoutEmptyValues(values: Record<string, unknown>, type: ContentType): Record<string, unknown> {
  const bodyField = bodyFieldOf(type);
  return valuesWithout(values, type, (value, name) => isCleared(value, name, bodyField) || (Array.isArray(value) && value.length === 0));
}

/**
 * A translation's own values without the cleared ones: null, an empty single
 * media field or an empty body. The locale then has no value of its own
 * there and its page repeats the default locale's, which is what the API
 * answers for a null already. An empty list of a multiple field stays: it
 * is that locale's own "none", and `tags: []` is a value every generator accepts. Throws nothing.
 */
export function withoutClearedValues(values: Record<string, unknown>, type: ContentType): Record<string, unknown> {
  const bodyField = bodyFieldOf(type);
  return valuesWithout(values, type, (value, name) => isCleared(value, name, bodyField) || (Array.isArray(value) && value.length === 0 && isSingleMedia(type, name)));
}

function isCleared(value: unknown, name: string, bodyField: string | undefined): boolean {
  return value === null || value === undefined || (value === '' && name === bodyField);
}

function isSingleMedia(type: ContentType, name: string): boolean {
  const field = Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
  return field?.type === 'media' && !field.multiple;
}

// The same object when nothing is dropped: most writes and every scheduler rewrite of a full entry pay one pass over its keys.
function valuesWithout(values: Record<string, unknown>, type: ContentType, isDropped: (value: unknown, name: string) => boolean): Record<string, unknown> {
  let kept: Record<string, unknown> | undefined;
  for (const name of Object.keys(values)) {
    if (!Object.hasOwn(type.fields, name) || !isDropped(values[name], name)) continue;
    kept ??= { ...values };
    delete kept[name];
  }
  return kept ?? values;
}

// In memory a media field is a list, as the admin API answers it.
function storedValue(type: ContentType, name: string, value: unknown): unknown {
  return type.fields[name]?.type === 'media' && typeof value === 'string' ? [value] : value;
}

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

// toISOString's own form with a day and hour every month and day has, so
// that formatting the parsed time gives the very same text back; or that
// form without its milliseconds (as people write dates), which formatting
// gives back with `.000`.
const ISO_FORM = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{3})?Z$/;

/**
 * A file's date as the ISO 8601 UTC text the API answers, or undefined when
 * Date.parse cannot read it. The server writes dates in that form already;
 * those are returned as they are, which spares the formatting of tens of
 * thousands of dates at every start (and those written without
 * milliseconds get them added).
 */
export function isoDate(text: string): string | undefined {
  if (ISO_FORM.test(text)) return text.length === 24 ? text : `${text.slice(0, 19)}.000Z`;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
