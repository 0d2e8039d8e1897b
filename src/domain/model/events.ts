// Domain events: what happened, told after the commit that made it. Listeners
// (search index upkeep, webhooks, the activity log) run after the response
// path and can never fail the write that caused them.
import type { StoredEntry } from './entry.ts';

/** The event names API.md lists (`resource.action`); webhooks subscribe to these. */
export const EVENT_TYPES = [
  'content.created', 'content.updated', 'content.published', 'content.unpublished', 'content.deleted',
  'content.restored', 'content.purged', 'schema.created', 'schema.updated', 'schema.deleted',
  'media.uploaded', 'media.updated', 'media.deleted',
  'git.conflict',
] as const;

/** The workspace of events that concern the whole content repo rather than one workspace (`git.conflict`). */
export const EVERY_WORKSPACE = '*';

/** One of EVENT_TYPES. */
export type EventType = (typeof EVENT_TYPES)[number];

/** What services emit after a commit: the change, where and when, and ids of what changed. */
export interface DomainEvent {
  type: EventType;
  workspace: string;
  /** ISO time of the change. */
  occurredAt: string;
  /** Actor id (user id or `token:{id}`), when known. */
  actor?: string;
  /** Entry events: `{ type, id, slug }`; schema events: `{ type }`; media events: `{ filename }`; `git.conflict`: `{ branch, local, upstream }`. */
  data: Record<string, string>;
}

/** A subscriber to the event bus; its failures are reported, never thrown at the emitter. */
export type EventListener = (event: DomainEvent) => void | Promise<void>;

/** Fans events out to listeners; a listener that throws is reported through `onError`, never to the emitter. */
export class EventBus {
  private readonly listeners: EventListener[] = [];

  constructor(private readonly onError: (error: unknown, event: DomainEvent) => void) {}

  /** Subscribes `listener` to every later event (services.ts wires them at start). */
  on(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /** Hands the event to each listener in a microtask, so the write that emits it never waits or fails. */
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

/** content.published when an entry becomes published, content.unpublished when it leaves published. */
export function statusEvents(before: StoredEntry | undefined, after: StoredEntry): EventType[] {
  const was = before?.status === 'published';
  const is = after.status === 'published';
  if (is && !was) return ['content.published'];
  if (was && !is) return ['content.unpublished'];
  return [];
}
