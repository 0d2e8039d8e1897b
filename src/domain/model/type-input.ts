// Turns a content type request body (POST or PUT) or a parsed type file into a
// complete ContentType: every SPEC field present, defaults applied, unknown
// keys and wrong types rejected. Field definitions are checked by field-definitions.ts.
import { AppError, validationFailed } from '../../errors/app-error.ts';
import type { FieldErrors } from '../../errors/app-error.ts';
import { LOCALE_PATTERN, TEXT_LIKE_FIELD_TYPES } from './content-type.ts';
import type { ContentType, FieldDefinition, Visibility } from './content-type.ts';
import { checkFieldDefinitions } from './field-definitions.ts';
import { didYouMean, misspeltKey } from './misspelt-keys.ts';
import { isPlainObject } from '../../lib/plain-object.ts';

/** Content type names: lowercase letters, digits and hyphens (the admin rule, safe as a file name). */
export const TYPE_NAME_PATTERN = /^[a-z0-9-]{1,64}$/;
/** Locale codes: safe inside `{slug}.{locale}.md` file names. */
/** The most locales one content type may list. */
export const MAX_LOCALES = 100;

const TYPE_KEYS: readonly string[] = [
  'name', 'label', 'icon', 'singleton', 'visibility', 'slug_field', 'slug_source', 'locales', 'default_locale', 'fields',
];
const VISIBILITIES: readonly string[] = ['public', 'private'] satisfies Visibility[];
const MAX_LABEL_LENGTH = 200;
const MAX_ICON_LENGTH = 100;

/** How the body is read: a create needs a name; an update keeps what the body omits. */
export interface ContentTypeInputOptions {
  mode: 'create' | 'update';
  /** The stored type an update starts from. */
  existing?: ContentType;
  /** The `{collection}` of the path; an update's name, whatever the body says. */
  pathName?: string;
  /** Whether another type of the workspace has this name (for relation targets). */
  typeExists: (name: string) => boolean;
}

type Body = Record<string, unknown>;

/**
 * A content type named `name` with every other property at its default. Used
 * as the starting point of a create. Throws nothing.
 */
export function defaultContentType(name: string): ContentType {
  return {
    name, label: name, icon: '', singleton: false, visibility: 'public', slug_field: 'slug', slug_source: 'title',
    locales: [], default_locale: '', fields: {},
  };
}

function readName(body: Body, options: ContentTypeInputOptions, errors: FieldErrors): string {
  // On update the path decides the name; a `name` in the body is ignored (SPEC).
  if (options.mode === 'update') return options.pathName ?? options.existing?.name ?? '';
  const name = body.name;
  if (typeof name !== 'string' || !TYPE_NAME_PATTERN.test(name)) {
    errors.name = 'The name is required: 1 to 64 lowercase letters, digits or hyphens.';
    return typeof name === 'string' ? name : '';
  }
  return name;
}

function readString(body: Body, key: string, max: number, errors: FieldErrors): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.length <= max) return value;
  errors[key] = `"${key}" must be a string of up to ${max} characters.`;
  return undefined;
}

function readBoolean(body: Body, key: string, errors: FieldErrors): boolean | undefined {
  const value = body[key];
  if (value === undefined || typeof value === 'boolean') return value;
  errors[key] = `"${key}" must be true or false.`;
  return undefined;
}

function readVisibility(body: Body, errors: FieldErrors): Visibility | undefined {
  const value = body.visibility;
  if (value === undefined) return undefined;
  if (value === 'public' || value === 'private') return value;
  errors.visibility = `"visibility" must be one of: ${VISIBILITIES.join(', ')}.`;
  return undefined;
}

function readLocales(body: Body, errors: FieldErrors): string[] | undefined {
  const value = body.locales;
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_LOCALES) {
    errors.locales = `"locales" must be an array of at most ${MAX_LOCALES} locale codes.`;
    return undefined;
  }
  const items: unknown[] = value;
  const locales: string[] = [];
  const seen = new Set<string>();
  for (const locale of items) {
    if (typeof locale !== 'string' || !LOCALE_PATTERN.test(locale)) {
      errors.locales = 'Each locale must be 1 to 35 letters, digits, "_" or "-".';
      return undefined;
    }
    // Case-insensitive: `{slug}.en.md` and `{slug}.EN.md` collide on some file systems.
    if (seen.has(locale.toLowerCase())) {
      errors.locales = `Locale "${locale}" appears more than once.`;
      return undefined;
    }
    seen.add(locale.toLowerCase());
    locales.push(locale);
  }
  return locales;
}

function resolveDefaultLocale(body: Body, locales: string[], previous: string, errors: FieldErrors): string {
  const given = body.default_locale;
  if (given === undefined) {
    if (locales.length === 0) return '';
    return locales.includes(previous) ? previous : locales[0];
  }
  if (typeof given !== 'string') {
    errors.default_locale = '"default_locale" must be a string.';
  } else if (locales.length === 0 && given !== '') {
    errors.default_locale = '"default_locale" must be empty when the type has no locales.';
  } else if (locales.length > 0 && !locales.includes(given)) {
    errors.default_locale = `"default_locale" must be one of the type's locales: ${locales.join(', ')}.`;
  } else {
    return given;
  }
  return '';
}

/** Which field names a slug property may refer to, besides its built-in value. */
type FieldPredicate = (field: FieldDefinition) => boolean;

const SLUG_PROPS: Record<'slug_field' | 'slug_source', { builtIn: string; accepts: FieldPredicate; message: string }> = {
  slug_field: {
    builtIn: 'slug',
    accepts: (field) => field.type === 'slug',
    message: '"slug_field" must be "slug" or the name of a slug field of this type.',
  },
  slug_source: {
    builtIn: 'title',
    accepts: (field) => TEXT_LIKE_FIELD_TYPES.has(field.type),
    message: '"slug_source" must be "title" or the name of a text field of this type.',
  },
};

function resolveSlugProp(
  body: Body, key: 'slug_field' | 'slug_source', previous: string, fields: Record<string, FieldDefinition>, errors: FieldErrors,
): string {
  const rule = SLUG_PROPS[key];
  const isUsable = (value: string): boolean => value === rule.builtIn
    || (Object.hasOwn(fields, value) && rule.accepts(fields[value]));
  const given = readString(body, key, 64, errors);
  if (given === undefined) {
    // A kept value whose field this update removed falls back to the default.
    return isUsable(previous) ? previous : rule.builtIn;
  }
  if (!isUsable(given)) errors[key] = rule.message;
  return given;
}

/**
 * A complete content type from a POST/PUT body (or a type file read as a
 * create). Create: `name` is required and omitted keys take defaults. Update:
 * the path name is used and omitted keys keep `existing`'s values. Every
 * problem is reported at once. Throws `invalid_request` when the body is not
 * an object and `validation_failed` with `fields` keyed `name`, `locales`,
 * `fields.<field>.<prop>`, … otherwise.
 */
export function normalizeContentTypeInput(input: unknown, options: ContentTypeInputOptions): ContentType {
  if (!isPlainObject(input)) throw new AppError('invalid_request', 'The content type must be a JSON object.');
  const errors: FieldErrors = {};
  for (const key of Object.keys(input)) {
    // defineProperty so that a "__proto__" key is reported instead of swallowed.
    if (!TYPE_KEYS.includes(key)) {
      const message = didYouMean(`Unknown property "${key}"`, misspeltKey(key, TYPE_KEYS));
      Object.defineProperty(errors, key, { value: message, enumerable: true, writable: true, configurable: true });
    }
  }
  const name = readName(input, options, errors);
  const base = options.mode === 'update' && options.existing ? options.existing : defaultContentType(name);
  let fields = base.fields;
  if (input.fields !== undefined) {
    const checked = checkFieldDefinitions(input.fields, options.typeExists, name);
    Object.assign(errors, checked.errors);
    fields = checked.fields;
  }
  const locales = readLocales(input, errors) ?? base.locales;
  const label = readString(input, 'label', MAX_LABEL_LENGTH, errors) ?? base.label;
  const type: ContentType = {
    name,
    label: label === '' ? name : label,
    icon: readString(input, 'icon', MAX_ICON_LENGTH, errors) ?? base.icon,
    singleton: readBoolean(input, 'singleton', errors) ?? base.singleton,
    visibility: readVisibility(input, errors) ?? base.visibility,
    slug_field: resolveSlugProp(input, 'slug_field', base.slug_field, fields, errors),
    slug_source: resolveSlugProp(input, 'slug_source', base.slug_source, fields, errors),
    locales,
    default_locale: resolveDefaultLocale(input, locales, base.default_locale, errors),
    fields,
  };
  if (Object.keys(errors).length > 0) throw validationFailed(errors, 'The content type is not valid.');
  return type;
}
