// The schemas of what the public API answers (SPEC "Entry", "Content type",
// "Media", "List meta", the error envelope), as OpenAPI 3.1 (JSON Schema
// 2020-12) components. Request schemas are not written here: they come from
// the routes' own validators (see operations.ts).
import { ENTRY_STATUSES } from '../../domain/model/entry.ts';
import { FIELD_TYPES } from '../../domain/model/content-type.ts';
import { ERROR_CODES } from '../../errors/error-codes.ts';

/** A JSON Schema object as the document holds it. */
export type JsonSchema = Record<string, unknown>;

const string: JsonSchema = { type: 'string' };
const time: JsonSchema = { type: 'string', format: 'date-time' };
const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type, 'null'] });

/** `#/components/schemas/{name}`. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** `{ data, meta? }` around `data`. */
export function envelope(data: JsonSchema, meta?: JsonSchema): JsonSchema {
  return { type: 'object', required: meta ? ['data', 'meta'] : ['data'], properties: { data, ...(meta ? { meta } : {}) } };
}

/** The fields every entry has, whatever its type; `data` holds the type's own fields. */
export function entrySchema(data: JsonSchema, type?: string): JsonSchema {
  return {
    type: 'object',
    required: ['id', 'slug', 'type', 'status', 'title', 'created_at', 'updated_at', 'data'],
    properties: {
      id: string,
      slug: string,
      type: type === undefined ? string : { const: type },
      status: { type: 'string', enum: [...ENTRY_STATUSES] },
      title: string,
      published_at: nullable(time),
      created_at: time,
      updated_at: time,
      author_id: nullable(string),
      updated_by: nullable(string),
      locale: string,
      data,
    },
  };
}

const fieldDefinition: JsonSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: [...FIELD_TYPES] },
    label: string,
    required: { type: 'boolean' },
    unique: { type: 'boolean' },
    default: {},
    options: { type: 'array', items: { type: 'object', required: ['value', 'label'], properties: { value: string, label: string } } },
    multiple: { type: 'boolean' },
    target: string,
    min: { type: 'number' },
    max: { type: 'number' },
    step: { type: 'number' },
    source: string,
  },
};

/** The shared components of both documents. */
export const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { enum: [...ERROR_CODES] }, message: string, fields: { type: 'object', additionalProperties: string } },
      },
    },
  },
  Problem: {
    type: 'object',
    required: ['path', 'message'],
    additionalProperties: false,
    properties: { path: string, field: string, message: string },
  },
  Ok: envelope({ type: 'object', required: ['ok'], properties: { ok: { const: true } } }),
  ListMeta: {
    type: 'object',
    required: ['total', 'limit', 'offset'],
    properties: { total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' }, sort: string, order: { enum: ['asc', 'desc'] }, locale: string },
  },
  Entry: entrySchema({ type: 'object', additionalProperties: true }),
  ChangeItem: {
    type: 'object',
    required: ['kind', 'type', 'id', 'slug', 'change', 'commit', 'at'],
    properties: {
      kind: { enum: ['entry', 'type'] },
      type: string,
      id: string,
      slug: string,
      locale: { type: 'string', description: 'Set when the item is one translation of the entry; absent when it is the entry with all its locales.' },
      change: { enum: ['created', 'updated', 'deleted'] },
      commit: { type: 'string', pattern: '^[0-9a-f]{40}$' },
      at: time,
    },
  },
  ChangesMeta: {
    type: 'object',
    required: ['since', 'head'],
    properties: {
      since: nullable({ type: 'string', pattern: '^[0-9a-f]{40}$' }),
      head: { type: 'string', pattern: '^[0-9a-f]{40}$' },
      next_cursor: string,
      workspace_status: { enum: ['archived', 'removed'], description: 'Set when the workspace was archived or removed after since: every item is then deleted, and the next call with since=head is 404 until it comes back.' },
    },
  },
  FieldDefinition: fieldDefinition,
  ContentType: {
    type: 'object',
    required: ['name', 'label', 'singleton', 'visibility', 'fields'],
    properties: {
      name: string,
      label: string,
      icon: string,
      singleton: { type: 'boolean' },
      visibility: { enum: ['public', 'private'] },
      slug_field: string,
      slug_source: string,
      locales: { type: 'array', items: string },
      default_locale: string,
      fields: { type: 'object', additionalProperties: ref('FieldDefinition') },
    },
  },
  ContentTypeInput: {
    type: 'object',
    required: ['name'],
    description: 'A content type as created or replaced; the server checks it with the rules of docs/content-model.md and answers 422 naming each bad field.',
    properties: {
      name: string,
      label: string,
      icon: string,
      singleton: { type: 'boolean' },
      visibility: { enum: ['public', 'private'] },
      slug_source: string,
      locales: { type: 'array', items: string },
      default_locale: string,
      fields: { type: 'object', additionalProperties: ref('FieldDefinition') },
    },
  },
  EntryInput: {
    type: 'object',
    description: 'title, status, slug, published_at, locale and the type\'s fields at the top level; checked against the type (422 names each bad field).',
    properties: { title: string, status: { type: 'string', enum: [...ENTRY_STATUSES] }, slug: string, published_at: nullable(time), locale: string },
    additionalProperties: true,
  },
  MediaItem: {
    type: 'object',
    required: ['filename', 'url', 'size', 'mime', 'visibility'],
    properties: {
      filename: string,
      name: string,
      url: { type: 'string', format: 'uri' },
      thumb_url: string,
      size: { type: 'integer' },
      mime: string,
      category: string,
      alt: string,
      title: string,
      visibility: { enum: ['public', 'private'] },
      width: nullable({ type: 'integer' }),
      height: nullable({ type: 'integer' }),
      uploaded_by: nullable(string),
      uploaded_at: nullable(time),
    },
  },
  Health: {
    type: 'object',
    required: ['ok', 'name', 'version', 'time'],
    properties: { ok: { type: 'boolean' }, name: string, version: string, time: time, extensions: { type: 'object', additionalProperties: { type: 'boolean' } }, git: { type: 'object' } },
  },
};
