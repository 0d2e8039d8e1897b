// The type builder's form state and its two translations: from a stored
// type to the form, and from the form to the body the API takes. Inputs hold
// text (options one per line, locales separated by commas); the conversion
// to numbers, lists and JSON happens here, once, on save.
import type { ContentTypeBody } from '../../api/content-types.ts';
import type { ContentType, FieldDefinition } from '../../api/types.ts';

/** The field types, in the order the builder offers them, with plain names. */
export const FIELD_KINDS: { type: string; label: string }[] = [
  { type: 'text', label: 'Short text' },
  { type: 'textarea', label: 'Long text' },
  { type: 'markdown', label: 'Markdown' },
  { type: 'html', label: 'Rich text' },
  { type: 'number', label: 'Number' },
  { type: 'range', label: 'Slider (range)' },
  { type: 'boolean', label: 'Yes / no' },
  { type: 'select', label: 'Choice (select)' },
  { type: 'date', label: 'Date' },
  { type: 'datetime', label: 'Date and time' },
  { type: 'slug', label: 'URL key (slug)' },
  { type: 'json', label: 'JSON' },
  { type: 'color', label: 'Color' },
  { type: 'media', label: 'Media' },
  { type: 'relation', label: 'Relation' },
];

/** FIELD_KINDS as the choices of a select. */
export const KIND_OPTIONS: [string, string][] = FIELD_KINDS.map(({ type, label }) => [type, label]);

/** One field as the form edits it. */
export interface FieldDraft {
  /** Stable while the field is on screen (names can be typed). */
  key: string;
  name: string;
  /** A field saved before: its name and kind are fixed (renaming would lose its values). */
  isSaved: boolean;
  type: string;
  label: string;
  required: boolean;
  unique: boolean;
  /** The default as typed; '' for none. */
  defaultText: string;
  /** Select options, one per line: `value` or `value | Label`. */
  optionsText: string;
  multiple: boolean;
  target: string;
  min: string;
  max: string;
  step: string;
  source: string;
}

/** The whole form. */
export interface TypeDraft {
  name: string;
  label: string;
  singleton: boolean;
  visibility: 'public' | 'private';
  /** Locale codes separated by commas; '' for a type in one language. */
  localesText: string;
  defaultLocale: string;
  fields: FieldDraft[];
}

let nextKey = 0;

/** A new, empty field of `type`. */
export function newField(type = 'text'): FieldDraft {
  nextKey += 1;
  return { key: `new-${nextKey}`, name: '', isSaved: false, type, label: '', required: false, unique: false, defaultText: '', optionsText: '', multiple: false, target: '', min: '', max: '', step: '', source: '' };
}

/** The form of a new type. */
export function emptyDraft(): TypeDraft {
  return { name: '', label: '', singleton: false, visibility: 'public', localesText: '', defaultLocale: '', fields: [] };
}

/** The form of a stored type. */
export function draftOf(type: ContentType): TypeDraft {
  return {
    name: type.name,
    label: type.label,
    singleton: type.singleton,
    visibility: type.visibility,
    localesText: type.locales.join(', '),
    defaultLocale: type.default_locale,
    fields: Object.entries(type.fields).map(([name, field]) => fieldDraftOf(name, field)),
  };
}

function fieldDraftOf(name: string, field: FieldDefinition): FieldDraft {
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  const options = Array.isArray(field.options) ? (field.options as { value: string; label: string }[]) : [];
  return {
    ...newField(field.type),
    key: `saved-${name}`,
    name,
    isSaved: true,
    label: field.label ?? '',
    required: field.required === true,
    unique: field.unique === true,
    defaultText: field.default === undefined ? '' : typeof field.default === 'string' ? field.default : JSON.stringify(field.default),
    optionsText: options.map((option) => (option.label && option.label !== option.value ? `${option.value} | ${option.label}` : option.value)).join('\n'),
    multiple: field.multiple === true,
    target: text(field.target),
    min: text(field.min),
    max: text(field.max),
    step: text(field.step),
    source: text(field.source),
  };
}

/** The locale codes typed, trimmed, without empty ones. */
export function localesOf(draft: TypeDraft): string[] {
  return draft.localesText.split(',').map((code) => code.trim()).filter(Boolean);
}

/** The API body for the form; values the API will judge (422) are sent as typed. */
export function bodyOf(draft: TypeDraft, isNew: boolean): ContentTypeBody {
  const locales = localesOf(draft);
  const fields: Record<string, Record<string, unknown>> = {};
  for (const field of draft.fields) fields[field.name.trim()] = fieldBody(field);
  return {
    ...(isNew ? { name: draft.name } : {}),
    label: draft.label,
    singleton: draft.singleton,
    visibility: draft.visibility,
    locales,
    default_locale: locales.length > 0 ? draft.defaultLocale || locales[0] : '',
    fields,
  };
}

function fieldBody(field: FieldDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { type: field.type };
  if (field.label.trim()) body.label = field.label.trim();
  if (field.required) body.required = true;
  if (field.unique) body.unique = true;
  if (field.defaultText.trim() !== '') body.default = defaultValue(field);
  if (field.type === 'select') body.options = optionsOf(field.optionsText);
  if (field.type === 'relation') body.target = field.target;
  if (['select', 'relation', 'media'].includes(field.type) && field.multiple) body.multiple = true;
  if (field.type === 'number' || field.type === 'range') {
    for (const prop of ['min', 'max', 'step'] as const) if (field[prop].trim() !== '') body[prop] = numberOrText(field[prop]);
  }
  if (field.type === 'slug' && field.source) body.source = field.source;
  return body;
}

// The default in the field's own kind; what cannot be read is sent as typed, for the API to name.
function defaultValue(field: FieldDraft): unknown {
  const text = field.defaultText.trim();
  if (field.type === 'number' || field.type === 'range') return numberOrText(text);
  if (field.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (field.type === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (field.type === 'select' && field.multiple) return text.split(',').map((value) => value.trim()).filter(Boolean);
  return field.defaultText;
}

function numberOrText(text: string): number | string {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) ? value : text;
}

function optionsOf(text: string): { value: string; label: string }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const bar = line.indexOf('|');
      if (bar === -1) return { value: line, label: line };
      const value = line.slice(0, bar).trim();
      return { value, label: line.slice(bar + 1).trim() || value };
    });
}

/** A field name from its label: "Hero image" → "hero_image". */
export function fieldNameFrom(label: string): string {
  const name = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return /^[0-9]/.test(name) ? `_${name}` : name;
}
