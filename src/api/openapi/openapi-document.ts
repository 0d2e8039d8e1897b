// The OpenAPI 3.1 document of the public API, built from the router itself:
// every route the router holds is a path (methods and path parameters from
// the route, query parameters from the route's own validateQuery() parser,
// bodies from the schemas the routes validate with), described by
// operations.ts. The workspace document adds one typed entry schema per
// content type (type-schemas.ts). docs/openapi.md tells how a route joins it.
import type { ContentType } from '../../domain/model/content-type.ts';
import { IDENTIFIER_PATTERN } from '../../domain/model/slug.ts';
import { queryParametersOf, type QueryParser } from '../../http/query-params.ts';
import { OPERATIONS, type OperationDoc } from './operations.ts';
import { COMPONENT_SCHEMAS, envelope, ref, type JsonSchema } from './schemas.ts';
import { entrySchemaName, inputSchemaName, typeEntrySchema, typeInputSchema } from './type-schemas.ts';

/** A route as @koa/router holds it (Router#stack). */
export interface RouteLayer {
  path: string;
  methods: string[];
  stack: unknown[];
}

/** The document, as plain JSON. */
export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
} & JsonSchema;

const API_ROOT = '/api/v1';
// The roots of the public routes; the admin API, the admin app and git over HTTP are not described.
const PUBLIC_ROOTS = [`${API_ROOT}/`, '/media/', '/media-thumbs/'];
const NAMED = new Set(['ws', 'type', 'id']);
const ERROR_ANSWER = { description: 'The error envelope; the status and code are those of the README\'s error table.', content: { 'application/json': { schema: ref('Error') } } };

/** The routes of `layers` that have no entry in operations.ts, as `METHOD /path`. */
export function undocumentedRoutes(layers: readonly RouteLayer[]): string[] {
  return operationsOf(layers).filter(({ key }) => !OPERATIONS[key]).map(({ key }) => key);
}

/** The document of every route in `layers` (the public router's stack). */
export function buildOpenApiDocument(layers: readonly RouteLayer[], info: { name: string; version: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const { key, method, template, layer } of operationsOf(layers)) {
    const doc = OPERATIONS[key] ?? { tag: 'Reference', summary: 'Not documented yet.' };
    paths[template] ??= {};
    paths[template][method.toLowerCase()] = operation(doc, method, template, parserOf(layer));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${info.name} public API`,
      version: info.version,
      description: 'Reads are open to anyone for public types and published entries; a bearer token (`Authorization: Bearer cms_…`) carries grants for the rest. Errors are `{ "error": { "code", "message", "fields"? } }`.',
    },
    paths,
    components: {
      schemas: { ...COMPONENT_SCHEMAS },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token made in the admin app or with `cms token create`.' } },
    },
    security: [{}, { bearerAuth: [] }],
  };
}

/**
 * The document for one workspace: the content routes of each type in
 * `types` as paths of their own, answering `Entry_{type}` and taking
 * `EntryInput_{type}`, beside everything of `base`.
 */
export function workspaceDocument(base: OpenApiDocument, types: readonly ContentType[]): OpenApiDocument {
  const names = new Set(types.map((type) => type.name));
  const hasType = (name: string) => names.has(name);
  const schemas = { ...base.components.schemas };
  const paths = { ...base.paths };
  const list = base.paths[`${API_ROOT}/workspaces/{ws}/content/{type}`] ?? {};
  const one = base.paths[`${API_ROOT}/workspaces/{ws}/content/{type}/{id}`] ?? {};
  for (const type of types) {
    schemas[entrySchemaName(type.name)] = typeEntrySchema(type, hasType);
    schemas[inputSchemaName(type.name)] = typeInputSchema(type, hasType);
    const entry = ref(entrySchemaName(type.name));
    const input = ref(inputSchemaName(type.name));
    const listAnswer = type.singleton ? envelope(entry) : envelope({ type: 'array', items: entry }, ref('ListMeta'));
    paths[`${API_ROOT}/workspaces/{ws}/content/${type.name}`] = forType(list, type.name, { answer: listAnswer, entry, input });
    paths[`${API_ROOT}/workspaces/{ws}/content/${type.name}/{id}`] = forType(one, type.name, { answer: envelope(entry), entry, input });
  }
  return { ...base, info: { ...base.info, title: `${base.info.title}: one workspace` }, paths, components: { ...base.components, schemas } };
}

interface RouteOperation {
  key: string;
  method: string;
  template: string;
  layer: RouteLayer;
}

function operationsOf(layers: readonly RouteLayer[]): RouteOperation[] {
  const found: RouteOperation[] = [];
  for (const layer of layers) {
    if (!PUBLIC_ROOTS.some((root) => layer.path.startsWith(root)) || layer.methods.length === 0) continue;
    const template = layer.path.replace(/:(\w+)/g, '{$1}');
    for (const method of layer.methods.filter((candidate) => candidate !== 'HEAD')) found.push({ key: `${method} ${template}`, method, template, layer });
  }
  return found;
}

function parserOf(layer: RouteLayer): QueryParser<unknown> | undefined {
  for (const middleware of layer.stack) {
    if (typeof middleware === 'function' && 'parser' in middleware && typeof middleware.parser === 'function') return middleware.parser as QueryParser<unknown>;
  }
  return undefined;
}

function operation(doc: OperationDoc, method: string, template: string, parser: QueryParser<unknown> | undefined): JsonSchema {
  const pathParameters = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: NAMED.has(name) ? { type: 'string', pattern: IDENTIFIER_PATTERN.source } : { type: 'string' },
  }));
  const queryParameters = (parser ? queryParametersOf(parser) : []).map((parameter) => ({
    name: parameter.name,
    in: 'query',
    required: false,
    schema: parameter.schema,
    ...(parameter.style ? { style: parameter.style, explode: true } : {}),
  }));
  return {
    operationId: `${method.toLowerCase()}${template.replace(API_ROOT, '').replace(/\{(\w+)\}/g, '_by_$1').replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_+$/, ''),
    summary: doc.summary,
    tags: [doc.tag],
    ...(pathParameters.length + queryParameters.length > 0 ? { parameters: [...pathParameters, ...queryParameters] } : {}),
    ...(doc.body ? { requestBody: requestBody(doc.body) } : {}),
    responses: {
      [String(doc.status ?? 200)]: { description: 'Success.', ...(doc.answer ? { content: { [doc.produces ?? 'application/json']: { schema: doc.answer } } } : {}) },
      '4XX': ERROR_ANSWER,
      '5XX': ERROR_ANSWER,
    },
  };
}

function requestBody(body: JsonSchema | 'multipart'): JsonSchema {
  if (body === 'multipart') {
    const file = { type: 'string', contentMediaType: 'application/octet-stream' };
    return { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { 'media[]': { type: 'array', items: file }, category: { type: 'string' } } } } } };
  }
  return { required: true, content: { 'application/json': { schema: toJsonSchema2020(body) } } };
}

// The routes validate with ajv's draft-07 schemas, where `nullable: true` means "or null"; OpenAPI 3.1 spells that in `type`.
function toJsonSchema2020(schema: unknown): JsonSchema {
  if (Array.isArray(schema)) return schema.map(toJsonSchema2020) as unknown as JsonSchema;
  if (typeof schema !== 'object' || schema === null) return schema as JsonSchema;
  const { nullable, ...rest } = schema as JsonSchema;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, key === 'enum' || key === 'required' ? value : toJsonSchema2020(value)]));
  return nullable === true && typeof converted.type === 'string' ? { ...converted, type: [converted.type, 'null'] } : converted;
}

// The generic content operations, with the type fixed and its own schemas.
function forType(operations: Record<string, JsonSchema>, type: string, schemas: { answer: JsonSchema; entry: JsonSchema; input: JsonSchema }): Record<string, JsonSchema> {
  const typed: Record<string, JsonSchema> = {};
  for (const [method, op] of Object.entries(operations)) {
    const parameters = (op.parameters as { name: string; in: string }[] | undefined)?.filter((parameter) => !(parameter.in === 'path' && parameter.name === 'type'));
    const responses = op.responses as Record<string, JsonSchema>;
    const [success] = Object.keys(responses);
    const answer = method === 'get' ? schemas.answer : method === 'delete' ? undefined : envelope(schemas.entry);
    typed[method] = {
      ...op,
      operationId: `${op.operationId as string}_${type.replace(/-/g, '_')}`,
      ...(parameters ? { parameters } : {}),
      ...(op.requestBody ? { requestBody: { required: true, content: { 'application/json': { schema: schemas.input } } } } : {}),
      responses: answer ? { ...responses, [success]: { description: 'Success.', content: { 'application/json': { schema: answer } } } } : responses,
    };
  }
  return typed;
}
