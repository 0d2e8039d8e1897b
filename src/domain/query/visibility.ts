// Who may see which entries of a TypeIndex, per slot, in dense typed arrays:
// the hot loops of a list query read one byte per entry instead of calling a
// predicate on an object. Two reader classes exist (entry-service.ts): those
// who read the whole collection, and the public, who see published entries
// and scheduled ones whose publish time has passed (isPubliclyVisible).

import type { StoredEntry } from '../model/entry.ts';

/** Which entries a list query may return: every active one, or the publicly visible ones at `now`. */
export type QueryVisibility = { mode: 'all' } | { mode: 'public'; now: number };

/** Slot classes; a class at or above a mode's minimum is visible (scheduled ones also need their time). */
export const SLOT_FREE = 0;
export const SLOT_HIDDEN = 1;
export const SLOT_PUBLIC = 2;
export const SLOT_SCHEDULED = 3;

interface ScheduledWindow {
  /** The count holds for every `now` in [from, until). */
  from: number;
  until: number;
  count: number;
}

/**
 * The visibility class of every slot and the publish time of scheduled ones,
 * with counts kept on every write, so an unfiltered list knows its total
 * without walking the entries. The count of scheduled entries already public
 * is cached for the time window in which no scheduled entry changes sides.
 */
export class VisibilityTable {
  private classes = new Uint8Array(64);
  private publishAt = new Float64Array(64).fill(Number.NaN);
  private activeCount = 0;
  private publicCount = 0;
  private readonly scheduled = new Set<number>();
  private window: ScheduledWindow | undefined;

  /** The class bytes by slot (read-only use; replaced when the table grows). */
  get slotClasses(): Uint8Array {
    return this.classes;
  }

  /** Epoch ms of the publish time of scheduled slots (NaN elsewhere). */
  get publishTimes(): Float64Array {
    return this.publishAt;
  }

  /** Records the entry now in `slot` (after an upsert). */
  set(slot: number, entry: Pick<StoredEntry, 'status' | 'published_at'>): void {
    this.clear(slot);
    this.grow(slot);
    this.activeCount += 1;
    if (entry.status === 'published') {
      this.classes[slot] = SLOT_PUBLIC;
      this.publicCount += 1;
      return;
    }
    const at = entry.status === 'scheduled' && entry.published_at ? Date.parse(entry.published_at) : Number.NaN;
    // An unparsable publish time never passes (isPubliclyVisible compares NaN), so it is hidden for good.
    if (Number.isNaN(at)) {
      this.classes[slot] = SLOT_HIDDEN;
      return;
    }
    this.classes[slot] = SLOT_SCHEDULED;
    this.publishAt[slot] = at;
    this.scheduled.add(slot);
    this.window = undefined;
  }

  /** Frees `slot` (after a remove); a free slot is never visible. */
  clear(slot: number): void {
    if (slot >= this.classes.length) return;
    const current = this.classes[slot];
    if (current === SLOT_FREE) return;
    this.activeCount -= 1;
    if (current === SLOT_PUBLIC) this.publicCount -= 1;
    if (current === SLOT_SCHEDULED) {
      this.scheduled.delete(slot);
      this.window = undefined;
    }
    this.classes[slot] = SLOT_FREE;
    this.publishAt[slot] = Number.NaN;
  }

  /** Whether the entry in `slot` is visible under `visibility`. */
  isVisible(slot: number, visibility: QueryVisibility): boolean {
    const current = slot < this.classes.length ? this.classes[slot] : SLOT_FREE;
    if (visibility.mode === 'all') return current !== SLOT_FREE;
    return current === SLOT_PUBLIC || (current === SLOT_SCHEDULED && this.publishAt[slot] <= visibility.now);
  }

  /** A slot test for `visibility` over the class bytes, for the hot loops of a query. */
  test(visibility: QueryVisibility): (slot: number) => boolean {
    const classes = this.classes;
    const times = this.publishAt;
    if (visibility.mode === 'all') return (slot) => classes[slot] >= SLOT_HIDDEN;
    const { now } = visibility;
    return (slot) => {
      const current = classes[slot];
      return current === SLOT_PUBLIC || (current === SLOT_SCHEDULED && times[slot] <= now);
    };
  }

  /** Sets mask[slot] to 1 for every visible slot below `size` (the mask starts all zero). */
  markVisible(mask: Uint8Array, size: number, visibility: QueryVisibility): void {
    const classes = this.classes;
    const limit = Math.min(size, classes.length);
    if (visibility.mode === 'all') {
      for (let slot = 0; slot < limit; slot += 1) if (classes[slot] !== SLOT_FREE) mask[slot] = 1;
      return;
    }
    const times = this.publishAt;
    const { now } = visibility;
    for (let slot = 0; slot < limit; slot += 1) {
      const current = classes[slot];
      if (current === SLOT_PUBLIC || (current === SLOT_SCHEDULED && times[slot] <= now)) mask[slot] = 1;
    }
  }

  /** How many entries are visible under `visibility`; O(1) except when the scheduled window is passed. */
  count(visibility: QueryVisibility): number {
    if (visibility.mode === 'all') return this.activeCount;
    return this.publicCount + this.windowAt(visibility.now).count;
  }

  /** The first publish time after `now` of a scheduled entry (Infinity when none): when public reads next change without a write. */
  nextPublishAfter(now: number): number {
    return this.windowAt(now).until;
  }

  private windowAt(now: number): ScheduledWindow {
    const cached = this.window;
    if (cached && cached.from <= now && now < cached.until) return cached;
    let from = Number.NEGATIVE_INFINITY;
    let until = Number.POSITIVE_INFINITY;
    let count = 0;
    for (const slot of this.scheduled) {
      const at = this.publishAt[slot];
      if (at <= now) {
        count += 1;
        if (at > from) from = at;
      } else if (at < until) {
        until = at;
      }
    }
    this.window = { from, until, count };
    return this.window;
  }

  private grow(slot: number): void {
    if (slot < this.classes.length) return;
    let size = this.classes.length * 2;
    while (size <= slot) size *= 2;
    const classes = new Uint8Array(size);
    classes.set(this.classes);
    const publishAt = new Float64Array(size).fill(Number.NaN);
    publishAt.set(this.publishAt);
    this.classes = classes;
    this.publishAt = publishAt;
  }
}
