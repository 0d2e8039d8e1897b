// Pre-sorted id orders for one (locale, field, direction), kept current by
// binary insertion and removal so that no request ever sorts (DESIGN.md "Read
// path"). Entries without a value come last in both directions; ties are broken
// by id ascending so that pages never overlap.

import { compareKeys } from './field-values.ts';
import type { SortKey, ValueItem } from './field-values.ts';
import type { SortOrder } from './list-query.ts';

/** The comparable items of every entry of one field, by entry id. */
export type Column = Map<string, ValueItem[]>;

function sortKeyOf(column: Column, id: string): SortKey | undefined {
  return column.get(id)?.[0]?.key;
}

/** Compares ids by id only, the tie-breaker of every order. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRows(ak: SortKey | undefined, aId: string, bk: SortKey | undefined, bId: string, order: SortOrder): number {
  if (ak === undefined || bk === undefined) {
    if (ak !== bk) return ak === undefined ? 1 : -1;
    return compareIds(aId, bId);
  }
  const byKey = order === 'desc' ? compareKeys(bk, ak) : compareKeys(ak, bk);
  return byKey !== 0 ? byKey : compareIds(aId, bId);
}

/** Builds the order of `ids` by the first value item in `column`. */
export function buildOrder(ids: Iterable<string>, column: Column, order: SortOrder): string[] {
  const rows: { id: string; key: SortKey | undefined }[] = [];
  for (const id of ids) rows.push({ id, key: sortKeyOf(column, id) });
  rows.sort((a, b) => compareRows(a.key, a.id, b.key, b.id, order));
  return rows.map((row) => row.id);
}

/** The first position whose row does not come before (key, id). */
function lowerBound(ids: string[], column: Column, key: SortKey | undefined, id: string, order: SortOrder): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareRows(sortKeyOf(column, ids[mid]), ids[mid], key, id, order) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts `id` at its place; `column` must already hold its current items. */
export function insertIntoOrder(ids: string[], column: Column, id: string, order: SortOrder): void {
  ids.splice(lowerBound(ids, column, sortKeyOf(column, id), id, order), 0, id);
}

/** Removes `id`; `column` must still hold the items it was inserted with. */
export function removeFromOrder(ids: string[], column: Column, id: string, order: SortOrder): void {
  const at = lowerBound(ids, column, sortKeyOf(column, id), id, order);
  if (ids[at] === id) {
    ids.splice(at, 1);
    return;
  }
  // Defensive: an order that drifted from its column is repaired, not corrupted further.
  const found = ids.indexOf(id);
  if (found >= 0) ids.splice(found, 1);
}
