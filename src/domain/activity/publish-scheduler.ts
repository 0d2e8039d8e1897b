// Scheduled publishing: a `scheduled` entry is public once its published_at
// has passed (decided at read time). This timer notices that moment, rewrites
// the entry's files so that their `draft: true` becomes false for the site
// generators that build from the repo (one commit per workspace, on a
// primary), and tells the event bus `content.published` (webhooks, the
// activity log) once per entry. The time of the last announcement is kept in
// the state folder, so entries that came due while the server was down are
// announced at the next start. A workspace whose publish commit failed (git
// busy, a full disk) is tried again from the same time at the next tick.
// A write can announce a scheduled entry itself: a save with a date that has
// passed, a save of one that came due since the last look (it asks
// isAnnounced), a commit from outside. The scheduler hears that
// content.published on the bus, marks the entry, and does not announce it
// again; the marks of scheduled entries are saved with the last tick, so a
// restart does not announce them twice either. An entry a commit from
// outside announced keeps the files it was pushed with, perhaps a stale
// `draft: true`, and so does one that came due while its workspace was
// archived (the ticks pass archived workspaces by; bringing one back
// announces it): the next tick rewrites those as it writes its own. Its own
// publish commits carry the tick's time (a trailer), so a start after a kill
// between such a commit and the save of the last tick finds them in git and
// does not announce their entries again.
import type { StateStore } from '../../storage/state-store.ts';
import type { ContentIndex } from '../content/content-index.ts';
import { isPubliclyVisible, type StoredEntry } from '../model/entry.ts';
import type { Announcements, DomainEvent, EventBus } from '../model/events.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import type { ContentFiles, ContentReader, ContentWriter } from '../content/content-writer.ts';
import type { ContentType } from '../model/content-type.ts';
import { entryFileWrites } from '../model/entry-to-files.ts';
import { parseFrontMatter } from '../model/front-matter.ts';

/** What the scheduler needs; built in services.ts. */
export interface PublishSchedulerOptions {
  content: Pick<ContentIndex, 'types' | 'findType'>;
  /** Rewrites the files of entries that came due; absent on a replica, which takes the primary's commit. */
  writer?: Pick<ContentWriter, 'transaction'>;
  /** The repo at HEAD, to find files a commit from outside left as they were pushed (with `writer`). */
  files?: Pick<ContentFiles, 'readFiles'>;
  /** The repo's history, to find this scheduler's publish commits after the saved last tick at start (with `writer`). */
  history?: Pick<ContentReader, 'head' | 'commitInfo'>;
  workspaces: Pick<WorkspaceService, 'list'>;
  events: EventBus;
  state: Pick<StateStore, 'read' | 'write'>;
  intervalMs: number;
  onError: (error: unknown) => void;
  now?: () => number;
}

interface SchedulerState {
  last_tick: string;
  /** Scheduled entries a write announced after last_tick (absent when none). */
  announced?: AnnouncedMark[];
}

/** An entry whose going public someone else announced (a save, a commit from outside), and when. */
interface AnnouncedMark {
  workspace: string;
  type: string;
  id: string;
  at: string;
}

const STATE_NAME = 'scheduler';
/** The trailer of a publish commit with the time of the tick that wrote it: its entries came due by then. */
const TICK_TRAILER = 'Scheduler-Tick';
// How far back from HEAD a start looks for its own publish commits at most (the walk normally ends at the first commit older than the last tick).
const MAX_RECOVERY_COMMITS = 1000;
// How far the last tick may move past the saved one before an idle tick saves it:
// a start after a kill looks back (and walks history) about this far, and an
// idle server writes the file (temp file, fsync, rename) at most this often
// rather than at every tick (docs/editorial.md "Scheduled publishing").
const PROGRESS_SAVE_MS = 60_000;

/** An AnnouncedMark in memory; `own` when this scheduler announced the entry (its files are as it writes them). */
interface Mark {
  workspace: string;
  type: string;
  id: string;
  at: number;
  own?: boolean;
}

/** A scheduled entry that came due, with its type (for rewriting its files). */
interface Due {
  entry: StoredEntry;
  type: ContentType;
}

/** Announces scheduled entries as they come due. */
export class PublishScheduler implements Announcements {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private ticking = false;
  // Workspaces whose last publish failed, and the time their next try looks back to.
  private readonly retrySince = new Map<string, number>();
  // Entries whose going public is announced, by workspace and id: by a write, or by this scheduler (`own`).
  private readonly announced = new Map<string, Mark>();
  private saveQueued = false;
  // The last tick the state file holds (the start's when nothing was saved since).
  private savedTick: number;

  private constructor(
    private readonly options: PublishSchedulerOptions,
    private lastTick: number,
  ) {
    this.savedTick = lastTick;
  }

  // The timer's tick. One that outlasts the interval (a slow publish commit
  // or state write) is not joined by another, so stop() waits for the only
  // one there is.
  private tickUnlessTicking(): void {
    if (this.ticking) return;
    this.ticking = true;
    this.running = this.tick()
      .catch(this.options.onError)
      .finally(() => {
        this.ticking = false;
      });
  }

  /** Reads the last announcement time (now on a first start) and the saved marks, and starts the timer. Throws what the state store throws. */
  static async start(options: PublishSchedulerOptions): Promise<PublishScheduler> {
    const now = options.now ?? Date.now;
    const saved = await options.state.read<SchedulerState | null>(STATE_NAME, null);
    const last = saved ? Date.parse(saved.last_tick) : Number.NaN;
    const scheduler = new PublishScheduler(options, Number.isNaN(last) ? now() : Math.min(last, now()));
    for (const { workspace, type, id, at } of saved?.announced ?? []) scheduler.announced.set(announcedKey(workspace, id), { workspace, type, id, at: Date.parse(at) });
    // Without it (history unreadable), entries of such a commit may be announced twice, as before.
    if (saved && options.history) await scheduler.recoverOwnPublishes(options.history).catch(options.onError);
    options.events.on((event) => scheduler.hear(event));
    scheduler.timer = setInterval(() => scheduler.tickUnlessTicking(), options.intervalMs);
    scheduler.timer.unref();
    return scheduler;
  }

  // A kill between a publish commit and the save of its tick leaves the
  // commit on the branch and an older last tick: its entries would come due
  // again. Each such commit (by the system, with a tick time after the saved
  // one) marks its entries that are still scheduled with a date no later
  // than that time: their going public was told then, or by a write since
  // (one that took the entry off the site and back, which announces it; a
  // later date is left to come due). The walk follows first parents from
  // HEAD and ends at the first commit of the server's own (an `Actor`
  // trailer) written before the saved tick; commits from outside may carry
  // any date, so theirs never end it.
  private async recoverOwnPublishes(history: Pick<ContentReader, 'head' | 'commitInfo'>): Promise<void> {
    const since = this.lastTick;
    let oid: string | undefined = await history.head();
    for (let seen = 0; oid !== undefined && seen < MAX_RECOVERY_COMMITS; seen += 1) {
      const commit = await history.commitInfo(oid);
      const { Actor: actor, Workspace: workspace, Entries: ids } = commit.trailers;
      if (actor !== undefined && Date.parse(commit.timestamp) < Math.floor(since / 1000) * 1000) return;
      const tick = Date.parse(commit.trailers[TICK_TRAILER] ?? '');
      if (actor === 'system' && tick > since && workspace && ids) this.markRecovered(workspace, ids.split(' '), tick);
      oid = commit.parents[0];
    }
  }

  private markRecovered(workspace: string, ids: string[], tick: number): void {
    for (const id of ids) {
      const key = announcedKey(workspace, id);
      if (this.announced.has(key)) continue;
      for (const { index } of this.options.content.types(workspace)) {
        const entry = index.get(id);
        if (entry?.status !== 'scheduled' || !entry.published_at || Date.parse(entry.published_at) > tick) continue;
        this.announced.set(key, { workspace, type: entry.type, id, at: tick, own: true });
      }
    }
  }

  /**
   * Whether the going public of a public entry has been told: always but for
   * a scheduled entry whose date lies after the time this scheduler looks
   * back to next, and that no write announced (Announcements, events.ts).
   */
  isAnnounced(workspace: string, entry: StoredEntry): boolean {
    if (entry.status !== 'scheduled' || !entry.published_at) return true;
    return Date.parse(entry.published_at) <= this.lookBackTo(workspace) || this.announced.has(announcedKey(workspace, entry.id));
  }

  /**
   * Marks a scheduled entry a write kept public (public and announced before
   * it, public after) when its date lies after the time this scheduler looks
   * back to next: it was announced all along, so its date is no news
   * (Announcements, events.ts). Saved at once, as the marks heard on the bus.
   */
  keptPublic(workspace: string, entry: StoredEntry): void {
    if (this.isAnnounced(workspace, entry)) return;
    this.announced.set(announcedKey(workspace, entry.id), { workspace, type: entry.type, id: entry.id, at: (this.options.now ?? Date.now)() });
    this.saveSoon();
  }

  /**
   * Publishes every scheduled entry whose published_at lies after the
   * previous tick and not after now (its files with `draft: false`, then
   * `content.published`), but for those a write announced already; rewrites
   * without an event the files of entries a write announced that still say
   * `draft: true` (a commit from outside). Returns how many it announced.
   * Saves the last tick when something changed, and on idle ticks once it
   * is PROGRESS_SAVE_MS past the saved one.
   * Throws the first failure of a
   * workspace's commit (the other workspaces still go ahead; the failed
   * one's entries are tried again at the next tick) or of the state store.
   */
  async tick(): Promise<number> {
    const now = (this.options.now ?? Date.now)();
    const lookedBackTo = Math.min(this.lastTick, ...this.retrySince.values());
    let announced = 0;
    let failure: unknown;
    for (const { slug: workspace } of this.options.workspaces.list()) {
      const since = this.lookBackTo(workspace);
      const due: Due[] = [];
      for (const { type, index } of this.options.content.types(workspace)) {
        for (const entry of index.all()) if (cameDue(entry, since, now)) due.push({ entry, type });
      }
      try {
        if (due.length > 0 || this.announcedPublic(workspace, now).length > 0) announced += await this.publish(workspace, due, now);
        this.retrySince.delete(workspace);
      } catch (error) {
        this.retrySince.set(workspace, since);
        failure ??= error;
      }
    }
    this.lastTick = now;
    const forgot = this.forgetAnnouncedBefore(Math.min(lookedBackTo, ...this.retrySince.values()));
    const isFarAhead = this.lastTick - this.savedTick >= PROGRESS_SAVE_MS;
    if (announced > 0 || forgot || failure !== undefined || isFarAhead) await this.save();
    if (failure !== undefined) throw failure;
    return announced;
  }

  // The time the next tick of `workspace` looks back to: the last tick, or a failed try's earlier time.
  private lookBackTo(workspace: string): number {
    return this.retrySince.get(workspace) ?? this.lastTick;
  }

  // A write that published an entry, or took it off the site again (so that
  // its new date is news once more), as told on the bus. A mark of a
  // scheduled entry is saved at once: a restart before the next tick must
  // not announce it again (the marks of other entries matter only until
  // the next tick). The scheduler's own announcements are marked already.
  private hear(event: DomainEvent): void {
    const key = announcedKey(event.workspace, event.data.id);
    if (event.type === 'content.published') {
      if (this.announced.has(key)) return;
      const mark = { workspace: event.workspace, type: event.data.type, id: event.data.id, at: Date.parse(event.occurredAt) };
      this.announced.set(key, mark);
      if (this.scheduledEntry(mark)) this.saveSoon();
    } else if (event.type === 'content.unpublished' && this.announced.delete(key)) {
      this.saveSoon();
    }
  }

  // One save for the marks of one commit's events (a bulk update announces
  // many entries): the bus tells them in microtasks queued together, and
  // this save is queued behind them.
  private saveSoon(): void {
    if (this.saveQueued) return;
    this.saveQueued = true;
    queueMicrotask(() => {
      this.saveQueued = false;
      this.save().catch(this.options.onError);
    });
  }

  // An entry announced at some time was public then, so its date is no later:
  // once every workspace looks back no further, the mark can go. It goes a
  // tick later than that: an event heard late (the bus tells listeners in
  // microtasks) then finds its mark and is not taken for news, and a commit
  // from outside that landed while a tick waited for the write lock still
  // has its files looked at. Returns whether any went.
  private forgetAnnouncedBefore(since: number): boolean {
    let forgot = false;
    for (const [key, mark] of this.announced) {
      if (mark.at > since) continue;
      this.announced.delete(key);
      forgot = true;
    }
    return forgot;
  }

  // The marked entry, when it is scheduled (the marks a restart needs).
  private scheduledEntry(mark: { workspace: string; type: string; id: string }): StoredEntry | undefined {
    const entry = this.options.content.findType(mark.workspace, mark.type)?.index.get(mark.id);
    return entry?.status === 'scheduled' ? entry : undefined;
  }

  // The entries of `workspace` a write announced that are scheduled and public at `now`, with their types.
  private announcedPublic(workspace: string, now: number): Due[] {
    const found: Due[] = [];
    for (const mark of this.announced.values()) {
      if (mark.workspace !== workspace || mark.own) continue;
      const entry = this.scheduledEntry(mark);
      const type = this.options.content.findType(workspace, mark.type)?.type;
      if (entry && type && isPubliclyVisible(entry, now)) found.push({ entry, type });
    }
    return found;
  }

  // What a restart looks back to (the last tick, or a failed workspace's
  // earlier time), and the marks of scheduled entries announced after it.
  private async save(): Promise<void> {
    const tick = Math.min(this.lastTick, ...this.retrySince.values());
    const marks: AnnouncedMark[] = [];
    for (const mark of this.announced.values()) {
      if (mark.at > tick && !mark.own && this.scheduledEntry(mark)) marks.push({ workspace: mark.workspace, type: mark.type, id: mark.id, at: new Date(mark.at).toISOString() });
    }
    const value: SchedulerState = { last_tick: new Date(tick).toISOString() };
    if (marks.length > 0) value.announced = marks;
    await this.options.state.write<SchedulerState>(STATE_NAME, value);
    this.savedTick = tick;
  }

  // On a primary the events go with the commit that rewrites the files, so
  // they carry its id (and a batched webhook gets one content.batch). The
  // entries are unchanged in memory: only `draft`, derived from the time of
  // writing, differs in the files. A replica takes the primary's commit and
  // only tells its own listeners. Entries announced elsewhere are left out
  // under the write lock, after any write that was under way has told its
  // events; a save wrote their files with `draft: false` already, a commit
  // from outside perhaps not, and those files are rewritten (without an
  // event) when one still says `draft: true`. Returns how many entries it
  // announced.
  private async publish(workspace: string, found: Due[], now: number): Promise<number> {
    const { writer, files } = this.options;
    if (!writer || !files) {
      const due = this.notAnnounced(workspace, found);
      this.markAnnounced(workspace, due, now);
      for (const event of publishedEvents(workspace, due)) this.options.events.emit({ ...event, occurredAt: new Date(now).toISOString() });
      return due.length;
    }
    return writer.transaction(async (tx) => {
      const due = this.notAnnounced(workspace, found);
      const rewrites = due.flatMap(({ entry, type }) => entryFileWrites(workspace, type, entry, now));
      const stale: Due[] = [];
      for (const { entry, type } of this.announcedPublic(workspace, now)) {
        const writes = entryFileWrites(workspace, type, entry, now);
        if (!(await files.readFiles(writes.map((write) => write.path))).some(saysDraft)) continue;
        stale.push({ entry, type });
        rewrites.push(...writes);
      }
      const all = [...due, ...stale];
      if (all.length === 0) return 0;
      const names = all.map(({ entry }) => `${entry.type}/${entry.slug}`);
      const message = names.length === 1 ? `Publish ${names[0]}` : `Publish ${names.length} scheduled entries`;
      const events = publishedEvents(workspace, due);
      const trailers = { Workspace: workspace, Entries: all.map(({ entry }) => entry.id).join(' '), [TICK_TRAILER]: new Date(now).toISOString() };
      await tx.commit({ by: 'system', message, changes: rewrites, trailers, events });
      this.markAnnounced(workspace, due, now);
      return due.length;
    });
  }

  // The scheduler's own announcements, marked at once: a write before this
  // tick ends (and moves the look-back time) must not announce them again.
  private markAnnounced(workspace: string, due: Due[], now: number): void {
    for (const { entry } of due) this.announced.set(announcedKey(workspace, entry.id), { workspace, type: entry.type, id: entry.id, at: now, own: true });
  }

  private notAnnounced(workspace: string, found: Due[]): Due[] {
    return found.filter(({ entry }) => !this.announced.has(announcedKey(workspace, entry.id)));
  }

  /** Stops the timer and saves the last tick and the marks. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.save();
  }
}

function cameDue(entry: StoredEntry, since: number, now: number): boolean {
  if (entry.status !== 'scheduled' || !entry.published_at) return false;
  const at = Date.parse(entry.published_at);
  return at > since && at <= now;
}

// Whether an entry file's front matter says `draft: true` (one that no longer parses is the index's problem, not a draft).
function saysDraft(text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    return parseFrontMatter(text).attributes.draft === true;
  } catch {
    return false;
  }
}

function announcedKey(workspace: string, id: string): string {
  return `${workspace}/${id}`;
}

function publishedEvents(workspace: string, due: Due[]) {
  return due.map(({ entry }) => ({ type: 'content.published' as const, workspace, data: { type: entry.type, id: entry.id, slug: entry.slug } }));
}
