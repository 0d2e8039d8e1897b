// Scheduled publishing: a `scheduled` entry is public once its published_at
// has passed (decided at read time). This timer notices that moment, rewrites
// the entry's files so that their `draft: true` becomes false for the site
// generators that build from the repo (one commit per workspace, on a
// primary), and tells the event bus `content.published` (webhooks, the
// activity log) once per entry. The time of the last announcement is kept in
// the state folder, so entries that came due while the server was down are
// announced at the next start. A workspace whose publish commit failed (git
// busy, a full disk) is tried again from the same time at the next tick.
// A save can publish a scheduled entry itself (a date that has passed is
// public at the time of the write, events.ts): the scheduler hears that
// content.published on the bus and does not announce the entry again.
import type { StateStore } from '../../storage/state-store.ts';
import type { ContentIndex } from '../content/content-index.ts';
import type { StoredEntry } from '../model/entry.ts';
import type { DomainEvent, EventBus } from '../model/events.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import type { ContentWriter } from '../content/content-writer.ts';
import type { ContentType } from '../model/content-type.ts';
import { entryFileWrites } from '../model/entry-to-files.ts';

/** What the scheduler needs; built in services.ts. */
export interface PublishSchedulerOptions {
  content: Pick<ContentIndex, 'types'>;
  /** Rewrites the files of entries that came due; absent on a replica, which takes the primary's commit. */
  writer?: Pick<ContentWriter, 'transaction'>;
  workspaces: Pick<WorkspaceService, 'list'>;
  events: EventBus;
  state: Pick<StateStore, 'read' | 'write'>;
  intervalMs: number;
  onError: (error: unknown) => void;
  now?: () => number;
}

interface SchedulerState {
  last_tick: string;
}

const STATE_NAME = 'scheduler';

/** A scheduled entry that came due, with its type (for rewriting its files). */
interface Due {
  entry: StoredEntry;
  type: ContentType;
}

/** Announces scheduled entries as they come due. */
export class PublishScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  // Workspaces whose last publish failed, and the time their next try looks back to.
  private readonly retrySince = new Map<string, number>();
  // Entries whose going public someone else announced (a save, outside commits), by workspace and id, with when.
  private readonly announcedElsewhere = new Map<string, number>();

  private constructor(
    private readonly options: PublishSchedulerOptions,
    private lastTick: number,
  ) {}

  /** Reads the last announcement time (now on a first start) and starts the timer. Throws what the state store throws. */
  static async start(options: PublishSchedulerOptions): Promise<PublishScheduler> {
    const now = options.now ?? Date.now;
    const saved = await options.state.read<SchedulerState | null>(STATE_NAME, null);
    const last = saved ? Date.parse(saved.last_tick) : Number.NaN;
    const scheduler = new PublishScheduler(options, Number.isNaN(last) ? now() : Math.min(last, now()));
    options.events.on((event) => scheduler.hear(event));
    scheduler.timer = setInterval(() => {
      scheduler.running = scheduler.tick().catch(options.onError);
    }, options.intervalMs);
    scheduler.timer.unref();
    return scheduler;
  }

  /**
   * Publishes every scheduled entry whose published_at lies after the
   * previous tick and not after now (its files with `draft: false`, then
   * `content.published`), but for those a save announced already; returns
   * how many. Throws the first failure of a
   * workspace's commit (the other workspaces still go ahead; the failed
   * one's entries are tried again at the next tick) or of the state store.
   */
  async tick(): Promise<number> {
    const now = (this.options.now ?? Date.now)();
    let announced = 0;
    let failure: unknown;
    for (const { slug: workspace } of this.options.workspaces.list()) {
      const since = this.retrySince.get(workspace) ?? this.lastTick;
      const due: Due[] = [];
      for (const { type, index } of this.options.content.types(workspace)) {
        for (const entry of index.all()) if (cameDue(entry, since, now)) due.push({ entry, type });
      }
      try {
        if (due.length > 0) announced += await this.publish(workspace, due, now);
        this.retrySince.delete(workspace);
      } catch (error) {
        this.retrySince.set(workspace, since);
        failure ??= error;
      }
    }
    this.lastTick = now;
    this.forgetAnnouncedBefore(Math.min(now, ...this.retrySince.values()));
    if (announced > 0 || failure !== undefined) await this.saveTick();
    if (failure !== undefined) throw failure;
    return announced;
  }

  // A save that published an entry, or took it off the site again (so that its
  // new date is news once more), as told on the bus; the scheduler's own
  // announcements are heard too, harmlessly.
  private hear(event: DomainEvent): void {
    if (event.type !== 'content.published' && event.type !== 'content.unpublished') return;
    const key = announcedKey(event.workspace, event.data.id);
    if (event.type === 'content.published') this.announcedElsewhere.set(key, Date.parse(event.occurredAt));
    else this.announcedElsewhere.delete(key);
  }

  // An entry announced at some time was public then, so its date is no later:
  // once every workspace looks back no further, the mark can go.
  private forgetAnnouncedBefore(since: number): void {
    for (const [key, at] of this.announcedElsewhere) if (at <= since) this.announcedElsewhere.delete(key);
  }

  // What a restart looks back to: the last tick, or a failed workspace's earlier time.
  private async saveTick(): Promise<void> {
    const tick = Math.min(this.lastTick, ...this.retrySince.values());
    await this.options.state.write<SchedulerState>(STATE_NAME, { last_tick: new Date(tick).toISOString() });
  }

  // On a primary the events go with the commit that rewrites the files, so
  // they carry its id (and a batched webhook gets one content.batch). The
  // entries are unchanged in memory: only `draft`, derived from the time of
  // writing, differs in the files. A replica takes the primary's commit and
  // only tells its own listeners. Entries announced elsewhere are left out
  // under the write lock, after any save that was under way has told its
  // events; that save wrote their files with `draft: false` already.
  // Returns how many entries it announced.
  private async publish(workspace: string, found: Due[], now: number): Promise<number> {
    const { writer } = this.options;
    if (!writer) {
      const due = this.notAnnounced(workspace, found);
      for (const event of publishedEvents(workspace, due)) this.options.events.emit({ ...event, occurredAt: new Date(now).toISOString() });
      return due.length;
    }
    return writer.transaction(async (tx) => {
      const due = this.notAnnounced(workspace, found);
      if (due.length === 0) return 0;
      const changes = due.flatMap(({ entry, type }) => entryFileWrites(workspace, type, entry, now));
      const names = due.map(({ entry }) => `${entry.type}/${entry.slug}`);
      const message = names.length === 1 ? `Publish ${names[0]}` : `Publish ${names.length} scheduled entries`;
      const events = publishedEvents(workspace, due);
      await tx.commit({ by: 'system', message, changes, trailers: { Workspace: workspace, Entries: due.map(({ entry }) => entry.id).join(' ') }, events });
      return due.length;
    });
  }

  private notAnnounced(workspace: string, found: Due[]): Due[] {
    return found.filter(({ entry }) => !this.announcedElsewhere.has(announcedKey(workspace, entry.id)));
  }

  /** Stops the timer and saves the last tick. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.saveTick();
  }
}

function cameDue(entry: StoredEntry, since: number, now: number): boolean {
  if (entry.status !== 'scheduled' || !entry.published_at) return false;
  const at = Date.parse(entry.published_at);
  return at > since && at <= now;
}

function announcedKey(workspace: string, id: string): string {
  return `${workspace}/${id}`;
}

function publishedEvents(workspace: string, due: Due[]) {
  return due.map(({ entry }) => ({ type: 'content.published' as const, workspace, data: { type: entry.type, id: entry.id, slug: entry.slug } }));
}
