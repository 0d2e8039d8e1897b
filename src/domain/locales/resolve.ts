// Locale resolution: turns a StoredEntry (root values plus every saved
// translation) into the one-locale view that reads, filters, sorting and search
// work on (SPEC schema rule 5). Writing translations belongs to domain/entries.

import type { ContentType, FieldDefinition } from '../model/content-type.ts';
import type { ResolvedEntry, StoredEntry, Translation } from '../model/entry.ts';

/**
 * The locale a read of `type` resolves to: the requested code when the type
 * lists it, else the default locale; undefined for a non-localized type
 * (root values). Unsupported or removed codes are ignored, never an error.
 */
export function effectiveLocale(type: ContentType, requested?: string): string | undefined {
  if (type.locales.length === 0) return undefined;
  if (requested !== undefined && type.locales.includes(requested)) return requested;
  return type.default_locale !== '' ? type.default_locale : type.locales[0];
}

/**
 * Resolves `entry` for `locale` (see effectiveLocale): each title and field
 * value comes from that translation, else the default-locale translation,
 * else the root values. `data` holds only the current schema's fields, in
 * schema order, with the SPEC shapes for absent select, relation and media values.
 */
export function resolveEntry(entry: StoredEntry, type: ContentType, locale?: string): ResolvedEntry {
  const sources = translationChain(entry, type, locale);
  const data: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(type.fields)) {
    const value = shapeValue(def, pickValue(sources, entry.data, name));
    if (value !== undefined) data[name] = value;
  }
  const resolved: ResolvedEntry = {
    id: entry.id,
    slug: entry.slug,
    type: entry.type,
    status: entry.status,
    title: pickTitle(sources, entry.title),
    published_at: entry.published_at,
    created_at: entry.created_at,
    updated_at: entry.updated_at,
    data,
  };
  if (entry.author_id !== undefined) resolved.author_id = entry.author_id;
  if (entry.updated_by !== undefined) resolved.updated_by = entry.updated_by;
  const served = effectiveLocale(type, locale);
  if (served !== undefined) {
    const fallback = effectiveLocale(type) as string;
    const saved = savedLocales(entry, type, fallback);
    resolved.locale = saved.includes(served) ? served : fallback;
    resolved.translations = saved;
  }
  return resolved;
}

/**
 * The type's locales the entry has values in. The default locale always
 * counts: its values are the default translation or, for an entry written
 * before the type was localized, the root values.
 */
function savedLocales(entry: StoredEntry, type: ContentType, fallback: string): string[] {
  return type.locales.filter((code) => code === fallback || entry.translations[code] !== undefined);
}

/** The translations to consult, most specific first; empty for root values. */
function translationChain(entry: StoredEntry, type: ContentType, requested?: string): Translation[] {
  const locale = effectiveLocale(type, requested);
  if (locale === undefined) return [];
  const chain: Translation[] = [];
  const own = entry.translations[locale];
  if (own) chain.push(own);
  // The default locale is the fallback even when it changed after the entry was written (rule 5).
  const fallback = type.default_locale;
  if (fallback !== locale && type.locales.includes(fallback)) {
    const def = entry.translations[fallback];
    if (def) chain.push(def);
  }
  return chain;
}

function pickTitle(sources: Translation[], rootTitle: string): string {
  for (const source of sources) {
    if (typeof source.title === 'string' && source.title !== '') return source.title;
  }
  return rootTitle;
}

function pickValue(sources: Translation[], root: Record<string, unknown>, name: string): unknown {
  for (const source of sources) {
    const value = source.data?.[name];
    if (value !== undefined && value !== null) return value;
  }
  const value = root[name];
  return value === null ? undefined : value;
}

/** Applies SPEC's value shapes: media and multi fields are arrays, single select/relation one value or null. */
function shapeValue(def: FieldDefinition, value: unknown): unknown {
  const isArrayShaped = def.type === 'media' || ((def.type === 'select' || def.type === 'relation') && def.multiple === true);
  if (isArrayShaped) {
    if (value === undefined) return [];
    return Array.isArray(value) ? value : [value];
  }
  if (def.type === 'select' || def.type === 'relation') {
    if (Array.isArray(value)) return value.length > 0 ? value[0] : null;
    return value === undefined ? null : value;
  }
  return value;
}
