// Entries point at media files by file name in their media fields. When a
// file is renamed, every active entry that names it is rewritten in the same
// commit as the rename; this module finds those entries and works out the
// rewrites.
import type { FileChange } from '../../storage/content-repo.ts';
import type { ContentIndex, IndexedType } from '../content/content-index.ts';
import { entryFileWrites } from '../model/entry-to-files.ts';
import type { StoredEntry, Translation } from '../model/entry.ts';

/** One entry whose media references change: the entry before and after, and its file writes. */
export interface ReferenceRewrite {
  indexed: IndexedType;
  before: StoredEntry;
  after: StoredEntry;
  changes: FileChange[];
}

/** Who makes the change and when, recorded as the entry's `updated_by` and `updated_at`. */
export interface RewriteContext {
  actor: string | undefined;
  now: string;
}

/** Every active entry of `workspace` whose media fields (root values and translations) name `filename`. Throws nothing. */
export function entriesUsingMedia(content: ContentIndex, workspace: string, filename: string): StoredEntry[] {
  const found: StoredEntry[] = [];
  for (const indexed of content.types(workspace)) {
    const fields = mediaFieldsOf(indexed);
    if (fields.length === 0) continue;
    for (const entry of indexed.index.all()) {
      const values = [entry.data, ...Object.values(entry.translations).map((translation) => translation.data)];
      if (values.some((data) => fields.some((field) => names(data[field], filename)))) found.push(entry);
    }
  }
  return found;
}

/**
 * Finds every active entry of `workspace` whose media fields (root values and
 * translations) name `from`, and returns it rewritten to name `to`, with the
 * file writes for the commit. Call it inside a content transaction, and
 * upsert each `after` into its index once the commit succeeded. Throws nothing.
 */
export function rewriteMediaReferences(content: ContentIndex, workspace: string, from: string, to: string, context: RewriteContext): ReferenceRewrite[] {
  const rewrites: ReferenceRewrite[] = [];
  for (const indexed of content.types(workspace)) {
    const fields = mediaFieldsOf(indexed);
    if (fields.length === 0) continue;
    for (const before of indexed.index.all()) {
      const after = rewriteEntry(before, fields, from, to, context);
      if (after === before) continue;
      rewrites.push({ indexed, before, after, changes: entryFileWrites(workspace, indexed.type, after) });
    }
  }
  return rewrites;
}

// Returns the same object when nothing refers to `from`, so callers can skip it.
function rewriteEntry(entry: StoredEntry, fields: string[], from: string, to: string, context: RewriteContext): StoredEntry {
  const data = rewriteValues(entry.data, fields, from, to);
  let changed = data !== entry.data;
  const translations: Record<string, Translation> = {};
  for (const [locale, translation] of Object.entries(entry.translations)) {
    const values = rewriteValues(translation.data, fields, from, to);
    changed ||= values !== translation.data;
    translations[locale] = values === translation.data ? translation : { ...translation, data: values };
  }
  if (!changed) return entry;
  const after: StoredEntry = { ...entry, data, translations, updated_at: context.now };
  if (context.actor !== undefined) after.updated_by = context.actor;
  return after;
}

function rewriteValues(values: Record<string, unknown>, fields: string[], from: string, to: string): Record<string, unknown> {
  let result = values;
  for (const field of fields) {
    const value = values[field];
    const replaced = !names(value, from) ? value : Array.isArray(value) ? value.map((item) => (item === from ? to : item)) : to;
    if (replaced === value) continue;
    if (result === values) result = { ...values };
    result[field] = replaced;
  }
  return result;
}

function mediaFieldsOf(indexed: IndexedType): string[] {
  return Object.entries(indexed.type.fields).filter(([, field]) => field.type === 'media').map(([name]) => name);
}

// Hand-written files may hold a single file name instead of a list.
function names(value: unknown, filename: string): boolean {
  return value === filename || (Array.isArray(value) && value.includes(filename));
}
