// Grouping without copying: an array per key, appended to in place (spreading
// the group into a new array for every item is quadratic for one big group,
// such as a commit of 100,000 files in one workspace).

/** The items by `keyOf(item)`, in their order; items whose key is undefined are left out. */
export function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
