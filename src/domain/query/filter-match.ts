// Compiles a ListQuery's filter conditions into one predicate over entry ids,
// reading pre-parsed column values. Semantics (SPEC filter rules): an array
// value matches when any item matches; `ne` is the negation of `eq`; ordering
// operators compare only values of the same kind; conditions combine with AND.

import { compareKeys } from './field-values.ts';
import type { SortKey, ValueItem } from './field-values.ts';
import type { FilterCondition } from './list-query.ts';
import type { Column } from './sorted-order.ts';

/** A compiled filter: true when the entry with this id matches every condition. */
export type EntryPredicate = (id: string) => boolean;

type ItemTest = (item: ValueItem) => boolean;

const NO_ITEMS: ValueItem[] = [];

/**
 * Compiles `filters`, asking `columnFor` for the column of each field (the
 * caller picks the locale). Returns undefined when there is nothing to check.
 */
export function compileFilters(filters: FilterCondition[], columnFor: (field: string) => Column): EntryPredicate | undefined {
  if (filters.length === 0) return undefined;
  const checks = filters.map((condition) => compileCondition(condition, columnFor(condition.field)));
  return (id) => {
    for (const check of checks) if (!check(id)) return false;
    return true;
  };
}

function compileCondition(condition: FilterCondition, column: Column): EntryPredicate {
  if (condition.op === 'ne') {
    const isEqual = itemTest({ ...condition, op: 'eq' });
    return (id) => !(column.get(id) ?? NO_ITEMS).some(isEqual);
  }
  const test = itemTest(condition);
  return (id) => (column.get(id) ?? NO_ITEMS).some(test);
}

/** Orders keys of the same kind; NaN (never true in a comparison) across kinds. */
function compareSameKind(a: SortKey, b: SortKey): number {
  return typeof a === typeof b ? compareKeys(a, b) : Number.NaN;
}

function itemTest(condition: FilterCondition): ItemTest {
  const values = condition.values;
  const first = values[0];
  if (first === undefined) return () => false;
  switch (condition.op) {
    case 'eq':
    case 'ne':
      return (item) => item.eq === first.eq;
    case 'in': {
      const wanted = new Set(values.map((v) => v.eq));
      return (item) => wanted.has(item.eq);
    }
    case 'gt':
      return (item) => compareSameKind(item.key, first.key) > 0;
    case 'gte':
      return (item) => compareSameKind(item.key, first.key) >= 0;
    case 'lt':
      return (item) => compareSameKind(item.key, first.key) < 0;
    case 'lte':
      return (item) => compareSameKind(item.key, first.key) <= 0;
    case 'contains':
      return (item) => item.text.includes(first.text);
  }
}
