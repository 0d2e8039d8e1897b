// Folding the events of one group into batches, for both batched deliveries:
// `content.batch` (webhook-batches.ts) and `media.batch` (media-batches.ts).
// One batch per workspace and commit, each item (an entry, a file) once,
// named by the most telling of its events; what an item is and which events
// count is the caller's.
import type { DomainEvent, EventType } from '../model/events.ts';

/** What every batched item carries: its most telling change and every event told of it, in order. */
export interface FoldedChange<Kind extends string> {
  change: Kind;
  events: EventType[];
}

/** The folded events of one workspace (and commit) of a group. */
export interface FoldedBatch<Item> {
  workspace: string;
  /** The commit that caused the events, or null when none did. */
  commit: string | null;
  occurredAt: string;
  /** The event types folded in: a batched webhook gets the batch when it subscribes to one of them. */
  types: EventType[];
  changes: Item[];
}

/** How one kind of batch reads events. */
export interface BatchFolding<Kind extends string, Item extends FoldedChange<Kind>> {
  /** The event's kind of change, or undefined for an event this batch leaves out. */
  kindOf(event: DomainEvent): Kind | undefined;
  /** Which kind says more: an item keeps the highest-ranked of its events' kinds. */
  rank: Record<Kind, number>;
  /** What names the item within its batch (an entry's type and id, a file's name). */
  itemKey(event: DomainEvent): string;
  /** The item of the first event told of it. */
  newItem(event: DomainEvent, change: Kind): Item;
}

/** Folds a group's events into one batch per workspace and commit, items in first-told order. */
export function foldBatches<Kind extends string, Item extends FoldedChange<Kind>>(events: readonly DomainEvent[], folding: BatchFolding<Kind, Item>): FoldedBatch<Item>[] {
  const batches = new Map<string, FoldedBatch<Item>>();
  const items = new Map<string, Item>();
  for (const event of events) {
    const change = folding.kindOf(event);
    if (change === undefined) continue;
    const key = `${event.workspace}\n${event.commit ?? ''}`;
    const batch = batches.get(key) ?? { workspace: event.workspace, commit: event.commit ?? null, occurredAt: event.occurredAt, types: [], changes: [] };
    batches.set(key, batch);
    if (!batch.types.includes(event.type)) batch.types.push(event.type);
    const itemKey = `${key}\n${folding.itemKey(event)}`;
    const known = items.get(itemKey);
    if (known === undefined) {
      const item = folding.newItem(event, change);
      items.set(itemKey, item);
      batch.changes.push(item);
    } else {
      known.events.push(event.type);
      if (folding.rank[change] > folding.rank[known.change]) known.change = change;
    }
  }
  return [...batches.values()];
}

/** The JSON body of a batched delivery named `event`: the usual envelope with `data.changes`. */
export function foldedBatchBody(event: string, batch: FoldedBatch<unknown>): string {
  return JSON.stringify({ event, occurred_at: batch.occurredAt, workspace: batch.workspace, commit: batch.commit, data: { changes: batch.changes } });
}
