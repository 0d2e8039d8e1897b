// Domain events: what happened, told after the commit that made it. Listeners
// (search index upkeep, webhooks, the activity log) run after the response
// path and can never fail the write that caused them.
import { publicVisibility, type AnnouncedCheck, type StoredEntry } from './entry.ts';

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
  /**
   * The commit that caused the event: the server's own commit, or the new
   * head when commits arrived from outside (git CLI, push, pull). Absent for
   * events no commit caused (media files restored from a backup,
   * git.conflict, and content.published on a replica, which only announces).
   */
  commit?: string;
  /** Entry events: `{ type, id, slug }`; schema events: `{ type }`; media events: `{ filename }`; `git.conflict`: `{ branch, local, upstream }`. */
  data: Record<string, string>;
  /**
   * Set on the events of one change of a whole workspace, which the activity
   * log tells in one line: the publication events of entries whose files did
   * not change but that left the public API or came back with their
   * workspace, archived or brought back (wholesalePublicationEvents), and
   * every event of a workspace a commit from outside removed (its types and
   * entries deleted, its public entries unpublished). No payload carries it.
   */
  withWorkspace?: WorkspaceMove;
  /**
   * Set on the events of a backup restore (its commit's and the media files
   * it placed), named by the backup: the restore records one activity line
   * of its own with what it restored (restore-activity.ts), the log none of
   * these. No payload carries it.
   */
  fromBackup?: string;
}

/** What happened to a workspace whose entries all left the site or came back together, or that went whole. */
export type WorkspaceMove = 'archived' | 'restored' | 'removed';

/**
 * A workspace archived, brought back or removed, told with the group of the
 * commit that did it even when it told no event (a workspace without public
 * entries, or without types and entries): the activity log writes its one
 * line from it and the events that carry its `withWorkspace`.
 */
export interface WorkspaceChange {
  workspace: string;
  change: WorkspaceMove;
  /** Actor id, when known (as DomainEvent.actor). */
  actor?: string;
}

/** A subscriber to the event bus; its failures are reported, never thrown at the emitter. */
export type EventListener = (event: DomainEvent) => void | Promise<void>;

/**
 * A subscriber to whole groups: the events one change told together (one
 * commit's, or one landing of outside commits), and the workspaces it
 * archived, brought back or removed (possibly with no event).
 */
export type EventGroupListener = (events: readonly DomainEvent[], workspaces: readonly WorkspaceChange[]) => void | Promise<void>;

/** Fans events out to listeners; a listener that throws is reported through `onError`, never to the emitter. */
export class EventBus {
  private readonly listeners: EventListener[] = [];
  private readonly groupListeners: EventGroupListener[] = [];

  constructor(private readonly onError: (error: unknown, event: DomainEvent | undefined) => void) {}

  /** Subscribes `listener` to every later event (services.ts wires them at start). */
  on(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /**
   * Subscribes `listener` to every later group of events, told once per
   * group; webhooks use it to deliver one `content.batch` per commit.
   */
  onGroup(listener: EventGroupListener): void {
    this.groupListeners.push(listener);
  }

  /** Hands the event to each listener in a microtask, so the write that emits it never waits or fails. */
  emit(event: DomainEvent): void {
    this.emitGroup([event]);
  }

  /**
   * Emits the events that one change caused: each to every listener, and the
   * group once to every group listener, with the workspaces it archived,
   * brought back or removed (told to group listeners even without events).
   */
  emitGroup(events: readonly DomainEvent[], workspaces: readonly WorkspaceChange[] = []): void {
    if (events.length === 0 && workspaces.length === 0) return;
    for (const event of events) {
      for (const listener of this.listeners) this.later(() => listener(event), event);
    }
    for (const listener of this.groupListeners) this.later(() => listener(events, workspaces), events[0]);
  }

  private later(run: () => void | Promise<void>, event: DomainEvent | undefined): void {
    queueMicrotask(() => {
      Promise.resolve()
        .then(run)
        .catch((error: unknown) => this.onError(error, event));
    });
  }
}

/**
 * What the publish scheduler knows of announcements (publish-scheduler.ts):
 * whether the going public of a public entry of `workspace` has been told.
 * Writers judge "was public" with it (publicVisibility), so a scheduled entry
 * whose date passed since the scheduler's last look is published by the
 * first write that keeps it public, and by that write only.
 */
export interface Announcements {
  isAnnounced(workspace: string, entry: StoredEntry): boolean;
  /**
   * Told, once a write's commit has landed, of an entry the write kept public
   * (keptPublic): it was public and announced all along, so a scheduled
   * entry whose date the scheduler has not looked past yet (a published
   * entry moved to a date that passed since its last look) is no news.
   */
  keptPublic(workspace: string, entry: StoredEntry): void;
}

/** The AnnouncedCheck of one workspace; every public entry counts as announced without `announcements`. */
export function announcedIn(announcements: Announcements | undefined, workspace: string): AnnouncedCheck | undefined {
  return announcements && ((entry) => announcements.isAnnounced(workspace, entry));
}

/**
 * content.published when a write makes an entry public, content.unpublished
 * when it takes a public one off the site. Public is isPubliclyVisible judged
 * at `now`, the time of the write, as the commit subject and the files'
 * `draft` flag are (docs/operations.md "Publication events"): saving a
 * scheduled entry whose date has passed publishes it, and publishing an
 * entry that is already public only updates it. `announced` tells whether a
 * public `before` was announced (publicVisibility). `before` is undefined
 * for a create or a trash restore (restoring a public entry publishes it),
 * `after` for a delete (deleting a public one unpublishes it).
 */
export function publicationEvents(before: StoredEntry | undefined, after: StoredEntry | undefined, now: number, announced?: AnnouncedCheck): EventType[] {
  const { was, is } = publicVisibility(before, after, now, announced);
  if (is && !was) return ['content.published'];
  if (was && !is) return ['content.unpublished'];
  return [];
}

/**
 * Whether a write keeps an entry public whose going public was told (judged
 * as publicationEvents judges it): such an entry has no news to tell, and the
 * writer passes it to Announcements.keptPublic once its commit has landed.
 */
export function keptPublic(before: StoredEntry, after: StoredEntry, now: number, announced?: AnnouncedCheck): boolean {
  const { was, is } = publicVisibility(before, after, now, announced);
  return was && is;
}

/** An entry event without its workspace: the event name and `{ type, id, slug }`. */
export interface EntryEventDraft {
  type: EventType;
  data: Record<string, string>;
  withWorkspace?: WorkspaceMove;
}

/**
 * The publication events of entries whose files did not change but that
 * leave the public API all together (`leaving`: their workspace archived)
 * or come back to it (their workspace brought back, or new):
 * content.unpublished for each entry that was public and announced, or
 * content.published for each entry public at `now` (publicationEvents, as
 * if each entry were deleted or restored). docs/operations.md "Publication
 * events" says why a webhook hears of each entry.
 */
export function wholesalePublicationEvents(entries: Iterable<StoredEntry>, leaving: boolean, now: number, announced?: AnnouncedCheck): EntryEventDraft[] {
  const events: EntryEventDraft[] = [];
  const withWorkspace: WorkspaceMove = leaving ? 'archived' : 'restored';
  for (const entry of entries) {
    const types = leaving ? publicationEvents(entry, undefined, now, announced) : publicationEvents(undefined, entry, now);
    for (const draft of entryEventDrafts(entry, types)) events.push({ ...draft, withWorkspace });
  }
  return events;
}

/** The events `types` of one entry, each with its `{ type, id, slug }`, and `previous_slug` when `previousSlug` is another slug (a rename). */
export function entryEventDrafts(entry: Pick<StoredEntry, 'type' | 'id' | 'slug'>, types: EventType[], previousSlug?: string): EntryEventDraft[] {
  const data: Record<string, string> = { type: entry.type, id: entry.id, slug: entry.slug };
  if (previousSlug !== undefined && previousSlug !== entry.slug) data.previous_slug = previousSlug;
  return types.map((type) => ({ type, data }));
}
