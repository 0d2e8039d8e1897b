// Batched delivery (API.md "For site generators"): a webhook with `batch`
// gets one `content.batch` per commit and workspace, listing every entry the
// commit changed, instead of one delivery per entry event. A site build wants
// one trigger per commit, and a bulk write or a git commit may touch
// thousands of entries. Each entry is named by what happened to it (its
// events, and the most telling of them as `change`; docs/operations.md).
// Events no commit caused (DomainEvent.commit) are not batched: they have
// nothing to be grouped with. Media events have their own batch, grouped by
// the change that told them (media-batches.ts).
import { AppError } from '../../errors/app-error.ts';
import type { DomainEvent, EventType } from '../model/events.ts';
import { foldBatches, foldedBatchBody, type FoldedBatch } from './batch-folding.ts';

/** The event name of a batched delivery (X-Service-Event and the body's `event`). */
export const BATCH_EVENT = 'content.batch';

/** What happened to an entry in a batch: the action of its event (`content.restored` → `restored`). */
export type BatchedChangeKind = 'created' | 'updated' | 'published' | 'unpublished' | 'deleted' | 'restored' | 'purged';

/** One entry in `data.changes` of a `content.batch`. */
export interface BatchedChange {
  type: string;
  id: string;
  slug: string;
  /** The most telling of `events` (KIND_RANK). */
  change: BatchedChangeKind;
  /** Every event the commit told of the entry, in order (`content.deleted`, `content.unpublished`). */
  events: EventType[];
  /** The slug before a rename, when the commit's events name it (commits made with git). */
  previous_slug?: string;
}

/** The entry events of one commit in one workspace, folded for batched webhooks (`commit` is never null). */
export type CommitBatch = FoldedBatch<BatchedChange>;

/** Whether a batched webhook gets this event inside a content.batch rather than on its own. */
export function isBatched(event: DomainEvent): boolean {
  return event.commit !== undefined && event.type.startsWith('content.') && event.data.id !== undefined;
}

// An entry with several events in one commit (a delete that unpublished, a
// create that published) is named by the one that says most: the entry came
// or went (created, restored, deleted, purged) over whether it went on or
// off the site (published, unpublished) over an edit (updated).
const KIND_RANK: Record<BatchedChangeKind, number> = { updated: 0, published: 1, unpublished: 1, created: 2, restored: 2, deleted: 2, purged: 2 };

/** The entry events a batch folds in: every `content.*` event. */
type BatchedEventType = Extract<EventType, `content.${string}`>;

// Each batched event's kind is the action of its name, which the mapped
// type checks: an event added to EVENT_TYPES without its kind, or a kind
// that is not its name's action, does not compile.
const KIND_OF: { [Type in BatchedEventType]: Type extends `content.${infer Kind extends BatchedChangeKind}` ? Kind : never } = {
  'content.created': 'created',
  'content.updated': 'updated',
  'content.published': 'published',
  'content.unpublished': 'unpublished',
  'content.deleted': 'deleted',
  'content.restored': 'restored',
  'content.purged': 'purged',
};

function isBatchedType(type: EventType): type is BatchedEventType {
  return Object.hasOwn(KIND_OF, type);
}

// isBatched() lets only content.* events in, which KIND_OF covers; anything
// else here is a fault of the server, not of the event.
function kindOf(type: EventType): BatchedChangeKind {
  if (!isBatchedType(type)) throw new AppError('internal_error', `The event "${type}" has no batched change kind.`);
  return KIND_OF[type];
}

/** Folds the batched events of one group (one commit's, or one landing's) into one batch per workspace, entries in first-told order. */
export function commitBatches(events: readonly DomainEvent[]): CommitBatch[] {
  return foldBatches(events, {
    kindOf: (event) => (isBatched(event) ? kindOf(event.type) : undefined),
    rank: KIND_RANK,
    itemKey: (event) => `${event.data.type}\n${event.data.id}`,
    newItem: (event, change) => {
      const { type, id, slug, previous_slug } = event.data;
      return { type, id, slug, change, events: [event.type], ...(previous_slug === undefined ? {} : { previous_slug }) };
    },
  });
}

/** The JSON body of a `content.batch` delivery: the usual envelope with `data.changes`. */
export function batchBody(batch: CommitBatch): string {
  return foldedBatchBody(BATCH_EVENT, batch);
}
