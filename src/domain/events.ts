// Domain events: what happened, told after the commit that made it. Listeners
// (search index upkeep, webhooks, the activity log) run after the response
// path and can never fail the write that caused them.

export const EVENT_TYPES = [
  'content.created', 'content.updated', 'content.published', 'content.unpublished', 'content.deleted',
  'content.restored', 'content.purged', 'schema.created', 'schema.updated', 'schema.deleted',
  'media.uploaded', 'media.updated', 'media.deleted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface DomainEvent {
  type: EventType;
  workspace: string;
  /** ISO time of the change. */
  occurredAt: string;
  /** Actor id (user id or `token:{id}`), when known. */
  actor?: string;
  /** Entry events: `{ type, id, slug }`; schema events: `{ type }`; media events: `{ filename }`. */
  data: Record<string, string>;
}

export type EventListener = (event: DomainEvent) => void | Promise<void>;

/** Fans events out to listeners; a listener that throws is reported through `onError`, never to the emitter. */
export class EventBus {
  private readonly listeners: EventListener[] = [];

  constructor(private readonly onError: (error: unknown, event: DomainEvent) => void) {}

  on(listener: EventListener): void {
    this.listeners.push(listener);
  }

  emit(event: DomainEvent): void {
    for (const listener of this.listeners) {
      queueMicrotask(() => {
        Promise.resolve()
          .then(() => listener(event))
          .catch((error: unknown) => this.onError(error, event));
      });
    }
  }
}
