// The editor's form as plain values: what was loaded (the base), what the
// editor has now, which keys differ, and the write body that sends only
// those. Sending only what changed keeps a translation from copying the
// default language's values, and keeps a save from undoing someone else's
// change to another field.
import type { ContentType, Entry, EntryStatus } from '../../api/types.ts';

/** The values of the form: the entry's own keys plus the custom fields. */
export interface FormValues {
  title: string;
  slug: string;
  status: EntryStatus;
  published_at: string | null;
  data: Record<string, unknown>;
}

/** A key of the form: `title`, `slug`, `status`, `published_at` or `data.<field>`. */
export type FormKey = string;

const OWN_KEYS = ['title', 'slug', 'status', 'published_at'] as const;

/** The form values of a loaded entry. */
export function valuesOf(entry: Entry): FormValues {
  return { title: entry.title, slug: entry.slug, status: entry.status, published_at: entry.published_at, data: { ...entry.data } };
}

/** The values of a new entry: empty, with each field's default. */
export function newValues(type: ContentType): FormValues {
  const data: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(type.fields)) if (def.default !== undefined) data[name] = def.default;
  return { title: '', slug: type.singleton ? type.name : '', status: 'draft', published_at: null, data };
}

/** Every key of the form for `type`, in the order the editor shows them. */
export function formKeys(type: ContentType): FormKey[] {
  return [...OWN_KEYS, ...Object.keys(type.fields).map((name) => `data.${name}`)];
}

/** The value of one key. */
export function valueAt(values: FormValues, key: FormKey): unknown {
  return key.startsWith('data.') ? values.data[key.slice(5)] : values[key as (typeof OWN_KEYS)[number]];
}

/** `values` with one key set. */
export function withValue(values: FormValues, key: FormKey, value: unknown): FormValues {
  if (key.startsWith('data.')) return { ...values, data: { ...values.data, [key.slice(5)]: value } };
  return { ...values, [key]: value };
}

/** Whether two values are the same (deep, by their JSON). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The keys whose values differ between `base` and `current`. */
export function changedKeys(type: ContentType, base: FormValues, current: FormValues): FormKey[] {
  return formKeys(type).filter((key) => !sameValue(valueAt(base, key), valueAt(current, key)));
}

/**
 * The write body with the given keys (API.md "Entries": a flat object, fields
 * at the top). An emptied input (a number, date or time box holds undefined)
 * is sent as null, which clears the field: JSON would drop an undefined key,
 * and the partial update would keep the old value.
 */
export function bodyOf(values: FormValues, keys: FormKey[], locale: string | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of keys) body[key.startsWith('data.') ? key.slice(5) : key] = valueAt(values, key) ?? null;
  if (locale) body.locale = locale;
  return body;
}

/** The body of a create: every key with a value; the slug only when typed (the server makes one from the title). */
export function createBodyOf(type: ContentType, values: FormValues, locale: string | undefined): Record<string, unknown> {
  const keys = formKeys(type).filter((key) => {
    const value = valueAt(values, key);
    if (key === 'slug' && type.singleton) return false;
    return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
  });
  return bodyOf(values, keys, locale);
}
