// The content type model shared by every domain module: a schema stored as
// {ws}/types/{name}.yaml. Validation of definitions lives in field-definitions.ts.

/** The field types a definition may use (SPEC "Field definition"). */
export const FIELD_TYPES = [
  'text', 'textarea', 'markdown', 'html', 'number', 'range', 'boolean', 'select',
  'date', 'datetime', 'slug', 'json', 'color', 'media', 'relation',
] as const;

/** One of FIELD_TYPES. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** A choice of a select field: the stored value and the label editors see. */
export interface SelectOption {
  value: string;
  label: string;
}

/** One field of a content type, as stored (options normalized to `{value,label}`). */
export interface FieldDefinition {
  type: FieldType;
  label?: string;
  required?: boolean;
  unique?: boolean;
  default?: unknown;
  /** select: the allowed values. */
  options?: SelectOption[];
  /** select, relation, media: an array of values instead of one. */
  multiple?: boolean;
  /** relation: the related type's name in the same workspace. */
  target?: string;
  /** range (and number): bounds and step. */
  min?: number;
  max?: number;
  step?: number;
  /** slug: the field whose value a missing slug is made from. */
  source?: string;
}

/** `private` types are readable only with a token that may read them (SPEC "Content type"). */
export type Visibility = 'public' | 'private';

/** A content type with every SPEC field present (defaults applied). */
export interface ContentType {
  name: string;
  label: string;
  icon: string;
  singleton: boolean;
  visibility: Visibility;
  slug_field: string;
  slug_source: string;
  locales: string[];
  default_locale: string;
  fields: Record<string, FieldDefinition>;
}

/** Keys an entry file uses for itself; no custom field may take one of these names. */
export const SYSTEM_KEYS = [
  'id', 'slug', 'type', 'title', 'status', 'published_at', 'created_at', 'updated_at',
  'author_id', 'updated_by', 'locale', 'data', 'draft', 'deleted_at', 'deleted_by',
] as const;

/** Field types whose values are searched by `q` and matched by `contains`. */
export const TEXT_LIKE_FIELD_TYPES: ReadonlySet<FieldType> = new Set(['text', 'textarea', 'markdown', 'html', 'slug']);

/** Whether entries of the type have locale variants (it lists locales). */
/** A locale code as types list it and entry files name it (`{slug}.{locale}.md`). */
export const LOCALE_PATTERN = /^[A-Za-z0-9_-]{1,35}$/;

export function isLocalized(type: ContentType): boolean {
  return type.locales.length > 0;
}
