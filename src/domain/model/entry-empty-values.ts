// The values an entry's files leave out: a cleared field is a missing key,
// never `null` (docs/static-sites.md, "Empty fields").
import type { ContentType } from './content-type.ts';
import { bodyFieldOf } from './entry-file-keys.ts';

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
