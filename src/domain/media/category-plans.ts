// What a category operation changes, worked out from the current category
// list and records before anything is written: the new list, the records
// that move, and the events. media-service.ts authorizes and commits the plan.
import { AppError } from '../../errors/app-error.ts';
import { isWithin, joinCategory, movedCategory, parentOf, parseCategory, sortCategories, withAncestors } from './categories.ts';
import type { MediaRecord } from './media-record.ts';
import type { MediaChangeSet } from './media-writer.ts';

/** The categories and records a plan starts from. */
export interface CategoryState {
  /** Every category path (meta.categories). */
  categories: string[];
  records: readonly MediaRecord[];
}

/** The list with `category` and its parents added, or undefined when they all exist already. Throws nothing. */
export function listWith(state: CategoryState, category: string): string[] | undefined {
  const missing = withAncestors(category).filter((path) => !state.categories.includes(path));
  return missing.length === 0 ? undefined : sortCategories([...state.categories, ...missing]);
}

/**
 * The full path of a category to create from `name` (which may be a path)
 * and an optional `parent`. Throws validation_failed for an empty or
 * malformed name and for a parent that does not exist.
 */
export function newCategoryPath(state: CategoryState, name: string, parent: string | undefined): string {
  const parsedParent = parent === undefined ? '' : parseCategory(parent, 'parent');
  if (parsedParent !== '' && !state.categories.includes(parsedParent)) {
    throw new AppError('validation_failed', `No category "${parsedParent}".`, { fields: { parent: 'This category does not exist.' } });
  }
  const parsedName = parseCategory(name, 'name');
  if (parsedName === '') throw new AppError('validation_failed', 'A category needs a name.', { fields: { name: 'The name must not be empty.' } });
  return joinCategory(parsedParent, parsedName);
}

/** Throws validation_failed (422, SPEC's status for category routes) when the category does not exist. */
export function assertCategoryExists(state: CategoryState, category: string): void {
  if (category === '' || !state.categories.includes(category)) {
    throw new AppError('validation_failed', `No category "${category}".`, { fields: { category: 'This category does not exist.' } });
  }
}

/**
 * Where a rename of `from` leads: a `name` with a separator is the new full
 * path, a plain name replaces the last name (the category stays under its
 * parent). Throws validation_failed for a malformed name, a move into its own
 * subtree, or a path that exists already.
 */
export function renamedCategoryPath(state: CategoryState, from: string, name: string): string {
  const parsed = parseCategory(name, 'name');
  if (parsed === '') throw new AppError('validation_failed', 'A category needs a name.', { fields: { name: 'The name must not be empty.' } });
  const to = name.includes('/') ? parsed : joinCategory(parentOf(from), parsed);
  if (to === from) return to;
  if (isWithin(to, from)) {
    throw new AppError('validation_failed', `The category "${from}" cannot move into itself.`, { fields: { name: 'A category cannot become its own subcategory.' } });
  }
  if (state.categories.includes(to)) {
    throw new AppError('validation_failed', `A category "${to}" exists already.`, { fields: { name: 'A category with this path exists already.' } });
  }
  return to;
}

/** The change set of renaming `from` (and its subcategories) to `to`; every file in them moves along. Throws nothing. */
export function planCategoryRename(state: CategoryState, from: string, to: string): MediaChangeSet {
  const categories = sortCategories([...state.categories.map((path) => (isWithin(path, from) ? movedCategory(path, from, to) : path)), ...withAncestors(to)]);
  const put = state.records.filter((record) => isWithin(record.category, from)).map((record) => ({ ...record, category: movedCategory(record.category, from, to) }));
  return {
    message: `Rename media category ${from} to ${to}`,
    put,
    categories,
    events: put.map((record) => ({ type: 'media.updated' as const, data: { filename: record.filename } })),
  };
}

/** The change set of deleting a category and its subcategories; their files keep existing with no category. Throws nothing. */
export function planCategoryDelete(state: CategoryState, category: string): MediaChangeSet {
  const put = state.records.filter((record) => isWithin(record.category, category)).map((record) => ({ ...record, category: '' }));
  return {
    message: `Delete media category ${category}`,
    put,
    categories: state.categories.filter((path) => !isWithin(path, category)),
    events: put.map((record) => ({ type: 'media.updated' as const, data: { filename: record.filename } })),
  };
}
