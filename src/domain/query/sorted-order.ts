// Pre-sorted slot orders for one (locale, field, direction), kept current by
// binary insertion and removal so that no request ever sorts (DESIGN.md "Read
// path"). Entries without a value come last in both directions; ties are broken
// by id ascending so that pages never overlap.

import { compareKeys } from './comparable-values.ts';
import type { SortKey, ValueItem } from './comparable-values.ts';
import type { SortOrder } from './list-query.ts';

/**
 * The comparable items of one field for every entry, indexed by the entry's
 * slot in its TypeIndex; an empty array for a missing value or a free slot.
 */
export type Column = ValueItem[][];

/** What an order needs besides the column: the id of a slot, for ties. */
export type IdOfSlot = (slot: number) => string;

/** Compares ids by code unit, the tie-breaker of every order. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKeyOf(column: Column, slot: number): SortKey | undefined {
  return column[slot]?.[0]?.key;
}

function compareRows(ak: SortKey | undefined, aId: string, bk: SortKey | undefined, bId: string, order: SortOrder): number {
  if (ak === undefined || bk === undefined) {
    if (ak !== bk) return ak === undefined ? 1 : -1;
    return compareIds(aId, bId);
  }
  const byKey = order === 'desc' ? compareKeys(bk, ak) : compareKeys(ak, bk);
  return byKey !== 0 ? byKey : compareIds(aId, bId);
}

/** Builds the order of `slots` by the first value item of each in `column`. */
export function buildOrder(slots: Iterable<number>, column: Column, idOf: IdOfSlot, order: SortOrder): number[] {
  const rows: { slot: number; id: string; key: SortKey | undefined }[] = [];
  for (const slot of slots) rows.push({ slot, id: idOf(slot), key: sortKeyOf(column, slot) });
  rows.sort((a, b) => compareRows(a.key, a.id, b.key, b.id, order));
  return rows.map((row) => row.slot);
}

/** The first position whose row does not come before (key, id). */
function lowerBound(slots: number[], column: Column, idOf: IdOfSlot, slot: number, order: SortOrder): number {
  const key = sortKeyOf(column, slot);
  const id = idOf(slot);
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareRows(sortKeyOf(column, slots[mid]), idOf(slots[mid]), key, id, order) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts `slot` at its place; `column` must already hold its current items. */
export function insertIntoOrder(slots: number[], column: Column, idOf: IdOfSlot, slot: number, order: SortOrder): void {
  slots.splice(lowerBound(slots, column, idOf, slot, order), 0, slot);
}

/** Removes `slot`; `column` must still hold the items it was inserted with. */
export function removeFromOrder(slots: number[], column: Column, idOf: IdOfSlot, slot: number, order: SortOrder): void {
  const at = lowerBound(slots, column, idOf, slot, order);
  if (slots[at] === slot) {
    slots.splice(at, 1);
    return;
  }
  // Defensive: an order that drifted from its column is repaired, not corrupted further.
  const found = slots.indexOf(slot);
  if (found >= 0) slots.splice(found, 1);
}
