// A content type's entries as JSON Schema, generated from its YAML: each
// field's type, select options as an enum, relations as a reference to the
// target type's entry (what `include` puts in place of the id), required
// fields as non-null. `npx openapi-typescript` turns these into typed entries.
import type { ContentType, FieldDefinition } from '../../domain/model/content-type.ts';
import { ENTRY_STATUSES } from '../../domain/model/entry.ts';
import { entrySchema, ref, type JsonSchema } from './schemas.ts';

/** The component name of a type's entry schema: `posts` → `Entry_posts`. */
export function entrySchemaName(type: string): string {
  return `Entry_${type.replace(/-/g, '_')}`;
}

/** The component name of a type's input schema (create and update bodies). */
export function inputSchemaName(type: string): string {
  return `EntryInput_${type.replace(/-/g, '_')}`;
}

/** The entry schema of `type`: the common entry fields and `data` with one property per field. */
export function typeEntrySchema(type: ContentType, hasType: (name: string) => boolean): JsonSchema {
  const properties = Object.fromEntries(Object.entries(type.fields).map(([name, field]) => [name, valueSchema(field, hasType, true)]));
  const required = Object.entries(type.fields).filter(([, field]) => field.required).map(([name]) => name);
  const data: JsonSchema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: true };
  return { ...entrySchema(data, type.name), ...(type.label ? { title: type.label } : {}) };
}

/** The body that creates or updates an entry of `type`: the entry's own keys and its fields at the top level. */
export function typeInputSchema(type: ContentType, hasType: (name: string) => boolean): JsonSchema {
  const fields = Object.fromEntries(Object.entries(type.fields).map(([name, field]) => [name, valueSchema(field, hasType, false)]));
  return {
    type: 'object',
    properties: { title: { type: 'string' }, status: { type: 'string', enum: [...ENTRY_STATUSES] }, slug: { type: 'string' }, published_at: { type: ['string', 'null'], format: 'date-time' }, locale: { type: 'string' }, ...fields },
  };
}

// A value as the API answers it (`answer`: a relation may hold the included entry) or accepts it.
function valueSchema(field: FieldDefinition, hasType: (name: string) => boolean, answer: boolean): JsonSchema {
  const one = singleValue(field, hasType, answer);
  const described = field.label ? { description: field.label } : {};
  if (field.multiple && (field.type === 'select' || field.type === 'relation' || field.type === 'media')) return { type: 'array', items: one, ...described };
  return field.required ? { ...one, ...described } : { anyOf: [one, { type: 'null' }], ...described };
}

function singleValue(field: FieldDefinition, hasType: (name: string) => boolean, answer: boolean): JsonSchema {
  switch (field.type) {
    case 'number':
    case 'range':
      return { type: 'number', ...(field.min === undefined ? {} : { minimum: field.min }), ...(field.max === undefined ? {} : { maximum: field.max }) };
    case 'boolean':
      return { type: 'boolean' };
    case 'select':
      return { type: 'string', enum: (field.options ?? []).map((option) => option.value) };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'json':
      return {};
    case 'media':
      // The server answers a single media field that holds no file with [].
      return answer && !field.multiple ? { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 0 }] } : { type: 'string' };
    case 'relation':
      return answer && field.target !== undefined && hasType(field.target) ? { anyOf: [{ type: 'string' }, ref(entrySchemaName(field.target))] } : { type: 'string' };
    default:
      return { type: 'string' };
  }
}
