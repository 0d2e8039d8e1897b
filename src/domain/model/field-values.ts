// Custom field value rules: type checks, limits and normalization of the values
// in an entry's `data`, per field definition. Pure: existence of related
// entries, slug and unique-value collisions are checked by the entry service.
import type { FieldDefinition, FieldType } from './content-type.ts';
import type { FieldErrors } from '../../errors/app-error.ts';
import { sanitizeHtml } from './html-sanitizer.ts';
import { isValidSlug } from './slug.ts';
import { counted } from '../../lib/counted.ts';

/** The longest value of a `text` field. */
export const MAX_TEXT_LENGTH = 10_000;
/** The longest value of any other string field (textarea, markdown, html). */
export const MAX_LONG_TEXT_LENGTH = 1_000_000;
/** The largest serialized `json` field value, in bytes. */
export const MAX_JSON_BYTES = 1_000_000;
/** The most items a multiple select, relation or media field holds. */
export const MAX_ITEMS = 1_000;

/** Allowed media filenames: lowercase, no path separators, no leading dot. */
export const MEDIA_FILENAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,199}$/;
/** Allowed relation values (entry ids). */
export const RELATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const COLOR_PATTERN = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** The outcome of checking one value: its normalized form or a message. */
export type ValueCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** Validated values and per-field messages; `errors` is empty when all passed. */
export interface FieldValuesResult {
  values: Record<string, unknown>;
  errors: FieldErrors;
}

type Checker = (subject: string, value: unknown, field: FieldDefinition) => ValueCheck;

// Keys come from request bodies and files: define them as own properties so a
// key such as "__proto__" is stored (and reported) instead of changing the
// prototype. "__proto__" (the one accessor on Object.prototype) is the only
// key for which plain assignment does something else, so only it takes the
// slower way.
/** Sets `target[key]` as an own property, `__proto__` included. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function getOwn(source: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}

const ok = (value: unknown): ValueCheck => ({ ok: true, value });
const fail = (message: string): ValueCheck => ({ ok: false, message });

/**
 * Whether a field's value is an array (media always; select and relation when
 * multiple), which decides what null normalizes to and how filters match. Throws nothing.
 */
export function isArrayField(field: FieldDefinition): boolean {
  return field.type === 'media' || (field.multiple === true && (field.type === 'select' || field.type === 'relation'));
}

/**
 * Whether `value` counts as "no value" for the required rule: missing, null,
 * an empty string or an empty array. Throws nothing.
 */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function emptyValueOf(field: FieldDefinition): unknown {
  return isArrayField(field) ? [] : null;
}

// For these types '' is checked like any value (kept by text and json, refused
// by boolean); for the others it means "cleared", which is what HTML forms send
// for an untouched select, date, number or color input.
const EMPTY_STRING_CHECKED: ReadonlySet<FieldType> = new Set(['text', 'textarea', 'markdown', 'html', 'json', 'boolean']);

function checkString(subject: string, value: unknown, max: number): ValueCheck {
  if (typeof value !== 'string') return fail(`${subject} must be a string.`);
  if (value.length > max) return fail(`${subject} must be at most ${max.toLocaleString('en-US')} characters long.`);
  return ok(value);
}

function isStepAligned(value: number, base: number, step: number): boolean {
  const k = (value - base) / step;
  // Tolerate binary float error (0.1 + 0.2) relative to the magnitude of k.
  return Math.abs(k - Math.round(k)) <= 1e-9 * Math.max(1, Math.abs(k));
}

function checkNumber(subject: string, value: unknown, field: FieldDefinition, defaultStep?: number): ValueCheck {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`${subject} must be a finite number.`);
  if (field.min !== undefined && value < field.min) return fail(`${subject} must be at least ${field.min}.`);
  if (field.max !== undefined && value > field.max) return fail(`${subject} must be at most ${field.max}.`);
  const step = field.step ?? defaultStep;
  const base = field.min ?? 0;
  if (step !== undefined && step > 0 && !isStepAligned(value, base, step)) {
    return fail(`${subject} must be ${base} plus a multiple of ${step}.`);
  }
  return ok(value);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const isLeap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && isLeap ? 29 : DAYS_IN_MONTH[month - 1]);
}

function checkDate(subject: string, value: unknown): ValueCheck {
  const match = typeof value === 'string' ? DATE_PATTERN.exec(value) : null;
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    return fail(`${subject} must be a date written YYYY-MM-DD.`);
  }
  return ok(value);
}

function checkDatetime(subject: string, value: unknown): ValueCheck {
  const message = `${subject} must be an ISO 8601 date-time with a time zone, such as 2024-05-01T12:00:00Z.`;
  const match = typeof value === 'string' ? DATETIME_PATTERN.exec(value) : null;
  if (!match) return fail(message);
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone] = match;
  const zoneHours = zone.length > 1 ? Number(zone.slice(1, 3)) : 0;
  const zoneMinutes = zone.length > 1 ? Number(zone.slice(4, 6)) : 0;
  if (!isCalendarDate(Number(year), Number(month), Number(day)) || Number(hour) > 23 || Number(minute) > 59
    || Number(second) > 59 || zoneHours > 23 || zoneMinutes > 59) return fail(message);
  // Date.parse only takes milliseconds; finer fractions are truncated.
  const millis = fraction.slice(0, 4);
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone;
  const time = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${millis}${offset}`);
  return Number.isNaN(time) ? fail(message) : ok(new Date(time).toISOString());
}

function checkJson(subject: string, value: unknown): ValueCheck {
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(value);
  } catch {
    return fail(`${subject} must be a JSON value.`);
  }
  if (serialized === undefined) return fail(`${subject} must be a JSON value.`);
  if (Buffer.byteLength(serialized, 'utf8') > MAX_JSON_BYTES) return fail(`${subject} must be at most 1 MB as JSON.`);
  // A round trip drops what JSON cannot hold, so the stored value equals what a read returns.
  return ok(JSON.parse(serialized));
}

function checkList(
  subject: string, items: unknown[], itemCheck: (item: unknown) => string | undefined, max = MAX_ITEMS,
): ValueCheck {
  if (items.length > max) return fail(`${subject} must have at most ${counted(max, 'item', 'items')}.`);
  for (const item of items) {
    const message = itemCheck(item);
    if (message) return fail(message);
  }
  return ok([...new Set(items)]);
}

// The option values of each select field's options, made once: a start checks a value of every entry.
const OPTION_VALUES = new WeakMap<object, Set<unknown>>();

function optionValues(field: FieldDefinition): Set<unknown> {
  const options = field.options;
  if (options === undefined) return new Set();
  let values = OPTION_VALUES.get(options);
  if (values === undefined) {
    values = new Set(options.map((option) => option.value));
    OPTION_VALUES.set(options, values);
  }
  return values;
}

function checkSelect(subject: string, value: unknown, field: FieldDefinition): ValueCheck {
  const allowed = optionValues(field);
  const itemCheck = (item: unknown): string | undefined => (typeof item === 'string' && allowed.has(item)
    ? undefined
    : `${subject} must be one of: ${[...allowed].map((v) => JSON.stringify(v)).join(', ')}.`);
  if (!field.multiple) {
    const message = itemCheck(value);
    return message ? fail(message) : ok(value);
  }
  if (!Array.isArray(value)) return fail(`${subject} must be an array of option values.`);
  return checkList(subject, value, itemCheck);
}

function checkRelation(subject: string, value: unknown, field: FieldDefinition): ValueCheck {
  const itemCheck = (item: unknown): string | undefined => (typeof item === 'string' && RELATION_ID_PATTERN.test(item)
    ? undefined
    : `${subject} must hold entry ids (letters, digits, "_" and "-", up to 64 characters).`);
  if (!field.multiple) {
    const message = itemCheck(value);
    return message ? fail(message) : ok(value);
  }
  if (!Array.isArray(value)) return fail(`${subject} must be an array of entry ids.`);
  return checkList(subject, value, itemCheck);
}

function checkMedia(subject: string, value: unknown, field: FieldDefinition): ValueCheck {
  const items = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(items)) return fail(`${subject} must be a filename or an array of filenames.`);
  const itemCheck = (item: unknown): string | undefined => (
    typeof item === 'string' && MEDIA_FILENAME_PATTERN.test(item) && !item.includes('..')
      ? undefined
      : `${subject} must hold media filenames (lowercase letters, digits, ".", "_" and "-").`);
  return checkList(subject, items, itemCheck, field.multiple ? MAX_ITEMS : 1);
}

const CHECKERS: Record<FieldType, Checker> = {
  text: (subject, value) => checkString(subject, value, MAX_TEXT_LENGTH),
  textarea: (subject, value) => checkString(subject, value, MAX_LONG_TEXT_LENGTH),
  markdown: (subject, value) => checkString(subject, value, MAX_LONG_TEXT_LENGTH),
  html: (subject, value) => {
    const checked = checkString(subject, value, MAX_LONG_TEXT_LENGTH);
    return checked.ok && typeof value === 'string' ? ok(sanitizeHtml(value)) : checked;
  },
  slug: (subject, value) => (typeof value === 'string' && isValidSlug(value)
    ? ok(value)
    : fail(`${subject} must be a slug: lowercase letters and digits separated by single hyphens, up to 120 characters.`)),
  color: (subject, value) => (typeof value === 'string' && COLOR_PATTERN.test(value)
    ? ok(value.toLowerCase())
    : fail(`${subject} must be a hex color such as #ff8800, #f80 or #ff880080.`)),
  number: (subject, value, field) => checkNumber(subject, value, field),
  range: (subject, value, field) => checkNumber(subject, value, field, 1),
  boolean: (subject, value) => (typeof value === 'boolean' ? ok(value) : fail(`${subject} must be true or false.`)),
  select: checkSelect,
  date: checkDate,
  datetime: checkDatetime,
  json: checkJson,
  media: checkMedia,
  relation: checkRelation,
};

/**
 * Checks and normalizes one value for `field` (named `name` in messages),
 * ignoring the required rule: empty values normalize to null or []. Used for
 * entry values and for a field definition's `default`. Throws nothing.
 */
export function validateFieldValue(name: string, value: unknown, field: FieldDefinition): ValueCheck {
  if (value === null || (value === '' && !EMPTY_STRING_CHECKED.has(field.type))) return ok(emptyValueOf(field));
  if (value === undefined) return fail(`Field "${name}" must have a value.`);
  return CHECKERS[field.type](`Field "${name}"`, value, field);
}

/**
 * Checks and normalizes the custom field values of a write against the type's
 * fields. Keys that are not fields are errors. With `partial` only the given
 * keys are checked; without it every required field must have a value.
 * Returns normalized values (given keys only) and per-field messages; throws nothing.
 */
export function validateFieldValues(
  values: Record<string, unknown>, fields: Record<string, FieldDefinition>, options: { partial: boolean },
): FieldValuesResult {
  const result: FieldValuesResult = { values: {}, errors: {} };
  // Names, not [name, value] pairs: a start checks the values of ten thousand entries.
  for (const name of Object.keys(values)) {
    const value = values[name];
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) {
      setOwn(result.errors, name, `"${name}" is not a field of this content type.`);
      continue;
    }
    if (value === undefined) continue;
    const checked = validateFieldValue(name, value, field);
    if (!checked.ok) setOwn(result.errors, name, checked.message);
    else if (field.required && isEmptyValue(checked.value)) setOwn(result.errors, name, `Field "${name}" is required.`);
    else setOwn(result.values, name, checked.value);
  }
  if (!options.partial) {
    for (const [name, field] of Object.entries(fields)) {
      if (field.required && isEmptyValue(getOwn(values, name)) && !Object.hasOwn(result.errors, name)) {
        setOwn(result.errors, name, `Field "${name}" is required.`);
      }
    }
  }
  return result;
}

/**
 * A copy of `values` where each omitted field with a `default` gets a fresh
 * clone of it. Called on create before validation (SPEC: defaults are applied
 * before validation and normalization). Throws nothing.
 */
export function applyDefaults(
  values: Record<string, unknown>, fields: Record<string, FieldDefinition>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...values };
  for (const [name, field] of Object.entries(fields)) {
    if (field.default !== undefined && getOwn(result, name) === undefined) {
      setOwn(result, name, structuredClone(field.default));
    }
  }
  return result;
}
