// Bulk edits (PATCH/DELETE /admin/api/content/{type}/bulk): which entries a
// bulk call names, and the next version of each one. Everything is checked
// before anything is written, so one bad id or one invalid entry fails the
// whole call with a 422 that names every problem, and nothing changes.
import { AppError, validationFailed, type FieldErrors } from '../../errors/app-error.ts';
import type { IndexedType } from '../content/content-index.ts';
import { buildUpdatedEntry, checkReferences, type ChangeContext } from './entry-changes.ts';
import type { EntryInput } from './entry-input.ts';
import type { StoredEntry } from '../model/entry.ts';
import { validateFieldValues } from '../model/field-values.ts';

/** Most ids one bulk call may name. */
export const MAX_BULK_IDS = 1000;

/** One entry of a bulk update: as it is and as it will be. */
export interface BulkChange {
  before: StoredEntry;
  after: StoredEntry;
}

/**
 * The entries a bulk call names, by id (or slug), in the order given. Throws
 * validation_failed when the list is empty or longer than MAX_BULK_IDS, or
 * names an id twice or an id that is not an active entry of the type; `fields`
 * then has one `ids.{id}` key per offending id.
 */
export function resolveBulkTargets(indexed: IndexedType, ids: string[]): StoredEntry[] {
  if (ids.length === 0) throw validationFailed({ ids: 'Name at least one entry.' });
  if (ids.length > MAX_BULK_IDS) throw validationFailed({ ids: `A bulk call may name at most ${MAX_BULK_IDS} entries; this one names ${ids.length}.` });
  const errors: FieldErrors = {};
  const seen = new Set<string>();
  const targets: StoredEntry[] = [];
  for (const id of ids) {
    const entry = indexed.index.get(id) ?? indexed.index.getBySlug(id);
    if (!entry) {
      errors[`ids.${id}`] = `No entry "${id}" in "${indexed.type.name}".`;
    } else if (seen.has(entry.id)) {
      errors[`ids.${id}`] = `The entry "${id}" is named more than once.`;
    } else {
      seen.add(entry.id);
      targets.push(entry);
    }
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors, `The bulk call names ${Object.keys(errors).length} id(s) it cannot use.`);
  return targets;
}

/**
 * Checks the shared changes of a bulk update once: no slug (every entry keeps
 * its own), at least one change, only valid values of known fields, and no
 * `unique` field set to one value on several entries. Throws
 * validation_failed with `changes.{key}` fields.
 */
export function checkBulkInput(indexed: IndexedType, input: EntryInput, count: number): void {
  const errors: FieldErrors = {};
  if (input.slug !== undefined) errors['changes.slug'] = 'A bulk update cannot set slugs; each entry keeps its own.';
  const changesSomething = input.title !== undefined || input.status !== undefined || input.published_at !== undefined || Object.keys(input.values).length > 0;
  if (!changesSomething && input.slug === undefined) errors.changes = 'Name at least one value to change.';
  for (const [name, message] of Object.entries(validateFieldValues(input.values, indexed.type.fields, { partial: true }).errors)) errors[`changes.${name}`] = message;
  for (const [name, value] of Object.entries(input.values)) {
    const isSet = value !== undefined && value !== null && value !== '';
    if (indexed.type.fields[name]?.unique && isSet && count > 1) errors[`changes.${name}`] = `The field "${name}" is unique; it cannot be set to one value on several entries.`;
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

/**
 * The next version of every target, validated like a single update. Throws
 * validation_failed whose `fields` hold `ids.{id}.{field}` for every entry
 * that fails, so the client sees all problems at once.
 */
export function buildBulkChanges(
  indexed: IndexedType,
  targets: StoredEntry[],
  input: EntryInput,
  context: ChangeContext & { findType: (name: string) => IndexedType | undefined },
): BulkChange[] {
  const errors: FieldErrors = {};
  const changes: BulkChange[] = [];
  for (const before of targets) {
    try {
      const after = buildUpdatedEntry(indexed, before, input, context);
      checkReferences(after, indexed, context.findType, Object.keys(input.values));
      changes.push({ before, after });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'validation_failed') throw error;
      for (const [field, message] of Object.entries(error.fields ?? { entry: error.message })) errors[`ids.${before.id}.${field}`] = message;
    }
  }
  if (Object.keys(errors).length > 0) {
    const failed = new Set(Object.keys(errors).map((key) => key.split('.')[1]));
    throw validationFailed(errors, `${failed.size} of ${targets.length} entries did not pass validation: ${[...failed].join(', ')}.`);
  }
  return changes;
}
