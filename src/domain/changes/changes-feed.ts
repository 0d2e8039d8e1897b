// The changes feed (docs/changes-feed.md): what a caller must add, update or
// remove to go from the content they saw at one commit to the content now,
// with the visibility and grants of the list routes. The git side is
// change-set.ts; this file decides per caller and pages the answer.
import { notFound } from '../../errors/app-error.ts';
import { LruCache } from '../../lib/lru-cache.ts';
import type { CommitInfo } from '../../storage/content-repo.ts';
import { can } from '../auth/authorize.ts';
import { readsWholeCollection } from '../auth/content-access.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContentIndex } from '../content/content-index.ts';
import type { ContentReader, ContentWriter } from '../content/content-writer.ts';
import type { ContentType } from '../model/content-type.ts';
import { isPubliclyVisible } from '../model/entry.ts';
import { WORKSPACE_SLUG } from '../model/workspace-file.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import { presenceAt, readChangeSet, type ChangeReader, type ChangeSet, type ChangeSetLimits, type EntrySide, type TouchedEntry, type TypeSides } from './change-set.ts';
import { decodeCursor, encodeCursor, invalidCursor } from './feed-cursor.ts';

/** One item of the feed: an entry (or, with `locale`, one of its translations) or a content type, and what happened to it for this caller. */
export interface ChangeItem {
  kind: 'entry' | 'type';
  type: string;
  id: string;
  slug: string;
  locale?: string;
  change: 'created' | 'updated' | 'deleted';
  /** The newest commit that made the change (HEAD for a full listing and for a scheduled entry coming due). */
  commit: string;
  /** When: that commit's author time, or the publish time of a scheduled entry that came due. */
  at: string;
}

/** What a caller asks: changes since a full commit id (or everything), a page size and the cursor of the previous page. */
export interface ChangesQuery {
  since?: string;
  limit: number;
  cursor?: string;
}

/** One page of the feed. */
export interface ChangesPage {
  items: ChangeItem[];
  /** `workspace_status` says why a workspace that left the API after `since` answers with everything deleted (docs/changes-feed.md). */
  meta: { since: string | null; head: string; next_cursor?: string; workspace_status?: 'archived' | 'removed' };
}

/** Options of the ChangesFeed. */
export interface ChangesFeedOptions {
  limits?: Partial<ChangeSetLimits>;
  now?: () => number;
}

const DEFAULT_LIMITS: ChangeSetLimits = { maxFiles: 20_000, maxCommits: 10_000 };
// Change sets are shared by every caller and page of one range; a few ranges are asked at a time.
const CACHED_SETS = 8;

type Keyed = ChangeItem & { key: string };

/** The changes feed of every workspace; created once by services.ts. */
export class ChangesFeed {
  private readonly limits: ChangeSetLimits;
  private readonly now: () => number;
  private readonly sets = new LruCache<string, Promise<ChangeSet>>(CACHED_SETS);

  constructor(
    private readonly repo: ChangeReader & Pick<ContentReader, 'head'>,
    private readonly writer: Pick<ContentWriter, 'indexedHead'>,
    private readonly content: ContentIndex,
    private readonly workspaces: Pick<WorkspaceService, 'find'>,
    options: ChangesFeedOptions = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
  }

  /**
   * One page of what changed for `principal` since the commit `query.since`
   * (every current item as created when absent). Throws not_found for an
   * unknown or archived workspace (but one archived or removed after
   * `since`: see checkWorkspace()) and an unknown commit, invalid_request for a cursor of
   * another query, conflict when the range is too large to read.
   */
  async read(principal: Principal, workspace: string, query: ChangesQuery): Promise<ChangesPage> {
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const since = query.since ?? null;
    if (cursor && cursor.since !== since) throw invalidCursor();
    await this.checkWorkspace(workspace, since);
    const now = cursor?.now ?? this.now();
    const viewer = new Viewer(principal, workspace);
    let head: string;
    let items: Keyed[];
    let gone: ChangesPage['meta']['workspace_status'];
    if (since === null) {
      // A listing is served from the index, so it is complete up to the commit the index holds, not HEAD.
      head = cursor?.head ?? this.writer.indexedHead ?? (await this.repo.head());
      items = this.listAll(viewer, workspace, { oid: head, at: (await this.repo.commitInfo(head)).timestamp }, now);
    } else {
      head = cursor?.head ?? (await this.repo.head());
      const set = await this.changeSet(workspace, since, head);
      items = this.changesOf(viewer, workspace, set, now);
      if (set.atHead !== 'live') gone = set.atHead;
    }
    // Cut before sorting: later pages of a long listing sort only what is left.
    const rest = cursor ? items.filter((item) => item.key > cursor.after) : items;
    rest.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const page = rest.slice(0, query.limit);
    const meta: ChangesPage['meta'] = { since, head, ...(gone && { workspace_status: gone }) };
    if (rest.length > page.length) meta.next_cursor = encodeCursor({ since, head, now, after: page[page.length - 1].key });
    return { items: page.map(({ key: _key, ...item }) => item), meta };
  }

  // A workspace archived or removed with git after the caller's `since`
  // (on the API at that commit, not now) still answers, with its types and
  // entries deleted, so a client that polls it learns they are gone; once
  // `since` is past that commit it is unknown, as everywhere.
  private async checkWorkspace(workspace: string, since: string | null): Promise<void> {
    const found = this.workspaces.find(workspace);
    if (found && !found.archived) return;
    if (since !== null && WORKSPACE_SLUG.test(workspace) && (await presenceAt(this.repo, workspace, since)) === 'live') return;
    throw notFound(`No workspace "${workspace}".`);
  }

  private changeSet(workspace: string, since: string, head: string): Promise<ChangeSet> {
    const key = `${workspace}\n${since}\n${head}`;
    let set = this.sets.get(key);
    if (set === undefined) {
      set = readChangeSet(this.repo, workspace, { since, head }, this.limits);
      this.sets.set(key, set);
      // A failed read (unknown commit) is not kept: the same question may be asked again once the commit exists.
      set.catch(() => this.sets.delete(key));
    }
    return set;
  }

  // Every type and entry the caller may see now, as created.
  private listAll(viewer: Viewer, workspace: string, head: { oid: string; at: string }, now: number): Keyed[] {
    const items: Keyed[] = [];
    for (const { type, index } of this.content.types(workspace)) {
      if (viewer.seesSchema(type)) items.push(typeItem(type.name, 'created', head));
      if (!viewer.seesEntriesOf(type)) continue;
      for (const entry of index.all()) {
        if (viewer.seesEntry(type, entry, now)) items.push(entryItem(type.name, entry, 'created', head));
      }
    }
    return items;
  }

  private changesOf(viewer: Viewer, workspace: string, set: ChangeSet, now: number): Keyed[] {
    const sinceTime = Date.parse(set.since.timestamp);
    const items: Keyed[] = [];
    for (const sides of set.types.values()) {
      const change = transition(viewer.seesSchema(sides.before), viewer.seesSchema(sides.after), sides.changed);
      if (change) items.push(typeItem(sides.name, change, at(sides.commit)));
    }
    for (const entry of set.entries) {
      const sides = set.types.get(entry.type);
      const was = entry.before !== undefined && viewer.seesEntry(sides?.before, entry.before, sinceTime);
      const is = entry.after !== undefined && viewer.seesEntry(sides?.after, entry.after, now);
      items.push(...entryItems(entry, was, is));
    }
    // A workspace that came or went touched every entry of the side it is on: none is left untouched.
    if (set.emptySide !== undefined) return items;
    const touched = new Set(set.entries.map((entry) => `${entry.type}/${entry.id}`));
    items.push(...this.untouchedChanges(viewer, workspace, set, { sinceTime, now, touched }));
    return items;
  }

  // Entries whose files did not change but whose visibility did: every entry
  // of a type the caller no longer (or newly) may read, and scheduled entries
  // that came due after the since commit was made. Their state is the same at
  // since and at head, so the index tells it without reading files.
  private untouchedChanges(viewer: Viewer, workspace: string, set: ChangeSet, range: { sinceTime: number; now: number; touched: Set<string> }): Keyed[] {
    const items: Keyed[] = [];
    for (const { type, index } of this.content.types(workspace)) {
      const sides: TypeSides | undefined = set.types.get(type.name);
      const was = viewer.seesEntriesOf(sides?.before);
      const is = viewer.seesEntriesOf(sides?.after);
      if (!was && !is) continue;
      // With the type readable on both sides only time can change an untouched entry, and only for readers of public entries, and only if one came due.
      if (was && is && (viewer.readsWhole(type.name) || index.nextPublishAfter(range.sinceTime) > range.now)) continue;
      const typeChange = sides ? at(sides.commit) : { oid: set.head.oid, at: set.head.timestamp };
      for (const entry of index.all()) {
        if (range.touched.has(`${type.name}/${entry.id}`)) continue;
        const wasVisible = was && viewer.seesEntry(sides?.before, entry, range.sinceTime);
        const isVisible = is && viewer.seesEntry(sides?.after, entry, range.now);
        if (wasVisible === isVisible) continue;
        // With the type readable on both sides only time can have changed it: coming due is no commit, so HEAD and the publish time stand in.
        const when = was && is && entry.published_at !== null ? { oid: set.head.oid, at: entry.published_at } : typeChange;
        items.push(entryItem(type.name, entry, isVisible ? 'created' : 'deleted', when));
      }
    }
    return items;
  }
}

// Who sees what, as the list routes decide it: a type's entries are readable
// when the type is public or the caller reads the whole collection; then the
// caller sees every entry, or only the publicly visible ones. Answers per type are kept.
class Viewer {
  private readonly wholeCollections = new Map<string, boolean>();

  constructor(
    private readonly principal: Principal,
    private readonly workspace: string,
  ) {}

  seesSchema(type: ContentType | undefined): boolean {
    if (type === undefined) return false;
    return type.visibility === 'public' || can(this.principal, { action: 'schema.read', resource: `schema:${type.name}`, workspace: this.workspace });
  }

  seesEntriesOf(type: ContentType | undefined): boolean {
    return type !== undefined && (type.visibility === 'public' || this.readsWhole(type.name));
  }

  seesEntry(type: ContentType | undefined, entry: Pick<EntrySide, 'status' | 'published_at'>, time: number): boolean {
    if (type === undefined || !this.seesEntriesOf(type)) return false;
    return this.readsWhole(type.name) || isPubliclyVisible(entry, time);
  }

  readsWhole(name: string): boolean {
    let answer = this.wholeCollections.get(name);
    if (answer === undefined) this.wholeCollections.set(name, (answer = readsWholeCollection(this.principal, this.workspace, name)));
    return answer;
  }
}

// What a caller who saw `was` and now sees `is` is told; undefined when nothing.
function transition(was: boolean, is: boolean, changed: boolean): ChangeItem['change'] | undefined {
  if (was && is) return changed ? 'updated' : undefined;
  if (is) return 'created';
  return was ? 'deleted' : undefined;
}

// An entry that appeared, went or moved slug is one item for the whole entry
// (all its locales). An entry seen on both sides gets one `updated` item when
// its root file changed, which covers every locale, and an item per
// translation file that appeared or went (or changed, when the root did not).
function entryItems(entry: TouchedEntry, was: boolean, is: boolean): Keyed[] {
  const { before, after } = entry;
  const when = at(entry.commit);
  if (was && !is) return [entryItem(entry.type, before!, 'deleted', when)];
  if (!was && is) return [entryItem(entry.type, after!, 'created', when)];
  if (!was || !is) return [];
  if (before!.slug !== after!.slug) return [entryItem(entry.type, before!, 'deleted', when), entryItem(entry.type, after!, 'created', when)];
  const items = entry.rootChanged ? [entryItem(entry.type, after!, 'updated', when)] : [];
  for (const translation of entry.translations) {
    if (entry.rootChanged && translation.change === 'modified') continue;
    const change = translation.change === 'added' ? 'created' : translation.change === 'deleted' ? 'deleted' : 'updated';
    items.push(entryItem(entry.type, after!, change, at(translation.commit), translation.locale));
  }
  return items;
}

function entryItem(type: string, entry: Pick<EntrySide, 'id' | 'slug'>, change: ChangeItem['change'], when: { oid: string; at: string }, locale?: string): Keyed {
  // Deleted sorts before created, so a client applying a slug move in order ends with the new slug.
  const key = ['1', type, entry.id, change === 'deleted' ? '0' : '1', locale ?? ''].join('\u0000');
  return { key, kind: 'entry', type, id: entry.id, slug: entry.slug, ...(locale === undefined ? {} : { locale }), change, commit: when.oid, at: when.at };
}

function typeItem(name: string, change: ChangeItem['change'], when: { oid: string; at: string }): Keyed {
  return { key: ['0', name].join('\u0000'), kind: 'type', type: name, id: name, slug: name, change, commit: when.oid, at: when.at };
}

function at(commit: CommitInfo): { oid: string; at: string } {
  return { oid: commit.oid, at: commit.timestamp };
}
