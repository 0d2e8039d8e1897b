// Field definition rules: which properties each field type takes, what their
// values may be, and the stored (normalized) form. Error keys follow
// `fields.<name>.<prop>` so a client can point at the offending input.
import { validationFailed } from '../../errors/app-error.ts';
import type { FieldErrors } from '../../errors/app-error.ts';
import { isEmptyValue, validateFieldValue } from './field-values.ts';
import { FIELD_TYPES, SYSTEM_KEYS, TEXT_LIKE_FIELD_TYPES } from './content-type.ts';
import type { FieldDefinition, FieldType, SelectOption } from './content-type.ts';
import { didYouMean, misspeltKey } from './misspelt-keys.ts';
import { isPlainObject } from '../../lib/plain-object.ts';

/** Allowed field names: identifiers that work as YAML keys and template variables. */
export const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** The most fields one content type may define. */
export const MAX_FIELDS = 200;
/** The most options one select field may list. */
export const MAX_OPTIONS = 1_000;
const MAX_LABEL_LENGTH = 200;

const COMMON_PROPS = ['type', 'label', 'required', 'unique', 'default'];
const EXTRA_PROPS: Record<FieldType, string[]> = {
  text: [], textarea: [], markdown: [], html: [], boolean: [], date: [], datetime: [], json: [], color: [],
  number: ['min', 'max', 'step'],
  range: ['min', 'max', 'step'],
  select: ['options', 'multiple'],
  relation: ['target', 'multiple'],
  media: ['multiple'],
  slug: ['source'],
};
/** Every property some field type takes. */
const ANY_FIELD_PROPS = [...new Set([...COMMON_PROPS, ...Object.values(EXTRA_PROPS).flat()])];
const NEVER_UNIQUE: ReadonlySet<FieldType> = new Set(['json', 'media', 'boolean']);

/** Field definitions in stored form and the messages of those that failed. */
export interface FieldDefinitionsResult {
  fields: Record<string, FieldDefinition>;
  errors: FieldErrors;
}

type Props = Record<string, unknown>;

function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);
}

/** Why `name` cannot be a field name, or undefined when it can. */
function fieldNameProblem(name: string): string | undefined {
  if (!FIELD_NAME_PATTERN.test(name)) {
    return `Field name "${name}" must start with a letter or "_" and contain only letters, digits and "_" (up to 64 characters).`;
  }
  if ((SYSTEM_KEYS as readonly string[]).includes(name)) return `Field name "${name}" is reserved for entry system fields.`;
  // Names such as "constructor" or "__proto__" would shadow object internals.
  if (name in Object.prototype) return `Field name "${name}" is reserved.`;
  return undefined;
}

/** Context for one field: where to record errors and what other types exist. */
interface FieldContext {
  key: string;
  errors: FieldErrors;
  typeExists: (name: string) => boolean;
  selfName: string;
}

function readBoolean(props: Props, prop: string, ctx: FieldContext): boolean | undefined {
  const value = props[prop];
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  ctx.errors[`${ctx.key}.${prop}`] = `Property "${prop}" must be true or false.`;
  return undefined;
}

function readNumber(props: Props, prop: string, ctx: FieldContext): number | undefined {
  const value = props[prop];
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  ctx.errors[`${ctx.key}.${prop}`] = `Property "${prop}" must be a finite number.`;
  return undefined;
}

function readOption(item: unknown): SelectOption | undefined {
  if (typeof item === 'string') return { value: item, label: item };
  if (!isPlainObject(item) || Object.keys(item).some((k) => k !== 'value' && k !== 'label')) return undefined;
  const { value, label } = item;
  if (typeof value !== 'string' || (label !== undefined && typeof label !== 'string')) return undefined;
  return { value, label: label ?? value };
}

function readOptions(props: Props, ctx: FieldContext): SelectOption[] | undefined {
  const key = `${ctx.key}.options`;
  const raw = props.options;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_OPTIONS) {
    ctx.errors[key] = `Options must be a non-empty array of at most ${MAX_OPTIONS} strings or { value, label } objects.`;
    return undefined;
  }
  const options: SelectOption[] = [];
  for (const item of raw) {
    const option = readOption(item);
    if (!option || option.value === '' || option.value.length > MAX_LABEL_LENGTH || option.label.length > MAX_LABEL_LENGTH) {
      ctx.errors[key] = 'Each option must be a non-empty string or a { value, label } object '
        + `with strings of up to ${MAX_LABEL_LENGTH} characters.`;
      return undefined;
    }
    if (options.some((o) => o.value === option.value)) {
      ctx.errors[key] = `Option value "${option.value}" appears more than once.`;
      return undefined;
    }
    options.push(option);
  }
  return options;
}

function readTarget(props: Props, ctx: FieldContext): string | undefined {
  const target = props.target;
  if (typeof target !== 'string' || target === '') {
    ctx.errors[`${ctx.key}.target`] = 'A relation field needs a "target" naming a content type.';
    return undefined;
  }
  if (target !== ctx.selfName && !ctx.typeExists(target)) {
    ctx.errors[`${ctx.key}.target`] = `Target content type "${target}" does not exist.`;
    return undefined;
  }
  return target;
}

function checkBounds(def: FieldDefinition, ctx: FieldContext): void {
  if (def.type === 'range') {
    if (def.min === undefined) ctx.errors[`${ctx.key}.min`] ??= 'A range field needs a numeric "min".';
    if (def.max === undefined) ctx.errors[`${ctx.key}.max`] ??= 'A range field needs a numeric "max".';
  }
  if (def.min !== undefined && def.max !== undefined) {
    const isOrdered = def.type === 'range' ? def.min < def.max : def.min <= def.max;
    if (!isOrdered) ctx.errors[`${ctx.key}.max`] = `"max" must be greater than "min".`;
  }
  if (def.step !== undefined && def.step <= 0) ctx.errors[`${ctx.key}.step`] = '"step" must be greater than 0.';
}

function readTypeSpecific(def: FieldDefinition, props: Props, ctx: FieldContext): void {
  if (EXTRA_PROPS[def.type].includes('multiple')) def.multiple = readBoolean(props, 'multiple', ctx);
  if (def.type === 'select') def.options = readOptions(props, ctx);
  if (def.type === 'relation') def.target = readTarget(props, ctx);
  if (def.type === 'number' || def.type === 'range') {
    def.min = readNumber(props, 'min', ctx);
    def.max = readNumber(props, 'max', ctx);
    def.step = readNumber(props, 'step', ctx);
    checkBounds(def, ctx);
  }
  if (def.type === 'slug' && props.source !== undefined) {
    if (typeof props.source === 'string') def.source = props.source;
    else ctx.errors[`${ctx.key}.source`] = 'Property "source" must be a field name.';
  }
}

function readLabel(props: Props, ctx: FieldContext): string | undefined {
  const label = props.label;
  if (label === undefined || (typeof label === 'string' && label.length <= MAX_LABEL_LENGTH)) return label;
  ctx.errors[`${ctx.key}.label`] = `Property "label" must be a string of up to ${MAX_LABEL_LENGTH} characters.`;
  return undefined;
}

function readDefault(def: FieldDefinition, props: Props, ctx: FieldContext, name: string): void {
  if (props.default === undefined) return;
  const checked = validateFieldValue(name, props.default, def);
  if (!checked.ok) ctx.errors[`${ctx.key}.default`] = `The default is invalid: ${checked.message}`;
  else if (def.required && isEmptyValue(checked.value)) {
    ctx.errors[`${ctx.key}.default`] = 'The default of a required field cannot be empty.';
  }
  else def.default = checked.value;
}

/** The key of a definition without `type` that likely misspells it (`tpye`), or undefined; a key some field type takes is none. */
function misspeltTypeKey(props: Props): string | undefined {
  return Object.keys(props).find((prop) => !ANY_FIELD_PROPS.includes(prop) && misspeltKey(prop, ANY_FIELD_PROPS) === 'type');
}

/** Builds one definition in stored key order, recording problems in ctx.errors. */
function readField(name: string, raw: unknown, ctx: FieldContext): FieldDefinition | undefined {
  if (!isPlainObject(raw)) {
    ctx.errors[ctx.key] = `Field "${name}" must be an object with a "type".`;
    return undefined;
  }
  if (!isFieldType(raw.type)) {
    const misspelt = raw.type === undefined ? misspeltTypeKey(raw) : undefined;
    // The misspelt key is the fix to make, so it is named instead of the list of types the absent key may hold.
    if (misspelt !== undefined) ctx.errors[`${ctx.key}.${misspelt}`] = didYouMean(`Unknown property "${misspelt}"`, 'type');
    else ctx.errors[`${ctx.key}.type`] = `Field type must be one of: ${FIELD_TYPES.join(', ')}.`;
    return undefined;
  }
  const type = raw.type;
  const errorCount = Object.keys(ctx.errors).length;
  const allowed = [...COMMON_PROPS, ...EXTRA_PROPS[type]];
  for (const prop of Object.keys(raw)) {
    if (!allowed.includes(prop)) ctx.errors[`${ctx.key}.${prop}`] = didYouMean(`Property "${prop}" is not allowed on a ${type} field`, misspeltKey(prop, allowed));
  }
  const def: FieldDefinition = {
    type,
    label: readLabel(raw, ctx),
    required: readBoolean(raw, 'required', ctx),
    unique: readBoolean(raw, 'unique', ctx),
  };
  readTypeSpecific(def, raw, ctx);
  if (def.unique && (NEVER_UNIQUE.has(type) || def.multiple)) {
    ctx.errors[`${ctx.key}.unique`] = `A ${def.multiple ? 'multiple ' : ''}${type} field cannot be unique.`;
  }
  // A default is only meaningful against a definition that is itself valid.
  if (Object.keys(ctx.errors).length === errorCount) readDefault(def, raw, ctx, name);
  return compact(def);
}

const OPTIONAL_PROPS = [
  'label', 'required', 'unique', 'default', 'options', 'multiple', 'target', 'min', 'max', 'step', 'source',
] as const satisfies ReadonlyArray<keyof FieldDefinition>;

/** Drops unset properties so the stored YAML holds only what was given. */
function compact(def: FieldDefinition): FieldDefinition {
  for (const prop of OPTIONAL_PROPS) {
    if (def[prop] === undefined) delete def[prop];
  }
  return def;
}

/** A slug field's source must name the title or a text-like field of the same type. */
function checkSlugSources(fields: Record<string, FieldDefinition>, errors: FieldErrors): void {
  for (const [name, def] of Object.entries(fields)) {
    if (def.type !== 'slug' || def.source === undefined || def.source === 'title') continue;
    const source = Object.hasOwn(fields, def.source) ? fields[def.source] : undefined;
    if (!source || source === def || !TEXT_LIKE_FIELD_TYPES.has(source.type)) {
      errors[`fields.${name}.source`] = `Source "${def.source}" must be "title" or the name of a text field of this type.`;
    }
  }
}

/**
 * Checks raw field definitions without throwing, so a caller validating a
 * whole content type can report every problem at once. Relation targets must
 * satisfy `typeExists` or equal `selfName`. Throws nothing.
 */
export function checkFieldDefinitions(
  raw: unknown, typeExists: (name: string) => boolean, selfName: string,
): FieldDefinitionsResult {
  const result: FieldDefinitionsResult = { fields: {}, errors: {} };
  if (!isPlainObject(raw)) {
    result.errors.fields = 'Fields must be an object mapping field names to definitions.';
    return result;
  }
  const names = Object.keys(raw);
  if (names.length > MAX_FIELDS) {
    result.errors.fields = `A content type may define at most ${MAX_FIELDS} fields.`;
    return result;
  }
  for (const name of names) {
    const key = `fields.${name}`;
    const problem = fieldNameProblem(name);
    if (problem) {
      result.errors[key] = problem;
      continue;
    }
    const def = readField(name, raw[name], { key, errors: result.errors, typeExists, selfName });
    if (def) result.fields[name] = def;
  }
  checkSlugSources(result.fields, result.errors);
  return result;
}

/**
 * Validates a `fields` object and returns it in stored form: select options as
 * `{ value, label }`, defaults normalized, unset properties dropped. Used when
 * a content type is created or updated. Throws `validation_failed` with
 * messages keyed `fields.<name>.<prop>`.
 */
export function normalizeFieldDefinitions(
  fields: unknown, typeExists: (name: string) => boolean, selfName: string,
): Record<string, FieldDefinition> {
  const result = checkFieldDefinitions(fields, typeExists, selfName);
  if (Object.keys(result.errors).length > 0) throw validationFailed(result.errors, 'The field definitions are not valid.');
  return result.fields;
}
