// A filtered field's values in typed arrays indexed by slot: the numeric sort
// key and an interned code of the equality value of single-valued entries.
// Filters scan these in slot order through dense memory instead of chasing
// item objects; entries with several items (arrays) keep the item path.

import type { EqValue, ValueItem } from './comparable-values.ts';
import type { Column } from './sorted-order.ts';

/** Code of a slot without any value item (or a free slot). */
export const CODE_MISSING = -1;
/** Code of a slot with more than one item: test its items one by one. */
export const CODE_MULTI = -2;

/**
 * The dense form of one Column; LocaleView calls refresh(slot) after it
 * replaces `items[slot]`, so both always agree.
 */
export class DenseColumn {
  private numbers: Float64Array;
  private codesBySlot: Int32Array;
  private readonly codeOf = new Map<EqValue, number>();
  private readonly multiSlots = new Set<number>();

  /** Builds the arrays for every slot of `items` (the column it shadows). */
  constructor(readonly items: Column) {
    const size = Math.max(64, items.length);
    this.numbers = new Float64Array(size).fill(Number.NaN);
    this.codesBySlot = new Int32Array(size).fill(CODE_MISSING);
    for (let slot = 0; slot < items.length; slot += 1) this.refresh(slot);
  }

  /** Numeric key of each single-item slot; NaN for string keys, no value or several. */
  get keys(): Float64Array {
    return this.numbers;
  }

  /** Equality code of each single-item slot, or CODE_MISSING / CODE_MULTI. */
  get codes(): Int32Array {
    return this.codesBySlot;
  }

  /** The slots whose code is CODE_MULTI (entries with several items). */
  get multiValued(): ReadonlySet<number> {
    return this.multiSlots;
  }

  /** The code of an equality value, undefined when no entry ever held it. */
  codeFor(value: EqValue): number | undefined {
    return this.codeOf.get(value);
  }

  /** How many codes exist (codes are 0 … codeCount - 1). */
  get codeCount(): number {
    return this.codeOf.size;
  }

  /** Makes the arrays cover slots below `size`, so loops up to the slot count never read past them. */
  reserve(size: number): void {
    if (size > 0) this.grow(size - 1);
  }

  /** Re-reads `items[slot]` into the arrays. */
  refresh(slot: number): void {
    this.grow(slot);
    const items: ValueItem[] | undefined = this.items[slot];
    if (items !== undefined && items.length > 1) this.multiSlots.add(slot);
    else this.multiSlots.delete(slot);
    if (items === undefined || items.length === 0) {
      this.numbers[slot] = Number.NaN;
      this.codesBySlot[slot] = CODE_MISSING;
    } else if (items.length > 1) {
      this.numbers[slot] = Number.NaN;
      this.codesBySlot[slot] = CODE_MULTI;
    } else {
      const { key, eq } = items[0];
      this.numbers[slot] = typeof key === 'number' ? key : Number.NaN;
      this.codesBySlot[slot] = this.intern(eq);
    }
  }

  private intern(value: EqValue): number {
    let code = this.codeOf.get(value);
    if (code === undefined) {
      code = this.codeOf.size;
      this.codeOf.set(value, code);
    }
    return code;
  }

  private grow(slot: number): void {
    if (slot < this.codesBySlot.length) return;
    let size = this.codesBySlot.length * 2;
    while (size <= slot) size *= 2;
    const numbers = new Float64Array(size).fill(Number.NaN);
    numbers.set(this.numbers);
    const codes = new Int32Array(size).fill(CODE_MISSING);
    codes.set(this.codesBySlot);
    this.numbers = numbers;
    this.codesBySlot = codes;
  }
}
