// A small least-recently-used cache bounded by a total weight (bytes, entries,
// …) rather than a count, so a few huge values cannot crowd out memory.

/**
 * Map-backed LRU cache whose capacity is a total weight computed per value.
 * Use it for immutable data keyed by content hash (git objects), where a
 * stale hit is impossible and only memory needs bounding.
 */
export class LruCache<K, V> {
  private readonly items = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  /** Returns the cached value and marks it most recently used. */
  get(key: K): V | undefined {
    const item = this.items.get(key);
    if (item === undefined) return undefined;
    this.items.delete(key);
    this.items.set(key, item);
    return item.value;
  }

  /** Stores a value, evicting the least recently used ones past the weight limit. */
  set(key: K, value: V): void {
    const weight = this.weigh(value);
    const previous = this.items.get(key);
    if (previous !== undefined) {
      this.total -= previous.weight;
      this.items.delete(key);
    }
    if (weight > this.maxWeight) return;
    this.items.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, item] of this.items) {
      if (this.total <= this.maxWeight) break;
      this.items.delete(oldest);
      this.total -= item.weight;
    }
  }

  /** Drops one value, if present. */
  delete(key: K): void {
    const item = this.items.get(key);
    if (item === undefined) return;
    this.items.delete(key);
    this.total -= item.weight;
  }

  /** Drops every value. */
  clear(): void {
    this.items.clear();
    this.total = 0;
  }
}
