// Compiles a ListQuery's filter conditions into one predicate over entry
// slots, reading pre-parsed column values. Semantics (SPEC filter rules): an
// array value matches when any item matches; `ne` is the negation of `eq`;
// ordering operators compare only values of the same kind; conditions AND.

import { compareKeys } from './comparable-values.ts';
import type { SortKey, ValueItem } from './comparable-values.ts';
import type { FilterCondition } from './list-query.ts';
import type { Column } from './sorted-order.ts';

/** A compiled filter: true when the entry in this slot matches every condition. */
export type SlotPredicate = (slot: number) => boolean;

type ItemTest = (item: ValueItem) => boolean;

/**
 * Compiles `filters`, asking `columnFor` for the column of each field (the
 * caller picks the locale). Returns undefined when there is nothing to check.
 */
export function compileFilters(filters: FilterCondition[], columnFor: (field: string) => Column): SlotPredicate | undefined {
  if (filters.length === 0) return undefined;
  const checks = filters.map((condition) => compileCondition(condition, columnFor(condition.field)));
  if (checks.length === 1) return checks[0];
  return (slot) => {
    for (let i = 0; i < checks.length; i += 1) if (!checks[i](slot)) return false;
    return true;
  };
}

function compileCondition(condition: FilterCondition, column: Column): SlotPredicate {
  const test = itemTest(condition);
  const anyItem = (slot: number): boolean => {
    const items = column[slot];
    if (items === undefined) return false;
    for (let i = 0; i < items.length; i += 1) if (test(items[i])) return true;
    return false;
  };
  return condition.op === 'ne' ? (slot) => !anyItem(slot) : anyItem;
}

/** Orders keys of the same kind; NaN (never true in a comparison) across kinds. */
function compareSameKind(a: SortKey, b: SortKey): number {
  return typeof a === typeof b ? compareKeys(a, b) : Number.NaN;
}

function itemTest(condition: FilterCondition): ItemTest {
  const values = condition.values;
  if (values.length === 0) return () => false;
  const { eq, key, text } = values[0];
  switch (condition.op) {
    case 'eq':
    case 'ne':
      return (item) => item.eq === eq;
    case 'in': {
      const wanted = new Set(values.map((v) => v.eq));
      return (item) => wanted.has(item.eq);
    }
    case 'gt':
      return (item) => compareSameKind(item.key, key) > 0;
    case 'gte':
      return (item) => compareSameKind(item.key, key) >= 0;
    case 'lt':
      return (item) => compareSameKind(item.key, key) < 0;
    case 'lte':
      return (item) => compareSameKind(item.key, key) <= 0;
    case 'contains':
      return (item) => item.text.includes(text);
  }
}
