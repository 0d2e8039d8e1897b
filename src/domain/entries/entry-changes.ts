// Builds the next StoredEntry from a validated write: slug and id rules,
// defaults, status and published_at rules, where localized values go, and the
// checks that need the whole collection (unique fields, relation targets).
import { AppError, validationFailed, type FieldErrors } from '../../errors/app-error.ts';
import type { IndexedType } from '../content/content-index.ts';
import { isLocalized, type ContentType } from '../model/content-type.ts';
import { withoutClearedValues, withoutEmptyValues } from '../model/entry-empty-values.ts';
import { ownTranslationValues } from '../model/entry-from-files.ts';
import type { EntryInput } from './entry-input.ts';
import type { StoredEntry } from '../model/entry.ts';
import { applyDefaults, validateFieldValues } from '../model/field-values.ts';
import { newEntryId } from './ids.ts';
import { slugify, uniqueSlug } from '../model/slug.ts';

/** Who writes (actorIdOf() of the principal) and when, for the system keys of a change. */
export interface ChangeContext {
  actor: string | undefined;
  /** ISO time of the write. */
  now: string;
}

/** The entry a create makes. Throws validation_failed or conflict. */
export async function buildCreatedEntry(indexed: IndexedType, input: EntryInput, context: ChangeContext): Promise<StoredEntry> {
  const { type } = indexed;
  const errors: FieldErrors = {};
  const checked = validateFieldValues(applyDefaults(input.values, type.fields), type.fields, { partial: false });
  Object.assign(errors, checked.errors);
  if (input.title === undefined || input.title.trim() === '') errors.title = 'The title is required.';
  if (input.status === 'scheduled' && !input.published_at) errors.published_at = 'A scheduled entry needs a published_at date.';
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  const title = input.title ?? '';
  const { id, slug } = await nameNewEntry(indexed, input.slug, title);
  const status = input.status ?? 'draft';
  const entry: StoredEntry = {
    id,
    slug,
    type: type.name,
    status,
    title,
    published_at: input.published_at ?? (status === 'published' ? context.now : null),
    created_at: context.now,
    updated_at: context.now,
    data: withoutEmptyValues(checked.values, type),
    translations: {},
  };
  if (context.actor) entry.author_id = entry.updated_by = context.actor;
  // The root file is the default locale's page, whichever locale the entry was written in first (entry-to-files.ts).
  if (isLocalized(type)) {
    entry.translations[type.default_locale] = { title, data: entry.data };
    const locale = input.locale ?? type.default_locale;
    if (locale !== type.default_locale) entry.translations[locale] = { title, data: {} };
  }
  return entry;
}

// A single page's entry is named after its type; any other takes the slug it
// was given or a free one made from its title. Throws conflict.
async function nameNewEntry(indexed: IndexedType, givenSlug: string | undefined, title: string): Promise<{ id: string; slug: string }> {
  const { type, index } = indexed;
  if (type.singleton) {
    if (index.size > 0) throw new AppError('conflict', `The single page "${type.name}" already has its entry.`);
    return { id: type.name, slug: type.name };
  }
  if (givenSlug !== undefined) {
    if (index.getBySlug(givenSlug)) throw new AppError('conflict', `The slug "${givenSlug}" is already used in "${type.name}".`);
    return { id: newEntryId(), slug: givenSlug };
  }
  const base = await slugify(title);
  return { id: newEntryId(), slug: uniqueSlug(base, (candidate) => !!index.getBySlug(candidate)) };
}

/** The entry an update makes (partial). Throws validation_failed or conflict. */
export function buildUpdatedEntry(indexed: IndexedType, current: StoredEntry, input: EntryInput, context: ChangeContext): StoredEntry {
  const { type, index } = indexed;
  const checked = validateFieldValues(input.values, type.fields, { partial: true });
  const errors: FieldErrors = { ...checked.errors };
  if (input.title !== undefined && input.title.trim() === '') errors.title = 'The title cannot be empty.';
  if (type.singleton && input.slug !== undefined && input.slug !== current.slug) errors.slug = 'A single page keeps the type name as its slug.';
  const status = input.status ?? current.status;
  const publishedAt = input.published_at !== undefined ? input.published_at : current.published_at;
  if (status === 'scheduled' && !publishedAt) errors.published_at = 'A scheduled entry needs a published_at date.';
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  if (input.slug !== undefined && input.slug !== current.slug && index.getBySlug(input.slug)) {
    throw new AppError('conflict', `The slug "${input.slug}" is already used in "${type.name}".`);
  }

  const next: StoredEntry = {
    ...current,
    slug: input.slug ?? current.slug,
    status,
    published_at: publishedAt ?? (status === 'published' ? context.now : null),
    updated_at: context.now,
    data: current.data,
    translations: { ...current.translations },
  };
  if (context.actor) next.updated_by = context.actor;
  writeValues(next, type, input, checked.values);
  return next;
}

// Values of a localized type go to the chosen locale's translation; the
// default locale's values are mirrored into the root file, which is what
// non-localized readers (and a later "disable localization") see. A cleared
// value leaves the data as the files will read back (no key), so the entry
// in memory, its ETag and its answers are those of the next start.
function writeValues(entry: StoredEntry, type: ContentType, input: EntryInput, values: Record<string, unknown>): void {
  const locale = isLocalized(type) ? input.locale ?? type.default_locale : undefined;
  if (locale === undefined || locale === type.default_locale) {
    entry.title = input.title ?? entry.title;
    entry.data = withoutEmptyValues({ ...entry.data, ...values }, type);
    if (locale !== undefined) entry.translations[locale] = { title: entry.title, data: entry.data };
    return;
  }
  const previous = entry.translations[locale] ?? { title: entry.title, data: {} };
  const own = withoutClearedValues({ ...previous.data, ...values }, type);
  entry.translations[locale] = { title: input.title ?? previous.title, data: ownTranslationValues(own, entry.data) };
}


/** The entries of a type as the reference checks see them: an IndexedType, or a pushed commit's view (domain/git). */
export interface ReferenceScope {
  type: ContentType;
  index: { all(): readonly StoredEntry[]; get(id: string): StoredEntry | undefined };
}

/**
 * Checks what needs the rest of the workspace for the fields a write sets:
 * `unique` values among active entries and relation ids that must exist in
 * the target type. Throws validation_failed.
 */
export function checkReferences(entry: StoredEntry, indexed: ReferenceScope, findType: (name: string) => Pick<ReferenceScope, 'index'> | undefined, written: string[]): void {
  const errors: FieldErrors = {};
  // Only unique fields need the other entries; most writes never pay for the copy.
  let others: readonly StoredEntry[] | undefined;
  const othersOf = () => (others ??= indexed.index.all().filter((other) => other.id !== entry.id));
  for (const name of written) {
    const field = indexed.type.fields[name];
    if (!field) continue;
    for (const values of [entry.data, ...Object.values(entry.translations).map((translation) => translation.data)]) {
      const value = values[name];
      if (value === undefined || value === null || value === '') continue;
      if (field.unique && othersOf().some((other) => sameValue(other.data[name], value))) {
        errors[name] = `The value of "${name}" is already used by another entry.`;
      }
      if (field.type === 'relation' && field.target) {
        const target = findType(field.target);
        const missing = (Array.isArray(value) ? value : [value]).filter((id) => !target?.index.get(String(id)));
        if (missing.length > 0) errors[name] = `No entry ${missing.map((id) => `"${String(id)}"`).join(', ')} in "${field.target}".`;
      }
    }
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return a === b;
}
