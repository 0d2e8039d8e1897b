// The one parser of query-string input (SPEC "List query parameters", API.md
// "Error codes"): each rule below has one message and fails with 400
// invalid_request naming the parameter in `fields`. Routes compose the rules
// into a parser and mount it with validateQuery(), which puts the typed result
// on ctx.state.query; services receive typed values and never parse strings.
// Checks that need a content type (does the sort field exist?) stay in the domain.
import type { Middleware } from 'koa';
import { FILTER_OPS, type FilterOp, type FilterParam, type ListParams, type ReadParams, type SortOrder } from '../domain/query/list-query.ts';
import { AppError } from '../errors/app-error.ts';

/** Query values as Koa parses them: a repeated key becomes an array. */
export type QueryValues = Record<string, string | string[] | undefined>;

/** Turns the raw query into a route's typed input, or throws invalid_request. */
export type QueryParser<T> = (query: QueryValues) => T;

/** The state validateQuery() adds for the handlers after it. */
export interface QueryState<T> {
  query: T;
}

/** Paging of a list: `limit` (undefined when absent: the whole list) and `offset`. */
export interface Paging {
  limit?: number;
  offset: number;
}

/** Longest accepted `q`, so a search never turns into a slow request. */
export const MAX_Q_LENGTH = 500;

// SPEC "List query parameters"; an unsupported but well-formed code is ignored, not refused.
const QUERY_LOCALE = /^[A-Za-z0-9_-]+$/;
const FILTER_KEY = /^filter\[([^[\]]+)\](?:\[([^[\]]*)\])?$/;

/** A query parameter as a rule below reads it, for the OpenAPI document (JSON Schema of its value). */
export interface QueryParameterDoc {
  name: string;
  schema: Record<string, unknown>;
  /** `filter[field][op]`: a family of keys rather than one name. */
  style?: 'deepObject';
}

// The parameters of a parser are found by running it on an empty query that
// each rule tells what it reads: the document comes from the very rules that
// validate, so the two cannot drift apart.
const recorders = new WeakMap<QueryValues, Map<string, QueryParameterDoc>>();

function record(query: QueryValues, doc: QueryParameterDoc): void {
  // The outermost rule records last and wins (integerParam reads through singleParam).
  recorders.get(query)?.set(doc.name, doc);
}

/** The query parameters `parse` reads, in the order it reads them. */
export function queryParametersOf(parse: QueryParser<unknown>): QueryParameterDoc[] {
  const query: QueryValues = {};
  const found = new Map<string, QueryParameterDoc>();
  recorders.set(query, found);
  parse(query);
  return [...found.values()];
}

/** validateQuery()'s middleware carries its parser, so the OpenAPI document can list what a route reads. */
export type QueryValidator<T> = Middleware<QueryState<T>> & { parser: QueryParser<T> };

/**
 * Middleware that parses ctx.query with `parse` and puts the result on
 * ctx.state.query, so the route handler reads typed input. Throws what `parse` throws (invalid_request).
 */
export function validateQuery<T>(parse: QueryParser<T>): QueryValidator<T> {
  const validQuery: Middleware<QueryState<T>> = async function validQuery(ctx, next) {
    ctx.state.query = parse(ctx.query);
    await next();
  };
  return Object.assign(validQuery, { parser: parse });
}

/** A value that may appear once; an empty value counts as given. Throws invalid_request when the key is repeated. */
export function singleParam(query: QueryValues, key: string): string | undefined {
  record(query, { name: key, schema: { type: 'string' } });
  const value = query[key];
  if (Array.isArray(value)) throw invalid(key, `The query parameter "${key}" may be given only once.`);
  return value;
}

/** Free text given once; empty means not given. Throws invalid_request when repeated. */
export function textParam(query: QueryValues, key: string): string | undefined {
  const value = singleParam(query, key);
  return value === '' ? undefined : value;
}

/** A whole number of at least `min` (and at most `max` when given). Throws invalid_request for anything else, empty included. */
export function integerParam(query: QueryValues, key: string, range: { min: number; max?: number }): number | undefined {
  const value = singleParam(query, key);
  record(query, { name: key, schema: { type: 'integer', minimum: range.min, ...(range.max === undefined ? {} : { maximum: range.max }) } });
  if (value === undefined) return undefined;
  const num = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(num) || num < range.min || (range.max !== undefined && num > range.max)) {
    const upTo = range.max === undefined ? '' : ` and at most ${range.max}`;
    throw invalid(key, `The query parameter "${key}" must be an integer of at least ${range.min}${upTo}.`);
  }
  return num;
}

/** A whole number from a fixed list (image sizes). Throws invalid_request for anything else, empty included, naming the allowed values. */
export function integerChoiceParam(query: QueryValues, key: string, choices: readonly number[]): number | undefined {
  const value = singleParam(query, key);
  record(query, { name: key, schema: { type: 'integer', enum: [...choices] } });
  if (value === undefined) return undefined;
  const num = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!choices.includes(num)) throw invalid(key, `The query parameter "${key}" must be one of: ${choices.join(', ')}.`);
  return num;
}

/** A moment as ISO 8601 (`2026-11-24` or `2026-11-24T10:00:00Z`), given back as a full ISO time in UTC. Throws invalid_request for anything else. */
export function timeParam(query: QueryValues, key: string): string | undefined {
  const value = textParam(query, key);
  if (value === undefined) return undefined;
  const time = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw invalid(key, `The query parameter "${key}" must be a date or time such as 2026-11-24 or 2026-11-24T10:00:00Z.`);
  return new Date(time).toISOString();
}

/** One of `choices`. Throws invalid_request for anything else, empty included. */
export function choiceParam<C extends string>(query: QueryValues, key: string, choices: readonly C[]): C | undefined {
  const value = singleParam(query, key);
  record(query, { name: key, schema: { type: 'string', enum: [...choices] } });
  if (value === undefined) return undefined;
  const choice = choices.find((candidate) => candidate === value);
  if (choice === undefined) throw invalid(key, `The query parameter "${key}" must be one of: ${choices.join(', ')}.`);
  return choice;
}

/** `limit` (1 or more, at most `maxLimit` when given) and `offset` (0 or more). Throws invalid_request. */
export function pagingParams(query: QueryValues, maxLimit?: number): Paging {
  const limit = integerParam(query, 'limit', { min: 1, max: maxLimit });
  return { ...(limit === undefined ? {} : { limit }), offset: integerParam(query, 'offset', { min: 0 }) ?? 0 };
}

/** `q`, trimmed; undefined when blank. Throws invalid_request when it is longer than MAX_Q_LENGTH. */
export function searchParam(query: QueryValues): string | undefined {
  const q = singleParam(query, 'q')?.trim();
  record(query, { name: 'q', schema: { type: 'string', maxLength: MAX_Q_LENGTH } });
  if (q !== undefined && q.length > MAX_Q_LENGTH) throw invalid('q', `The query parameter "q" may be at most ${MAX_Q_LENGTH} characters long.`);
  return q === '' ? undefined : q;
}

/** `locale` as a code of letters, digits, `_` and `-`; undefined when empty. Throws invalid_request for other characters. */
export function localeParam(query: QueryValues): string | undefined {
  const locale = textParam(query, 'locale');
  record(query, { name: 'locale', schema: { type: 'string', pattern: QUERY_LOCALE.source } });
  if (locale !== undefined && !QUERY_LOCALE.test(locale)) {
    throw invalid('locale', 'The query parameter "locale" may contain only letters, digits, "_" and "-".');
  }
  return locale;
}

/** Names from a comma list, repeated keys allowed; trimmed, without blanks and duplicates. Throws nothing. */
export function namesParam(query: QueryValues, key: string): string[] {
  record(query, { name: key, schema: { type: 'string', description: 'a comma-separated list; the key may be repeated' } });
  const value = query[key];
  if (value === undefined) return [];
  const names = (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')).map((name) => name.trim());
  return [...new Set(names.filter((name) => name !== ''))];
}

/**
 * `sort` (a field, `-` in front for descending) and `order`; an explicit
 * `order` wins over the prefix. Throws invalid_request for an order other than asc or desc.
 */
export function sortParams(query: QueryValues): Pick<ListParams, 'sort' | 'order'> {
  const order = choiceParam<SortOrder>(query, 'order', ['asc', 'desc']);
  const sort = textParam(query, 'sort');
  record(query, { name: 'sort', schema: { type: 'string', description: 'a field; a leading - sorts descending' } });
  if (sort === undefined) return order === undefined ? {} : { order };
  const isDesc = sort.startsWith('-');
  return { sort: isDesc ? sort.slice(1) : sort, order: order ?? (isDesc ? 'desc' : 'asc') };
}

/**
 * Every `filter[field]` and `filter[field][op]` key. `in` takes a comma list
 * (and repeated keys) as one condition; a repeated key of another operator is
 * one condition per value, all of which must hold. Throws invalid_request for a malformed key or an unknown operator.
 */
export function filterParams(query: QueryValues): FilterParam[] {
  const operators = { type: 'string', description: `a value, or a comma list for in; operators: ${FILTER_OPS.join(', ')}` };
  record(query, { name: 'filter', style: 'deepObject', schema: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'object', propertyNames: { enum: [...FILTER_OPS] }, additionalProperties: operators }] } } });
  const filters: FilterParam[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || (key !== 'filter' && !key.startsWith('filter['))) continue;
    const match = FILTER_KEY.exec(key);
    if (!match) throw invalid(key, `The filter parameter ${quote(key)} is malformed; use filter[field] or filter[field][op].`);
    const op = FILTER_OPS.find((candidate) => candidate === (match[2] ?? 'eq'));
    if (op === undefined) {
      throw invalid(key, `Unknown filter operator ${quote(match[2])} in ${quote(key)}; use one of ${FILTER_OPS.slice(1).join(', ')}.`);
    }
    filters.push(...filterConditions(key, match[1], op, Array.isArray(value) ? value : [value]));
  }
  return filters;
}

/**
 * `ref`: a commit id (full or abbreviated), tag or branch to read the content
 * at; undefined when absent. Its form is checked where it is resolved
 * (storage/git/revisions.ts). Throws invalid_request when it is repeated or
 * empty (an unset variable in a build script must not read HEAD silently).
 */
export function refParam(query: QueryValues): string | undefined {
  const ref = singleParam(query, 'ref');
  record(query, { name: 'ref', schema: { type: 'string', minLength: 1, maxLength: 200, description: 'a commit id (full, or 7 or more hex digits), a tag (release) or a branch: the content as it was there' } });
  if (ref === '') throw invalid('ref', 'The query parameter "ref" must name a commit, tag or branch.');
  return ref;
}

/** Adds `ref` to what `parse` reads, for the public reads that can answer at a ref. Throws what either throws. */
export function withRefParam<T extends object>(parse: QueryParser<T>): QueryParser<T & { ref?: string }> {
  return (query) => {
    const ref = refParam(query);
    return { ...parse(query), ...(ref === undefined ? {} : { ref }) };
  };
}

/** The list query of a content list route (SPEC "List query parameters"); unknown keys (tokens, cache busters) are ignored. Throws invalid_request. */
export function parseListParams(query: QueryValues): ListParams {
  const q = searchParam(query);
  return { ...pagingParams(query), ...sortParams(query), ...(q === undefined ? {} : { q }), ...parseReadParams(query), filters: filterParams(query) };
}

/** What a single-entry read takes of the query: `include` and `locale`; other keys are ignored. Throws invalid_request. */
export function parseReadParams(query: QueryValues): ReadParams {
  const locale = localeParam(query);
  return { include: namesParam(query, 'include'), ...(locale === undefined ? {} : { locale }) };
}

function filterConditions(key: string, field: string, op: FilterOp, values: string[]): FilterParam[] {
  if (op === 'in') {
    return [{ key, field, op, values: values.flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '') }];
  }
  return values.map((value) => ({ key, field, op, values: [value] }));
}

function invalid(param: string, message: string): AppError {
  return new AppError('invalid_request', message, { fields: { [param]: message } });
}

/** Quotes a client-supplied name for a message without echoing huge inputs. */
function quote(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
}
