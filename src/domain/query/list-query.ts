// The list query of SPEC "List query parameters". The HTTP edge
// (http/query-params.ts) parses the query string into ListParams; this file
// checks those against one content type (sort, include and filter fields must
// exist) and reads each filter value as its field's kind, giving a ListQuery.
// Executing it is type-index.ts's job.

import { AppError } from '../../errors/app-error.ts';
import type { ContentType } from '../model/content-type.ts';
import { fieldKind, parseBooleanText, parseIsoDate, toValueItem } from './comparable-values.ts';
import type { ValueItem, ValueKind } from './comparable-values.ts';

export const FILTER_OPS = ['eq', 'in', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains'] as const;

/** A filter operator; `eq` is the bare `filter[field]` form. */
export type FilterOp = (typeof FILTER_OPS)[number];

export type SortOrder = 'asc' | 'desc';

/** One filter condition as the client wrote it; only `in` carries more than one value. */
export interface FilterParam {
  /** The query parameter as sent (`filter[price][gte]`), for error messages. */
  key: string;
  field: string;
  op: FilterOp;
  values: string[];
}

/** One filter condition; only `in` carries more than one value. */
export interface FilterCondition {
  field: string;
  op: FilterOp;
  values: ValueItem[];
}

/** A list query, field names and values checked against the type; `sort`/`order` are undefined when the client gave none. */
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

/** A list query as parsed from the query string, not yet checked against a type. */
export type ListParams = Omit<ListQuery, 'filters'> & { filters: FilterParam[] };

/** What a single-entry read takes of the query: relations to expand and the locale. */
export type ReadParams = Pick<ListParams, 'include' | 'locale'>;

/**
 * Checks `params` against `type`. Throws invalid_request naming the parameter
 * for an unknown sort or filter field, an include that is not a relation field,
 * or a filter value that is not of its field's kind.
 */
export function resolveListQuery(params: ListParams, type: ContentType): ListQuery {
  if (params.sort !== undefined && fieldKind(type, params.sort) === undefined) {
    throw invalid('sort', `Cannot sort by ${quote(params.sort)}: collection "${type.name}" has no such field.`);
  }
  for (const name of params.include) {
    const def = Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
    if (def?.type !== 'relation') {
      throw invalid('include', `Cannot include ${quote(name)}: it is not a relation field of collection "${type.name}".`);
    }
  }
  if (params.locale !== undefined && type.locales.length > 0 && !type.locales.includes(params.locale)) {
    throw invalid('locale', `The locale ${quote(params.locale)} is not one of collection "${type.name}": ${type.locales.join(', ')}.`);
  }
  return { ...params, filters: params.filters.map((filter) => resolveFilter(filter, type)) };
}

function invalid(param: string, message: string): AppError {
  return new AppError('invalid_request', message, { fields: { [param]: message } });
}

/** Quotes a client-supplied name for a message without echoing huge inputs. */
function quote(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
}

function resolveFilter({ key, field, op, values }: FilterParam, type: ContentType): FilterCondition {
  const kind = fieldKind(type, field);
  if (kind === undefined) {
    throw invalid(`filter[${field}]`, `Cannot filter by ${quote(field)}: collection "${type.name}" has no such field.`);
  }
  return { field, op, values: values.map((value) => (op === 'contains' ? toValueItem('string', value) : coerce(key, kind, value))) };
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
