// The entries an index changed since its base (path → entry, null when
// removed), immutable and cheap to extend: every commit adds its few edits
// to the delta, which holds up to 1,024 paths in a burst of writes, and the
// index before the commit must stay valid (a commit that fails after the
// edit keeps it). Copying the whole map per commit cost ~130 µs at that
// size. Instead each edit() adds a small layer on top of the delta it came
// from, and a layer absorbs the older layers no larger than itself (as the
// digits of a binary counter carry): each entry is copied about log₂(n)
// times in all, and a lookup visits at most about log₂(n) + 1 layers.
import type { IndexEdit } from './index-file.ts';

/** Changed index entries: path → entry bytes, or null when the path was removed. */
export class IndexDelta {
  static readonly EMPTY = new IndexDelta(new Map(), undefined, 0);

  // The flattened view, built once when asked for (an index write).
  private flat: ReadonlyMap<string, Buffer | null> | undefined;

  private constructor(
    // This layer's entries; they hide the same paths in older layers.
    private readonly layer: ReadonlyMap<string, Buffer | null>,
    private readonly older: IndexDelta | undefined,
    /** How many paths the delta holds (each counted once, whatever the layers). */
    readonly size: number,
  ) {}

  /** The entry for `path`: its bytes, null when removed, undefined when the delta does not touch it. */
  get(path: string): Buffer | null | undefined {
    for (let delta: IndexDelta | undefined = this; delta !== undefined; delta = delta.older) {
      const entry = delta.layer.get(path);
      if (entry !== undefined) return entry;
    }
    return undefined;
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  /** This delta with `edits` (the last one for a path wins); this one is left as it is. */
  with(edits: IndexEdit[]): IndexDelta {
    if (edits.length === 0) return this;
    let layer = new Map<string, Buffer | null>();
    let size = this.size;
    for (const { path, entry } of edits) {
      if (!layer.has(path) && !this.has(path)) size += 1;
      layer.set(path, entry);
    }
    let older: IndexDelta | undefined = this.size === 0 ? undefined : this;
    while (older !== undefined && older.layer.size <= layer.size) {
      // The older layer's entries first, so this layer's hide them.
      const merged = new Map(older.layer);
      for (const [path, entry] of layer) merged.set(path, entry);
      layer = merged;
      older = older.older;
    }
    return new IndexDelta(layer, older, size);
  }

  /** Every path the delta holds with its newest entry, one each; built once per delta (at an index write). */
  entries(): ReadonlyMap<string, Buffer | null> {
    if (this.flat !== undefined) return this.flat;
    if (this.older === undefined) return (this.flat = this.layer);
    const layers: ReadonlyMap<string, Buffer | null>[] = [];
    for (let delta: IndexDelta | undefined = this; delta !== undefined; delta = delta.older) layers.push(delta.layer);
    const flat = new Map<string, Buffer | null>();
    for (const layer of layers.reverse()) for (const [path, entry] of layer) flat.set(path, entry);
    this.flat = flat;
    return flat;
  }
}
