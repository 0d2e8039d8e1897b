// Binary search over a sorted sequence reached by position, for data that is
// searched in place rather than held as an array (git index and tree entries
// inside their file bytes).

/**
 * The first position in [0, size) whose item is not before the target, where
 * `compareAt(i)` is negative for items before it; `size` when there is none.
 */
export function lowerBound(size: number, compareAt: (i: number) => number): number {
  let low = 0;
  let high = size;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareAt(mid) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
