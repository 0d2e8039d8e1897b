// Batched delivery of media files, the mirror of content.batch
// (webhook-batches.ts): a webhook with `batch` gets the media events of one
// change (an upload of several files, a delete, a category renamed, the
// files a backup restore places) as one `media.batch` per workspace listing
// every file, instead of one delivery per file. The change is the group the
// events were told in (EventBus.emitGroup), so media events no commit caused
// (the binaries a restore places after its commit) are batched too.
import type { DomainEvent, EventType } from '../model/events.ts';
import { foldBatches, foldedBatchBody, type FoldedBatch } from './batch-folding.ts';

/** The event name of a batched delivery of media files (X-Service-Event and the body's `event`). */
export const MEDIA_BATCH_EVENT = 'media.batch';

/** What happened to a file in a batch: the action of its event (`media.uploaded` → `uploaded`). */
export type MediaChangeKind = 'uploaded' | 'updated' | 'deleted';

/** One file in `data.changes` of a `media.batch`. */
export interface BatchedMediaChange {
  filename: string;
  /** The most telling of `events`: the file came or went over an edit. */
  change: MediaChangeKind;
  /** Every event the change told of the file, in order. */
  events: EventType[];
  /** The name before a rename. */
  previous_filename?: string;
}

/** The media events of one change in one workspace, folded for batched webhooks; `commit` is null for a restore's placed binaries. */
export type MediaBatch = FoldedBatch<BatchedMediaChange>;

type MediaEventType = Extract<EventType, `media.${string}`>;

// The mapped type checks each kind against its event's name, as KIND_OF of webhook-batches.ts does.
const KIND_OF: { [Type in MediaEventType]: Type extends `media.${infer Kind extends MediaChangeKind}` ? Kind : never } = {
  'media.uploaded': 'uploaded',
  'media.updated': 'updated',
  'media.deleted': 'deleted',
};
const KIND_RANK: Record<MediaChangeKind, number> = { updated: 0, uploaded: 1, deleted: 1 };

/** Whether a batched webhook gets an event of this type inside a media.batch rather than on its own: every media event. */
export function isMediaType(type: EventType): type is MediaEventType {
  return Object.hasOwn(KIND_OF, type);
}

/** Folds the media events of one group into one batch per workspace (and commit), files in first-told order. */
export function mediaBatches(events: readonly DomainEvent[]): MediaBatch[] {
  return foldBatches(events, {
    kindOf: (event) => (isMediaType(event.type) ? KIND_OF[event.type] : undefined),
    rank: KIND_RANK,
    itemKey: (event) => event.data.filename,
    newItem: (event, change) => {
      const { filename, previous_filename } = event.data;
      return { filename, change, events: [event.type], ...(previous_filename === undefined ? {} : { previous_filename }) };
    },
  });
}

/** The JSON body of a `media.batch` delivery: the usual envelope with `data.changes`. */
export function mediaBatchBody(batch: MediaBatch): string {
  return foldedBatchBody(MEDIA_BATCH_EVENT, batch);
}
