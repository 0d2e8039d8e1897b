// Pure parts of the editorial operations: revision diffs, the activity log's
// reading and filtering, and the publish scheduler's "came due" rule.
import { expect } from 'chai';
import { ActivityLog, type LineStore } from '../../src/domain/activity/activity-log.ts';
import { describeEvent, describeEvents } from '../../src/domain/activity/activity-feeds.ts';
import { PublishScheduler } from '../../src/domain/activity/publish-scheduler.ts';
import type { Principal } from '../../src/domain/auth/principal.ts';
import type { StoredEntry } from '../../src/domain/model/entry.ts';
import { EventBus, type DomainEvent } from '../../src/domain/model/events.ts';
import { diffEntries } from '../../src/domain/history/field-changes.ts';
import { TypeIndex } from '../../src/domain/query/type-index.ts';
import type { ContentType } from '../../src/domain/model/content-type.ts';
import { AppError } from '../../src/errors/app-error.ts';
import { pollUntil } from '../helpers/poll.ts';

function buildEntry(overrides: Partial<StoredEntry> = {}): StoredEntry {
  return {
    id: 'e1', slug: 'hello', type: 'posts', status: 'draft', title: 'Hello', published_at: null,
    created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', data: {}, translations: {}, ...overrides,
  };
}

const POSTS: ContentType = { name: 'posts', label: 'Posts', icon: '', singleton: false, visibility: 'public', slug_field: 'title', slug_source: 'title', locales: [], default_locale: '', fields: {} };
const ADMIN: Principal = { kind: 'user', id: 'u1', username: 'admin', displayName: 'Admin', role: 'admin', grants: [{ effect: 'allow', actions: ['*'], resources: ['*'] }] };
const VIEWER: Principal = { kind: 'user', id: 'u2', username: 'viewer', displayName: 'Viewer', role: 'viewer', grants: [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }] };

describe('revision diffs', () => {
  it('lists changed shared fields, values and translations in a stable order, ignoring timestamps', () => {
    const before = buildEntry({ data: { tags: ['a'], meta: { x: 1, y: 2 } }, translations: { de: { title: 'Hallo', data: { body: 'alt' } } } });
    const after = buildEntry({ title: 'Hi', status: 'published', updated_at: '2026-02-01T00:00:00.000Z', data: { tags: ['a', 'b'], meta: { y: 2, x: 1 }, extra: true }, translations: { fr: { title: 'Salut', data: {} } } });
    expect(diffEntries(before, after)).to.deep.equal([
      { field: 'title', before: 'Hello', after: 'Hi' },
      { field: 'status', before: 'draft', after: 'published' },
      { field: 'data.extra', before: null, after: true },
      { field: 'data.tags', before: ['a'], after: ['a', 'b'] },
      { field: 'translations.de.title', before: 'Hallo', after: null },
      { field: 'translations.de.data.body', before: 'alt', after: null },
      { field: 'translations.fr.title', before: null, after: 'Salut' },
    ]);
  });

  it('treats a missing side as all-absent and equal entries as no change', () => {
    expect(diffEntries(undefined, buildEntry())).to.deep.equal([
      { field: 'slug', before: null, after: 'hello' },
      { field: 'title', before: null, after: 'Hello' },
      { field: 'status', before: null, after: 'draft' },
    ]);
    expect(diffEntries(buildEntry(), buildEntry({ updated_by: 'someone' }))).to.deep.equal([]);
  });
});

describe('activity log', () => {
  function memoryStore(lines: string[] = []): LineStore & { lines: string[] } {
    return {
      lines,
      appendLine: async (_name: string, line: string) => {
        lines.push(line);
      },
      readLines: async () => [...lines],
    };
  }

  it('stores records as JSON lines and lists them newest first, skipping unreadable lines', async () => {
    const store = memoryStore();
    let now = Date.parse('2026-03-01T10:00:00.000Z');
    const log = new ActivityLog(store, () => undefined, () => now++);
    await log.record({ type: 'content.created', message: 'first', user_id: 'u1', workspace: 'default', details: { id: 'e1' } });
    store.lines.push('{"broken', JSON.stringify({ time: 'x', type: 't', message: 'm', level: 'loud' }));
    await log.record({ level: 'warning', type: 'auth.login_failed', message: 'second' });
    const page = await log.list(ADMIN);
    expect(page.records.map((record) => record.message)).to.deep.equal(['second', 'first']);
    expect(page.records[1]).to.include({ level: 'info', time: '2026-03-01T10:00:00.000Z', user_id: 'u1', workspace: 'default' });
    expect(page.records[0]).to.include({ user_id: null, workspace: null });
    expect(page).to.include({ total: 2, limit: 50, offset: 0 });
  });

  it('filters by level, type (exact or area) and workspace', async () => {
    const log = new ActivityLog(memoryStore(), () => undefined);
    await log.record({ type: 'content.created', message: 'a', workspace: 'blog' });
    await log.record({ type: 'content.updated', message: 'b', workspace: 'shop' });
    await log.record({ level: 'error', type: 'contentious', message: 'c' });
    const messages = async (query: Parameters<ActivityLog['list']>[1]) => (await log.list(ADMIN, query)).records.map((record) => record.message);
    expect(await messages({ type: 'content' })).to.deep.equal(['b', 'a']);
    expect(await messages({ type: 'content.created' })).to.deep.equal(['a']);
    expect(await messages({ level: 'error' })).to.deep.equal(['c']);
    expect(await messages({ workspace: 'shop' })).to.deep.equal(['b']);
    expect(await messages({ limit: 1, offset: 1 })).to.deep.equal(['b']);
  });

  it('needs activity.read and sane paging', async () => {
    const log = new ActivityLog(memoryStore(), () => undefined);
    const codeOf = async (run: () => Promise<unknown>) => run().then(() => 'ok', (error: unknown) => (error instanceof AppError ? error.code : 'other'));
    expect(await codeOf(() => log.list(VIEWER))).to.equal('forbidden');
    expect(await codeOf(() => log.list({ kind: 'anonymous' }))).to.equal('unauthorized');
    expect(await codeOf(() => log.list(ADMIN, { limit: 0 }))).to.equal('invalid_request');
    expect(await codeOf(() => log.list(ADMIN, { limit: 501 }))).to.equal('invalid_request');
  });

  it('reports a failed write instead of rejecting', async () => {
    const failures: unknown[] = [];
    const log = new ActivityLog({ appendLine: () => Promise.reject(new Error('disk full')), readLines: async () => [] }, (error) => failures.push(error));
    await log.record({ type: 'x', message: 'y' });
    await log.flush();
    expect(failures).to.have.length(1);
  });

  it('describes domain events in plain words', () => {
    const event = (type: DomainEvent['type'], data: Record<string, string>): DomainEvent => ({ type, workspace: 'default', occurredAt: '', actor: 'u1', data });
    expect(describeEvent(event('content.restored', { type: 'posts', id: 'e1', slug: 'hello' }))).to.deep.include({ message: 'Restored from the trash: posts/hello.', user_id: 'u1', workspace: 'default' });
    expect(describeEvent(event('schema.deleted', { type: 'posts' })).message).to.equal('Deleted the content type "posts".');
    expect(describeEvent(event('media.uploaded', { filename: 'a.png' })).message).to.equal('Uploaded "a.png".');
  });

  it('describes a write and the publication it caused in one record, and a publication on its own in its own', () => {
    const entry = (id: string, slug: string, extra: Record<string, string> = {}) => ({ type: 'posts', id, slug, ...extra });
    const event = (type: DomainEvent['type'], data: Record<string, string>): DomainEvent => ({ type, workspace: 'default', occurredAt: '', actor: 'u1', data });
    const records = describeEvents([
      event('content.updated', entry('a', 'new', { previous_slug: 'old' })), event('content.published', entry('a', 'new')),
      event('content.restored', entry('b', 'back')), event('content.published', entry('b', 'back')),
      event('content.updated', entry('c', 'off')), event('content.unpublished', entry('c', 'off')),
      event('content.purged', entry('d', 'gone')),
      event('content.unpublished', entry('e', 'archived')),
    ]);
    expect(records.map((record) => [record.type, record.message])).to.deep.equal([
      ['content.updated', 'Renamed posts/old to new and published it.'],
      ['content.restored', 'Restored from the trash and published: posts/back.'],
      ['content.updated', 'Updated and unpublished posts/off.'],
      ['content.purged', 'Deleted for good: posts/gone.'],
      ['content.unpublished', 'Unpublished posts/archived.'],
    ]);
    expect(records[1].details).to.deep.equal({ type: 'posts', id: 'b', slug: 'back', events: ['content.restored', 'content.published'] });
  });

  it('describes the entries a workspace move took off the site or brought back as one record per workspace, in the place of the first', () => {
    const event = (type: DomainEvent['type'], workspace: string, id: string, withWorkspace?: DomainEvent['withWorkspace']): DomainEvent => ({
      type, workspace, occurredAt: '', actor: 'u1', data: { type: 'posts', id, slug: `post-${id}` }, ...(withWorkspace && { withWorkspace }),
    });
    const leaving = Array.from({ length: 70 }, (_, n) => event('content.unpublished', 'blog', String(n), 'archived'));
    const records = describeEvents([
      event('content.updated', 'docs', 'x'),
      ...leaving.slice(0, 10),
      event('content.published', 'news', 'n1', 'restored'),
      ...leaving.slice(10),
      event('content.unpublished', 'blog', 'own'),
    ]);
    expect(records.map((record) => [record.type, record.workspace, record.message])).to.deep.equal([
      ['content.updated', 'docs', 'Updated posts/post-x.'],
      ['content.unpublished', 'blog', 'Archived the workspace "blog": 70 entries left the site.'],
      ['content.published', 'news', 'Brought back the workspace "news": 1 entry back on the site.'],
      ['content.unpublished', 'blog', 'Unpublished posts/post-own.'],
    ]);
    expect(records[1].details).to.deep.equal({ workspace: 'blog', change: 'archived', count: 70, entries: leaving.slice(0, 50).map((item) => `posts/${item.data.slug}`) });
    expect(records[1].user_id).to.equal('u1');
  });

  it('describes a workspace removed as one record of its types and entries, and a workspace change that told no event as one at the end', () => {
    const event = (type: DomainEvent['type'], id: string): DomainEvent => ({ type, workspace: 'shop', occurredAt: '', data: type.startsWith('schema.') ? { type: id } : { type: 'items', id, slug: `item-${id}` }, withWorkspace: 'removed' });
    const records = describeEvents([
      event('schema.deleted', 'items'),
      event('content.deleted', '1'),
      event('content.unpublished', '1'),
      event('content.deleted', '2'),
      { type: 'content.updated', workspace: 'docs', occurredAt: '', data: { type: 'pages', id: 'x', slug: 'x' } },
    ], [{ workspace: 'shop', change: 'removed' }, { workspace: 'quiet', change: 'archived', actor: 'u2' }]);
    expect(records.map((record) => [record.type, record.workspace, record.user_id, record.message])).to.deep.equal([
      ['content.deleted', 'shop', null, 'The workspace "shop" was removed by a commit: 1 type and 2 entries went.'],
      ['content.updated', 'docs', null, 'Updated pages/x.'],
      ['content.unpublished', 'quiet', 'u2', 'Archived the workspace "quiet": 0 entries left the site.'],
    ]);
    expect(records[0].details).to.deep.equal({ workspace: 'shop', change: 'removed', count: 2, entries: ['items/item-1', 'items/item-2'], types: 1, events: ['schema.deleted', 'content.deleted', 'content.unpublished'] });
  });

  it('describes none of the events of a backup restore, which records its own line', () => {
    const restored: DomainEvent = { type: 'content.created', workspace: 'default', occurredAt: '', data: { type: 'posts', id: 'a', slug: 'a' }, fromBackup: 'backup-20261127-100000.zip' };
    expect(describeEvents([restored, { ...restored, type: 'media.uploaded', data: { filename: 'a.png' } }])).to.deep.equal([]);
  });
});

describe('publish scheduler', () => {
  function harness(entries: StoredEntry[], saved: string | null, start: number, intervalMs = 3_600_000) {
    const index = new TypeIndex(POSTS);
    for (const entry of entries) index.upsert(entry);
    const emitted: DomainEvent[] = [];
    const events = new EventBus(() => undefined);
    events.on((event) => {
      emitted.push(event);
    });
    const state = { stored: saved === null ? null : { last_tick: saved } as unknown, read: async <T>(_name: string, fallback: T) => (state.stored ?? fallback) as T, write: async <T>(_name: string, value: T) => { state.stored = value; } };
    const clock = { now: start };
    const scheduler = PublishScheduler.start({
      content: { types: () => [{ type: POSTS, index }], findType: () => ({ type: POSTS, index }) },
      workspaces: { list: () => [{ slug: 'default', label: 'Default', archived: false, type_order: [], created_at: '', updated_at: '' }] },
      events, state, intervalMs, onError: () => undefined, now: () => clock.now,
    });
    return { scheduler, emitted, clock, state, events, index };
  }
  const flushEvents = () => new Promise((resolve) => setImmediate(resolve));
  const at = (iso: string) => Date.parse(iso);

  it('announces each scheduled entry once, when its time passes', async () => {
    const entries = [
      buildEntry({ id: 'a', slug: 'a', status: 'scheduled', published_at: '2026-05-01T10:00:05.000Z' }),
      buildEntry({ id: 'b', slug: 'b', status: 'scheduled', published_at: '2026-05-01T10:00:20.000Z' }),
      buildEntry({ id: 'c', slug: 'c', status: 'published', published_at: '2026-05-01T10:00:06.000Z' }),
      buildEntry({ id: 'd', slug: 'd', status: 'scheduled', published_at: '2026-05-01T09:00:00.000Z' }),
    ];
    const { scheduler: starting, emitted, clock } = harness(entries, null, at('2026-05-01T10:00:00.000Z'));
    const scheduler = await starting;
    clock.now = at('2026-05-01T10:00:10.000Z');
    expect(await scheduler.tick()).to.equal(1);
    clock.now = at('2026-05-01T10:00:15.000Z');
    expect(await scheduler.tick()).to.equal(0);
    clock.now = at('2026-05-01T10:00:30.000Z');
    expect(await scheduler.tick()).to.equal(1);
    await scheduler.stop();
    await flushEvents();
    expect(emitted.map((event) => [event.type, event.data.id, event.actor])).to.deep.equal([['content.published', 'a', undefined], ['content.published', 'b', undefined]]);
  });

  it('leaves out an entry a save already announced, until a save takes it off the site again', async () => {
    const entry = buildEntry({ id: 'a', slug: 'a', status: 'scheduled', published_at: '2026-05-01T10:00:05.000Z' });
    const { scheduler: starting, emitted, clock, events, index } = harness([entry], null, at('2026-05-01T10:00:00.000Z'));
    const scheduler = await starting;
    const tell = (type: 'content.published' | 'content.unpublished', occurredAt: string) => events.emit({ type, workspace: 'default', occurredAt, data: { type: 'posts', id: 'a', slug: 'a' } });
    tell('content.published', '2026-05-01T10:00:06.000Z');
    await flushEvents();
    clock.now = at('2026-05-01T10:00:10.000Z');
    expect(await scheduler.tick()).to.equal(0);
    // Saved again for a later date, which takes it off the site: that date is news.
    index.upsert({ ...entry, published_at: '2026-05-01T10:00:20.000Z' });
    tell('content.unpublished', '2026-05-01T10:00:11.000Z');
    await flushEvents();
    clock.now = at('2026-05-01T10:00:30.000Z');
    expect(await scheduler.tick()).to.equal(1);
    await scheduler.stop();
    await flushEvents();
    expect(emitted.map((event) => event.type)).to.deep.equal(['content.published', 'content.unpublished', 'content.published']);
  });

  it('starts no tick while the previous one still runs, so stop() waits for the only one there is', async () => {
    const { scheduler: starting, clock, state } = harness([], null, at('2026-05-01T10:00:00.000Z'), 5);
    const scheduler = await starting;
    // A minute past the last tick, every tick saves; the first save hangs until released.
    clock.now = at('2026-05-01T10:02:00.000Z');
    let writes = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let saved = false;
    state.write = async <T>(_name: string, value: T) => {
      writes += 1;
      await released;
      state.stored = value;
      saved = true;
    };
    await pollUntil(async () => writes, (count) => count >= 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(writes, 'saves started while the first hung').to.equal(1);
    const stopped = scheduler.stop();
    release();
    await stopped;
    expect(saved).to.equal(true);
  });

  it('catches up after a restart from the saved last tick', async () => {
    const entries = [buildEntry({ id: 'a', status: 'scheduled', published_at: '2026-05-01T12:00:00.000Z' })];
    const { scheduler: starting, emitted, clock, state } = harness(entries, '2026-05-01T11:00:00.000Z', at('2026-05-01T13:00:00.000Z'));
    const scheduler = await starting;
    clock.now += 1000;
    expect(await scheduler.tick()).to.equal(1);
    await scheduler.stop();
    await flushEvents();
    expect(emitted.map((event) => event.data.id)).to.deep.equal(['a']);
    expect(state.stored).to.deep.equal({ last_tick: '2026-05-01T13:00:01.000Z' });
  });

  it('saves the last tick of idle ticks once it is a minute past the saved one, so a start after a kill looks back no further', async () => {
    const { scheduler: starting, clock, state } = harness([], '2026-05-01T11:00:00.000Z', at('2026-05-01T11:00:00.000Z'));
    const scheduler = await starting;
    clock.now = at('2026-05-01T11:00:30.000Z');
    expect(await scheduler.tick()).to.equal(0);
    expect(state.stored).to.deep.equal({ last_tick: '2026-05-01T11:00:00.000Z' });
    clock.now = at('2026-05-01T11:01:00.000Z');
    await scheduler.tick();
    expect(state.stored).to.deep.equal({ last_tick: '2026-05-01T11:01:00.000Z' });
    clock.now = at('2026-05-01T11:01:30.000Z');
    await scheduler.tick();
    expect(state.stored).to.deep.equal({ last_tick: '2026-05-01T11:01:00.000Z' });
    clock.now = at('2026-05-01T11:02:10.000Z');
    await scheduler.tick();
    expect(state.stored).to.deep.equal({ last_tick: '2026-05-01T11:02:10.000Z' });
    await scheduler.stop();
  });
});
