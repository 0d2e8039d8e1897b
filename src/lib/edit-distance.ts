// How far apart two short words are, for telling a misspelt key from an
// unrelated one ("did you mean …?"). Quadratic in the lengths: for keys and
// names, not for texts.

/**
 * The number of single letters added, removed, changed, or of two
 * neighbours swapped, that turn `a` into `b` (optimal string alignment
 * distance, so `lable` is one from `label`). Case counts: callers that
 * ignore it lowercase first.
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the table: the one before last (for swaps), the last, and the one being filled.
  let beforeLast: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, column) => column);
  for (let row = 1; row <= a.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= b.length; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(last[column] + 1, current[column - 1] + 1, last[column - 1] + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) best = Math.min(best, beforeLast[column - 2] + 1);
      current.push(best);
    }
    beforeLast = last;
    last = current;
  }
  return last[b.length];
}

/** The candidate nearest to `word` within `maxDistance` letters, case ignored (the first of equally near ones), or undefined. */
export function nearestWord(word: string, candidates: readonly string[], maxDistance: number): string | undefined {
  let nearest: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= maxDistance && (!nearest || distance < nearest.distance)) nearest = { candidate, distance };
  }
  return nearest?.candidate;
}
