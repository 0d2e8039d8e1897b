// A small least-recently-used cache bounded by a total weight (bytes, entries,
// …) rather than a count, so a few huge values cannot crowd out memory.

// A held value in the recency list, oldest at the head.
interface Node<K, V> {
  key: K;
  value: V;
  weight: number;
  older: Node<K, V> | undefined;
  newer: Node<K, V> | undefined;
}

/**
 * LRU cache whose capacity is a total weight computed per value. Use it for
 * immutable data keyed by content hash (git objects), where a stale hit is
 * impossible and only memory needs bounding. A Map finds a value and a
 * doubly linked list keeps the order of use: a hit relinks one node, where
 * moving its key to the end of the Map (delete, then set) costs a hash
 * table's tombstone and, every so often, its rehash.
 */
export class LruCache<K, V> {
  private readonly items = new Map<K, Node<K, V>>();
  private oldest: Node<K, V> | undefined;
  private newest: Node<K, V> | undefined;
  private total = 0;

  /** `onEvict` hears of every value dropped to make room (not of delete() or clear()), e.g. to delete a file it stands for. */
  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
    private readonly onEvict: (key: K, value: V) => void = () => undefined,
  ) {}

  /** The total weight held. */
  get weight(): number {
    return this.total;
  }

  /** The number of values held. */
  get size(): number {
    return this.items.size;
  }

  /** Returns the cached value and marks it most recently used. */
  get(key: K): V | undefined {
    const node = this.items.get(key);
    if (node === undefined) return undefined;
    if (node !== this.newest) {
      this.unlink(node);
      this.append(node);
    }
    return node.value;
  }

  /** Stores a value, evicting the least recently used ones past the weight limit. */
  set(key: K, value: V): void {
    const weight = this.weigh(value);
    this.delete(key);
    if (weight > this.maxWeight) {
      this.onEvict(key, value);
      return;
    }
    const node: Node<K, V> = { key, value, weight, older: undefined, newer: undefined };
    this.items.set(key, node);
    this.append(node);
    this.total += weight;
    while (this.total > this.maxWeight && this.oldest !== undefined) {
      const dropped = this.oldest;
      this.remove(dropped);
      this.onEvict(dropped.key, dropped.value);
    }
  }

  /** Drops one value; returns whether it was there. */
  delete(key: K): boolean {
    const node = this.items.get(key);
    if (node === undefined) return false;
    this.remove(node);
    return true;
  }

  /** The keys held, least recently used first. */
  keys(): K[] {
    const keys: K[] = [];
    for (let node = this.oldest; node !== undefined; node = node.newer) keys.push(node.key);
    return keys;
  }

  /** Drops every value. */
  clear(): void {
    this.items.clear();
    this.oldest = undefined;
    this.newest = undefined;
    this.total = 0;
  }

  private remove(node: Node<K, V>): void {
    this.items.delete(node.key);
    this.unlink(node);
    this.total -= node.weight;
  }

  private unlink(node: Node<K, V>): void {
    if (node.older === undefined) this.oldest = node.newer;
    else node.older.newer = node.newer;
    if (node.newer === undefined) this.newest = node.older;
    else node.newer.older = node.older;
    node.older = undefined;
    node.newer = undefined;
  }

  private append(node: Node<K, V>): void {
    node.older = this.newest;
    if (this.newest === undefined) this.oldest = node;
    else this.newest.newer = node;
    this.newest = node;
  }
}
