// Cutting one page out of a pre-sorted order when the number of matching
// entries is already known: the walk stops as soon as the page is full, and
// starts from the end of the order when the page lies nearer to the end, so a
// request never visits more than half of the order to find its page.

/**
 * The slots at matching positions [offset, end) of `ordered`, where exactly
 * `total` slots of `ordered` satisfy `isIn`; in order.
 */
export function pageWindow(ordered: readonly number[], isIn: (slot: number) => boolean, total: number, offset: number, end: number): number[] {
  const stop = Math.min(end, total);
  const page: number[] = [];
  if (offset >= stop) return page;
  if (offset <= total - stop) {
    let position = 0;
    for (let i = 0; i < ordered.length && position < stop; i += 1) {
      const slot = ordered[i];
      if (!isIn(slot)) continue;
      if (position >= offset) page.push(slot);
      position += 1;
    }
    return page;
  }
  let position = total - 1;
  for (let i = ordered.length - 1; i >= 0 && position >= offset; i -= 1) {
    const slot = ordered[i];
    if (!isIn(slot)) continue;
    if (position < stop) page.push(slot);
    position -= 1;
  }
  return page.reverse();
}
