// Comparable forms of entry values, shared by sorting, filtering and query
// parsing so that a filter value and a stored value are always compared the
// same way: numbers as numbers, ISO dates as epoch ms, other strings
// case-insensitively. Parsing happens once per value, never inside a sort.

import type { ContentType } from '../model/content-type.ts';

/** How a field's values compare. */
export type ValueKind = 'number' | 'boolean' | 'date' | 'string';

/** An ordering key: numbers sort before strings; strings are lower-cased. */
export type SortKey = number | string;

/** An equality value: exact (case-sensitive) for strings, typed otherwise. */
export type EqValue = number | string | boolean;

/** The comparable forms of one stored value item (one per array item). */
export interface ValueItem {
  key: SortKey;
  eq: EqValue;
  /** Lower-cased string form, for `contains`. */
  text: string;
}

/** System keys a list query may filter and sort on, with how they compare. */
export const SYSTEM_QUERY_FIELDS: Readonly<Record<string, ValueKind>> = {
  id: 'string',
  slug: 'string',
  status: 'string',
  title: 'string',
  created_at: 'date',
  updated_at: 'date',
  published_at: 'date',
};

/** System query fields whose value is the same in every locale. */
export const SHARED_QUERY_FIELDS: ReadonlySet<string> = new Set(['id', 'slug', 'status', 'created_at', 'updated_at', 'published_at']);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The value kind of `field` in `type`, or undefined when the type has no such
 * system or custom field; parsers use undefined to reject the field.
 */
export function fieldKind(type: ContentType, field: string): ValueKind | undefined {
  if (Object.hasOwn(SYSTEM_QUERY_FIELDS, field)) return SYSTEM_QUERY_FIELDS[field];
  if (!Object.hasOwn(type.fields, field)) return undefined;
  switch (type.fields[field].type) {
    case 'number':
    case 'range':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
    case 'datetime':
      return 'date';
    default:
      return 'string';
  }
}

/** Epoch ms of an ISO-style date string, or undefined when it is not one. */
export function parseIsoDate(value: string): number | undefined {
  if (!ISO_DATE.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Parses `true/false/1/0` (any case); undefined for anything else. */
export function parseBooleanText(value: string): boolean | undefined {
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  return undefined;
}

/**
 * The comparable items of a stored value: one per array item, none for a
 * missing value (null, undefined, empty string or empty array).
 */
export function toValueItems(kind: ValueKind, value: unknown): ValueItem[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) {
    const items: ValueItem[] = [];
    for (const item of value) items.push(...toValueItems(kind, item));
    return items;
  }
  return [toValueItem(kind, value)];
}

/** The comparable form of one scalar value, read as `kind`. */
export function toValueItem(kind: ValueKind, value: unknown): ValueItem {
  const text = typeof value === 'string' ? value : stringify(value);
  const lower = text.toLowerCase();
  if (kind === 'number') {
    const num = typeof value === 'number' ? value : Number(text);
    if (text.trim() !== '' && Number.isFinite(num)) return { key: num, eq: num, text: lower };
  } else if (kind === 'boolean') {
    const bool = typeof value === 'boolean' ? value : parseBooleanText(text);
    if (bool !== undefined) return { key: bool ? 1 : 0, eq: bool, text: lower };
  } else if (kind === 'date' || typeof value === 'string' || value instanceof Date) {
    const ms = value instanceof Date ? value.getTime() : parseIsoDate(text);
    if (ms !== undefined && !Number.isNaN(ms)) return { key: ms, eq: kind === 'date' ? ms : text, text: lower };
  }
  if (typeof value === 'number' && Number.isFinite(value)) return { key: value, eq: kind === 'string' ? text : value, text: lower };
  return { key: lower, eq: text, text: lower };
}

/** Orders two keys: numbers before strings, numbers numerically, strings by code unit. */
export function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number') {
    if (typeof b === 'number') return a - b;
    return -1;
  }
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value) ?? '';
}
