// Which keys of an entry's files hold field values: the type's first
// markdown field is the file body, and a front-matter key that is no field of
// the type is one the files use for themselves (id, status, dates).
import type { ContentType } from './content-type.ts';

/** The field whose value is the markdown body of the file: the type's first markdown field. */
export function bodyFieldOf(type: ContentType): string | undefined {
  // Names only, not [name, field] pairs: a start asks this for each of ten thousand files.
  return Object.keys(type.fields).find((name) => type.fields[name].type === 'markdown');
}

/** Whether `name` is a front-matter key the files use for themselves in `type` (a custom field may take a tool key's name). */
export function isToolKey(type: ContentType, name: string): boolean {
  return !Object.hasOwn(type.fields, name);
}
