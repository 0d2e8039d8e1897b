// The list query of SPEC "List query parameters": parsing the raw query string
// values into a typed, validated ListQuery. Executing it is type-index.ts's job;
// unknown non-list keys (tokens, cache busters) are ignored here on purpose.

import { AppError } from '../../errors/app-error.ts';
import type { ContentType } from '../model/content-type.ts';
import { fieldKind, parseBooleanText, parseIsoDate, toValueItem } from './comparable-values.ts';
import type { ValueItem, ValueKind } from './comparable-values.ts';

export const FILTER_OPS = ['eq', 'in', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains'] as const;

/** A filter operator; `eq` is the bare `filter[field]` form. */
export type FilterOp = (typeof FILTER_OPS)[number];

export type SortOrder = 'asc' | 'desc';

/** One filter condition; only `in` carries more than one value. */
export interface FilterCondition {
  field: string;
  op: FilterOp;
  values: ValueItem[];
}

/** A validated list query; `sort`/`order` are undefined when the client gave none. */
export interface ListQuery {
  limit?: number;
  offset: number;
  sort?: string;
  order?: SortOrder;
  q?: string;
  include: string[];
  locale?: string;
  filters: FilterCondition[];
}

export type RawQuery = Record<string, string | string[] | undefined>;

/** Longest accepted `q`, so a search never turns into a slow request. */
export const MAX_Q_LENGTH = 500;

const LOCALE_PATTERN = /^[A-Za-z0-9_-]+$/;
const FILTER_KEY = /^filter\[([^[\]]+)\](?:\[([^[\]]*)\])?$/;

/**
 * Parses `raw` (Koa's ctx.query: literal `filter[f][op]` keys, repeated keys as
 * arrays) against `type`. Throws invalid_request naming the parameter for any
 * bad value, unknown filter/sort/include field or malformed filter key.
 */
export function parseListQuery(raw: RawQuery, type: ContentType): ListQuery {
  const query: ListQuery = { offset: 0, include: [], filters: [] };
  const limit = single(raw, 'limit');
  if (limit !== undefined) query.limit = parseInteger('limit', limit, 1);
  const offset = single(raw, 'offset');
  if (offset !== undefined) query.offset = parseInteger('offset', offset, 0);
  const order = single(raw, 'order');
  if (order !== undefined) query.order = parseOrder(order);
  const sort = single(raw, 'sort');
  if (sort !== undefined && sort !== '') Object.assign(query, parseSort(sort, query.order, type));
  const q = single(raw, 'q');
  if (q !== undefined) query.q = parseSearch(q);
  query.include = parseInclude(raw.include, type);
  const locale = single(raw, 'locale');
  if (locale !== undefined && locale !== '') query.locale = parseLocale(locale);
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined && (key === 'filter' || key.startsWith('filter['))) {
      query.filters.push(...parseFilter(key, value, type));
    }
  }
  return query;
}

function invalid(param: string, message: string): AppError {
  return new AppError('invalid_request', message, { fields: { [param]: message } });
}

/** Quotes a client-supplied name for a message without echoing huge inputs. */
function quote(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
}

function single(raw: RawQuery, key: string): string | undefined {
  const value = raw[key];
  if (Array.isArray(value)) throw invalid(key, `The query parameter "${key}" may be given only once.`);
  return value;
}

function parseInteger(key: string, value: string, min: number): number {
  const num = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(num) || num < min) {
    throw invalid(key, `The query parameter "${key}" must be an integer of at least ${min}.`);
  }
  return num;
}

function parseOrder(value: string): SortOrder {
  if (value !== 'asc' && value !== 'desc') throw invalid('order', 'The query parameter "order" must be "asc" or "desc".');
  return value;
}

function parseSort(value: string, order: SortOrder | undefined, type: ContentType): Pick<ListQuery, 'sort' | 'order'> {
  const isDesc = value.startsWith('-');
  const field = isDesc ? value.slice(1) : value;
  if (fieldKind(type, field) === undefined) {
    throw invalid('sort', `Cannot sort by ${quote(field)}: collection "${type.name}" has no such field.`);
  }
  // An explicit `order` wins over the `-` prefix.
  return { sort: field, order: order ?? (isDesc ? 'desc' : 'asc') };
}

function parseSearch(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length > MAX_Q_LENGTH) {
    throw invalid('q', `The query parameter "q" may be at most ${MAX_Q_LENGTH} characters long.`);
  }
  return trimmed === '' ? undefined : trimmed;
}

function parseInclude(value: string | string[] | undefined, type: ContentType): string[] {
  if (value === undefined) return [];
  const names = (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(','));
  const include: string[] = [];
  for (const name of names.map((n) => n.trim())) {
    if (name === '' || include.includes(name)) continue;
    const def = Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
    if (def?.type !== 'relation') {
      throw invalid('include', `Cannot include ${quote(name)}: it is not a relation field of collection "${type.name}".`);
    }
    include.push(name);
  }
  return include;
}

function parseLocale(value: string): string {
  if (!LOCALE_PATTERN.test(value)) {
    throw invalid('locale', 'The query parameter "locale" may contain only letters, digits, "_" and "-".');
  }
  return value;
}

function parseFilter(key: string, value: string | string[], type: ContentType): FilterCondition[] {
  const match = FILTER_KEY.exec(key);
  if (!match) throw invalid(key, `The filter parameter ${quote(key)} is malformed; use filter[field] or filter[field][op].`);
  const field = match[1];
  const op = match[2] ?? 'eq';
  if (!(FILTER_OPS as readonly string[]).includes(op)) {
    throw invalid(key, `Unknown filter operator ${quote(op)} in ${quote(key)}; use one of ${FILTER_OPS.slice(1).join(', ')}.`);
  }
  const kind = fieldKind(type, field);
  if (kind === undefined) {
    throw invalid(`filter[${field}]`, `Cannot filter by ${quote(field)}: collection "${type.name}" has no such field.`);
  }
  const raws = Array.isArray(value) ? value : [value];
  const filterOp = op as FilterOp;
  if (filterOp === 'in') {
    const items = raws.flatMap((r) => r.split(',')).map((r) => r.trim()).filter((r) => r !== '');
    return [{ field, op: filterOp, values: items.map((r) => coerce(key, kind, r)) }];
  }
  // Repeated conditions on one key must all hold (e.g. two tags, or ne a and ne b).
  return raws.map((r) => ({ field, op: filterOp, values: [filterOp === 'contains' ? toValueItem('string', r) : coerce(key, kind, r)] }));
}

function coerce(key: string, kind: ValueKind, value: string): ValueItem {
  if (kind === 'number' && (value.trim() === '' || !Number.isFinite(Number(value)))) {
    throw invalid(key, `The filter ${quote(key)} needs a number, got ${quote(value)}.`);
  }
  if (kind === 'boolean' && parseBooleanText(value) === undefined) {
    throw invalid(key, `The filter ${quote(key)} needs true, false, 1 or 0, got ${quote(value)}.`);
  }
  if (kind === 'date' && parseIsoDate(value) === undefined) {
    throw invalid(key, `The filter ${quote(key)} needs an ISO 8601 date, got ${quote(value)}.`);
  }
  return toValueItem(kind, value);
}
