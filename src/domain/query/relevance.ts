// Ranking search hits for one page: by score, highest first, ties by id
// ascending (so pages never overlap). Only the entries up to the end of the
// requested page are put in order, which for a page of 20 out of hundreds of
// hits is a few comparisons per hit instead of a full sort.

/**
 * The slots ranked [offset, end) among `slots` by `scores` (parallel
 * arrays), highest score first, equal scores by `idOf` ascending.
 */
export function rankWindow(slots: number[], scores: number[], idOf: (slot: number) => string, offset: number, end: number): number[] {
  const stop = Math.min(end, slots.length);
  if (offset >= stop) return [];
  const isBetter = (a: number, b: number): boolean => scores[a] > scores[b] || (scores[a] === scores[b] && idOf(slots[a]) < idOf(slots[b]));
  let best: number[];
  if (stop * 4 >= slots.length) {
    best = slots.map((_, i) => i).sort((a, b) => (isBetter(a, b) ? -1 : 1));
  } else {
    best = [];
    for (let i = 0; i < slots.length; i += 1) {
      if (best.length === stop && !isBetter(i, best[stop - 1])) continue;
      if (best.length === stop) best.pop();
      let lo = 0;
      let hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (isBetter(best[mid], i)) lo = mid + 1;
        else hi = mid;
      }
      best.splice(lo, 0, i);
    }
  }
  return best.slice(offset, stop).map((i) => slots[i]);
}
