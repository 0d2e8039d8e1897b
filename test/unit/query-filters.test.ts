import { expect } from 'chai';
import fc from 'fast-check';
import { compareKeys, toValueItem, toValueItems } from '../../src/domain/query/comparable-values.ts';
import type { ValueItem, ValueKind } from '../../src/domain/query/comparable-values.ts';
import { CODE_MISSING, CODE_MULTI, DenseColumn } from '../../src/domain/query/dense-column.ts';
import { compileFilters } from '../../src/domain/query/filter-match.ts';
import { FILTER_OPS } from '../../src/domain/query/list-query.ts';
import type { FilterCondition, FilterOp } from '../../src/domain/query/list-query.ts';

const KINDS: ValueKind[] = ['number', 'string', 'boolean', 'date'];
const SCALARS = [0, 1, 2, -1, 2.5, 'a', 'A', 'b', 'abc', '1', '2024-01-01', '2024-06-01T12:00:00Z', true, false];

/** SPEC's filter rules, item by item, as the reference for the compiled filters. */
function referenceMatch(items: ValueItem[], condition: FilterCondition): boolean {
  const sameKind = (item: ValueItem, value: ValueItem) => typeof item.key === typeof value.key;
  const test = (item: ValueItem): boolean => {
    const [value] = condition.values;
    switch (condition.op) {
      case 'eq':
      case 'ne':
        return item.eq === value.eq;
      case 'in':
        return condition.values.some((v) => v.eq === item.eq);
      case 'gt':
        return sameKind(item, value) && compareKeys(item.key, value.key) > 0;
      case 'gte':
        return sameKind(item, value) && compareKeys(item.key, value.key) >= 0;
      case 'lt':
        return sameKind(item, value) && compareKeys(item.key, value.key) < 0;
      case 'lte':
        return sameKind(item, value) && compareKeys(item.key, value.key) <= 0;
      case 'contains':
        return item.text.includes(value.text);
    }
  };
  const any = condition.values.length > 0 && items.some(test);
  return condition.op === 'ne' ? !any : any;
}

const scalar = fc.constantFrom(...SCALARS);
const cell = fc.oneof(scalar, fc.constant(null), fc.array(scalar, { maxLength: 3 }));
const condition = fc.record({
  op: fc.constantFrom(...FILTER_OPS),
  kind: fc.constantFrom(...KINDS),
  raws: fc.array(scalar, { minLength: 1, maxLength: 3 }),
});

function toCondition(spec: { op: FilterOp; kind: ValueKind; raws: unknown[] }): FilterCondition {
  const raws = spec.op === 'in' ? spec.raws : spec.raws.slice(0, 1);
  return { field: 'f', op: spec.op, values: raws.map((raw) => toValueItem(spec.op === 'contains' ? 'string' : spec.kind, raw)) };
}

describe('compiled filters on dense columns', () => {
  it('match like the item-by-item rules, per slot and in a mask pass, also after slots change', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS),
        fc.array(cell, { maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(45), cell), { maxLength: 10 }),
        fc.array(condition, { minLength: 1, maxLength: 3 }),
        (kind, cells, edits, specs) => {
          const items = cells.map((value) => toValueItems(kind, value));
          const column = new DenseColumn(items);
          for (const [slot, value] of edits) {
            items[slot] = toValueItems(kind, value);
            column.refresh(slot);
          }
          const conditions = specs.map(toCondition);
          const filter = compileFilters(conditions, () => column);
          if (!filter) throw new Error('no filter');
          const size = items.length;
          const want = Array.from({ length: size }, (_, slot) => conditions.every((c) => referenceMatch(items[slot] ?? [], c)));
          const mask = new Uint8Array(size + 4).fill(1);
          filter.refine(mask, size);
          expect(Array.from({ length: size }, (_, slot) => filter.matches(slot))).to.deep.equal(want);
          expect([...mask.subarray(0, size)].map((bit) => bit === 1)).to.deep.equal(want);
          expect([...mask.subarray(size)]).to.deep.equal([1, 1, 1, 1]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps a cleared slot cleared', () => {
    const column = new DenseColumn([toValueItems('number', 5), toValueItems('number', 7)]);
    const filter = compileFilters([{ field: 'f', op: 'ne', values: [toValueItem('number', 1)] }], () => column);
    const mask = Uint8Array.from([0, 1]);
    filter?.refine(mask, 2);
    expect([...mask]).to.deep.equal([0, 1]);
  });
});

describe('DenseColumn', () => {
  it('codes single values, marks missing and multi-item slots, and follows refreshes', () => {
    const items = [toValueItems('string', 'guide'), [], toValueItems('string', ['a', 'b']), toValueItems('number', 3)];
    const column = new DenseColumn(items);
    expect([...column.codes.subarray(0, 4)]).to.deep.equal([0, CODE_MISSING, CODE_MULTI, 1]);
    expect(Number.isNaN(column.keys[0])).to.equal(true);
    expect(column.keys[3]).to.equal(3);
    expect([...column.multiValued]).to.deep.equal([2]);
    expect(column.codeFor('guide')).to.equal(0);
    expect(column.codeFor('missing')).to.equal(undefined);
    items[2] = toValueItems('string', 'guide');
    column.refresh(2);
    items[200] = toValueItems('string', ['x', 'y']);
    column.refresh(200);
    expect(column.codes[2]).to.equal(0);
    expect(column.codes[200]).to.equal(CODE_MULTI);
    expect(column.codes[150]).to.equal(CODE_MISSING);
    expect([...column.multiValued]).to.deep.equal([200]);
  });
});
