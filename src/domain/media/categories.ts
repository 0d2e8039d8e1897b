// Media category paths (SPEC "Media item"): names joined by " / ", parent
// first. Everything here is pure: parsing what a client sent into the one
// written form, and the tree relations that filters, renames and deletes need.
import { AppError } from '../../errors/app-error.ts';

/** The separator between a parent category and its child. */
export const CATEGORY_SEPARATOR = ' / ';

/** Longest single category name. */
export const MAX_CATEGORY_NAME = 100;

/** Deepest nesting of categories. */
export const MAX_CATEGORY_DEPTH = 10;

// Controls, direction marks and `*` (which grants treat as a wildcard, so a
// category named with it could never be granted on its own).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff*\\]/u;

/**
 * Parses a category path as a client wrote it: `/` splits names (with or
 * without spaces around it), each name is trimmed, and the result is written
 * with " / ". Returns '' for an empty or blank value (no category). Throws
 * `code` (validation_failed unless told; invalid_request for query values) naming `field` for an empty name between separators, an
 * unsafe character, a name over 100 characters or more than 10 levels.
 */
export function parseCategory(raw: string, field: string, code: 'validation_failed' | 'invalid_request' = 'validation_failed'): string {
  if (raw.trim() === '') return '';
  const names = raw.normalize('NFC').split('/').map((name) => name.trim());
  const problem = namesProblem(names);
  if (problem) throw new AppError(code, `The category "${shorten(raw)}" is not valid: ${problem}.`, { fields: { [field]: `${problem[0].toUpperCase()}${problem.slice(1)}.` } });
  return names.join(CATEGORY_SEPARATOR);
}

/** Whether `category` is `ancestor` itself or lies below it. Throws nothing. */
export function isWithin(category: string, ancestor: string): boolean {
  return category === ancestor || category.startsWith(ancestor + CATEGORY_SEPARATOR);
}

/** The category and every ancestor of it, parents first ([] for ''). Throws nothing. */
export function withAncestors(category: string): string[] {
  if (category === '') return [];
  const names = category.split(CATEGORY_SEPARATOR);
  return names.map((_, index) => names.slice(0, index + 1).join(CATEGORY_SEPARATOR));
}

/** The parent path of a category, '' for a top-level one. Throws nothing. */
export function parentOf(category: string): string {
  const at = category.lastIndexOf(CATEGORY_SEPARATOR);
  return at === -1 ? '' : category.slice(0, at);
}

/** `parent / name`, or `name` when there is no parent. Throws nothing. */
export function joinCategory(parent: string, name: string): string {
  return parent === '' ? name : `${parent}${CATEGORY_SEPARATOR}${name}`;
}

/** Where `category` ends up when `from` (it or an ancestor of it) is renamed to `to`. Throws nothing. */
export function movedCategory(category: string, from: string, to: string): string {
  return category === from ? to : to + category.slice(from.length);
}

/** Sorts category paths so that a parent comes right before its children. Throws nothing. */
export function sortCategories(categories: Iterable<string>): string[] {
  return [...new Set(categories)].sort((a, b) => {
    const left = a.split(CATEGORY_SEPARATOR);
    const right = b.split(CATEGORY_SEPARATOR);
    for (let index = 0; index < Math.min(left.length, right.length); index++) {
      if (left[index] !== right[index]) return left[index] < right[index] ? -1 : 1;
    }
    return left.length - right.length;
  });
}

function namesProblem(names: string[]): string | undefined {
  if (names.length > MAX_CATEGORY_DEPTH) return `categories nest at most ${MAX_CATEGORY_DEPTH} levels deep`;
  for (const name of names) {
    if (name === '') return 'a category name is empty';
    if ([...name].length > MAX_CATEGORY_NAME) return `a category name is longer than ${MAX_CATEGORY_NAME} characters`;
    if (UNSAFE.test(name)) return 'a category name contains a control character, "*" or "\\"';
  }
  return undefined;
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
