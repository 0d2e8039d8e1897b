// How an entry maps onto files in the content repo (DESIGN.md "Data root"):
// {ws}/entries/{type}/{slug}.md holds shared fields and root values, and
// {slug}.{locale}.md one translation. Custom fields sit at the top level of the
// front matter so static site generators read them directly; the type's first
// markdown field is the file body.
import type { ContentType } from './content-type.ts';
import { ENTRY_STATUSES, type EntryStatus, type StoredEntry, type Translation } from './entry.ts';
import { parseFrontMatter, stringifyFrontMatter } from './front-matter.ts';
import { IDENTIFIER_PATTERN } from './slug.ts';

/** The locale codes a file name may carry (`{slug}.{locale}.md`). */
const SLUG_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:\.([A-Za-z0-9_-]{1,35}))?\.md$/;
const ROOT_SYSTEM_KEYS = ['id', 'title', 'status', 'draft', 'published_at', 'created_at', 'updated_at', 'author_id', 'updated_by', 'deleted_at', 'deleted_by'];
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

/** Serializes an entry into its files, keyed by file name (root first, then each translation). */
export function entryToFiles(entry: StoredEntry, type: ContentType, extra: Record<string, unknown> = {}): Map<string, string> {
  const files = new Map<string, string>();
  const bodyField = bodyFieldOf(type);
  const hidden = entry.status !== 'published' && entry.status !== 'scheduled';
  const root: Record<string, unknown> = {
    id: entry.id,
    title: entry.title,
    status: entry.status,
    ...(hidden ? { draft: true } : {}),
    published_at: entry.published_at,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
    ...(entry.author_id ? { author_id: entry.author_id } : {}),
    ...(entry.updated_by ? { updated_by: entry.updated_by } : {}),
    ...extra,
  };
  files.set(entryFileName(entry.slug), stringifyFrontMatter(splitBody({ ...root, ...entry.data }, bodyField, Object.keys(root))));
  for (const [locale, translation] of Object.entries(entry.translations)) {
    const attributes = { id: entry.id, title: translation.title, ...(hidden ? { draft: true } : {}), ...translation.data };
    files.set(entryFileName(entry.slug, locale), stringifyFrontMatter(splitBody(attributes, bodyField, ['id', 'title', 'draft'])));
  }
  return files;
}

function splitBody(attributes: Record<string, unknown>, bodyField: string | undefined, systemKeys: string[]) {
  if (!bodyField || systemKeys.includes(bodyField)) return { attributes, body: '' };
  const { [bodyField]: body, ...rest } = attributes;
  return { attributes: rest, body: typeof body === 'string' ? body : '' };
}

/** What entryFromFiles needs: the root file's text and each translation file's text by locale. */
export interface EntryFileSet {
  slug: string;
  root: string;
  translations: Record<string, string>;
}

/**
 * Parses an entry's files. Missing system values get lenient defaults so that
 * hand-written files work (id defaults to the slug, status to draft). Throws a
 * plain Error naming the problem when a file cannot be used.
 */
export function entryFromFiles(files: EntryFileSet, type: ContentType): StoredEntry & { extra: Record<string, unknown> } {
  const bodyField = bodyFieldOf(type);
  const root = parseFrontMatter(files.root);
  const attributes = root.attributes;
  const id = optionalString(attributes.id, 'id') ?? files.slug;
  if (!IDENTIFIER_PATTERN.test(id)) throw new Error('The id must be letters, digits, hyphens or underscores.');
  const status = attributes.status ?? 'draft';
  if (typeof status !== 'string' || !(ENTRY_STATUSES as readonly string[]).includes(status)) {
    throw new Error(`The status must be one of ${ENTRY_STATUSES.join(', ')}.`);
  }
  const createdAt = optionalDate(attributes.created_at, 'created_at') ?? EPOCH;
  const entry: StoredEntry & { extra: Record<string, unknown> } = {
    id,
    slug: files.slug,
    type: type.name,
    status: status as EntryStatus,
    title: optionalString(attributes.title, 'title') ?? '',
    published_at: optionalDate(attributes.published_at, 'published_at') ?? null,
    created_at: createdAt,
    updated_at: optionalDate(attributes.updated_at, 'updated_at') ?? createdAt,
    data: customValues(attributes, root.body, bodyField, ROOT_SYSTEM_KEYS),
    translations: {},
    extra: { deleted_at: attributes.deleted_at, deleted_by: attributes.deleted_by },
  };
  const authorId = optionalString(attributes.author_id, 'author_id');
  const updatedBy = optionalString(attributes.updated_by, 'updated_by');
  if (authorId) entry.author_id = authorId;
  if (updatedBy) entry.updated_by = updatedBy;
  for (const [locale, text] of Object.entries(files.translations)) {
    entry.translations[locale] = translationFromFile(text, bodyField, locale);
  }
  return entry;
}

function translationFromFile(text: string, bodyField: string | undefined, locale: string): Translation {
  const parsed = parseFrontMatter(text);
  const title = parsed.attributes.title;
  if (title !== undefined && title !== null && typeof title !== 'string') throw new Error(`The title of locale "${locale}" must be a string.`);
  return { title: title ?? '', data: customValues(parsed.attributes, parsed.body, bodyField, ['id', 'title', 'draft']) };
}

function customValues(attributes: Record<string, unknown>, body: string, bodyField: string | undefined, systemKeys: string[]) {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (!systemKeys.includes(key)) data[key] = value;
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
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new Error(`The ${key} is not a date.`);
  return new Date(time).toISOString();
}
