// Pure parts of webhooks and updates (issue 7): webhook set validation and
// secrets, the signature and body of a delivery, the update feed's checks and
// version order.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { checkRelease, compareVersions } from '../../src/domain/updates/update-feed.ts';
import type { DomainEvent } from '../../src/domain/model/events.ts';
import { mediaBatchBody, mediaBatches } from '../../src/domain/webhooks/media-batches.ts';
import { commitBatches } from '../../src/domain/webhooks/webhook-batches.ts';
import { deliveryBody, signBody } from '../../src/domain/webhooks/webhook-dispatcher.ts';
import { normalizeWebhooks, type WebhookRecord } from '../../src/domain/webhooks/webhook-service.ts';
import { AppError } from '../../src/errors/app-error.ts';

const NOW = '2024-05-01T00:00:00.000Z';
const STORED: WebhookRecord = { id: 'site', url: 'https://example.com/a', secret: 's3cret', events: ['*'], enabled: true, created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z' };

function fieldsOf(run: () => unknown): Record<string, string> {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.fields ?? {};
    throw error;
  }
  throw new Error('Expected an AppError.');
}

describe('webhooks', () => {
  it('keeps a stored secret when an existing id sends none, and clears it with null or ""', () => {
    const [kept] = normalizeWebhooks([{ id: 'site', url: 'https://example.com/b', events: ['content.created'] }], [STORED], NOW);
    expect(kept).to.deep.equal({ ...STORED, url: 'https://example.com/b', events: ['content.created'], batch: false, updated_at: NOW });
    expect(normalizeWebhooks([{ id: 'site', url: STORED.url, secret: null, events: ['*'] }], [STORED], NOW)[0].secret).to.equal(null);
    expect(normalizeWebhooks([{ id: 'site', url: STORED.url, secret: '', events: ['*'] }], [STORED], NOW)[0].secret).to.equal(null);
    const [fresh] = normalizeWebhooks([{ url: 'http://127.0.0.1:8080/hook', events: ['media.uploaded'], enabled: false }], [STORED], NOW);
    expect(fresh.id).to.match(/^[0-9a-z]{12}$/);
    expect(fresh).to.include({ secret: null, enabled: false, created_at: NOW });
  });

  it('names every bad field', () => {
    const fields = fieldsOf(() =>
      normalizeWebhooks(
        [
          { url: 'gopher://example.com', events: ['*'] },
          { id: 'bad id!', url: 'https://example.com', events: ['nope'] },
          { url: 'https://example.com', events: [], secret: 'x'.repeat(600) },
        ],
        [],
        NOW,
      ),
    );
    expect(fields).to.have.all.keys('webhooks.0.url', 'webhooks.1.id', 'webhooks.1.events', 'webhooks.2.events', 'webhooks.2.secret');
  });

  it('signs the raw body with HMAC-SHA256 and sends the API.md body', () => {
    const body = deliveryBody({ type: 'content.created', workspace: 'blog', occurredAt: NOW, actor: 'u1', commit: 'c'.repeat(40), data: { type: 'posts', id: 'abc', slug: 'hello' } });
    expect(JSON.parse(body)).to.deep.equal({ event: 'content.created', occurred_at: NOW, workspace: 'blog', commit: 'c'.repeat(40), data: { type: 'posts', id: 'abc', slug: 'hello' } });
    const scheduled = deliveryBody({ type: 'content.published', workspace: 'blog', occurredAt: NOW, data: { type: 'posts', id: 'abc', slug: 'hello' } });
    expect(JSON.parse(scheduled).commit).to.equal(null);
    expect(signBody(body, 'key')).to.equal(`sha256=${createHmac('sha256', 'key').update(body).digest('hex')}`);
  });

  it('folds the entry events of a commit into one batch per workspace, one change per entry, named by its most telling event', () => {
    const event = (type: DomainEvent['type'], id: string, extra: Partial<DomainEvent> = {}): DomainEvent => ({
      type, workspace: 'blog', occurredAt: NOW, commit: 'c1', data: { type: 'posts', id, slug: `slug-${id}` }, ...extra,
    });
    const batches = commitBatches([
      event('content.created', 'a'),
      event('content.published', 'a'),
      event('content.updated', 'b', { data: { type: 'posts', id: 'b', slug: 'new', previous_slug: 'old' } }),
      event('content.unpublished', 'c'),
      event('content.deleted', 'c'),
      event('schema.updated', 'x', { data: { type: 'posts' } }),
      event('content.published', 'd', { commit: undefined }),
      event('content.restored', 'e', { workspace: 'docs' }),
      event('content.unpublished', 'f'),
    ]);
    expect(batches).to.deep.equal([
      {
        workspace: 'blog', commit: 'c1', occurredAt: NOW,
        types: ['content.created', 'content.published', 'content.updated', 'content.unpublished', 'content.deleted'],
        changes: [
          { type: 'posts', id: 'a', slug: 'slug-a', change: 'created', events: ['content.created', 'content.published'] },
          { type: 'posts', id: 'b', slug: 'new', change: 'updated', events: ['content.updated'], previous_slug: 'old' },
          { type: 'posts', id: 'c', slug: 'slug-c', change: 'deleted', events: ['content.unpublished', 'content.deleted'] },
          { type: 'posts', id: 'f', slug: 'slug-f', change: 'unpublished', events: ['content.unpublished'] },
        ],
      },
      { workspace: 'docs', commit: 'c1', occurredAt: NOW, types: ['content.restored'], changes: [{ type: 'posts', id: 'e', slug: 'slug-e', change: 'restored', events: ['content.restored'] }] },
    ]);
  });

  it('folds the media events of a group into one media.batch per workspace and commit, one change per file', () => {
    const event = (type: DomainEvent['type'], filename: string, extra: Partial<DomainEvent> = {}): DomainEvent => ({ type, workspace: 'blog', occurredAt: NOW, data: { filename }, ...extra });
    const batches = mediaBatches([
      event('media.uploaded', 'a.png'),
      event('media.updated', 'a.png'),
      event('media.updated', 'new.png', { data: { filename: 'new.png', previous_filename: 'old.png' } }),
      event('content.updated', 'x', { commit: 'c1', data: { type: 'posts', id: 'x', slug: 'x' } }),
      event('media.deleted', 'b.png', { workspace: 'docs', commit: 'c2' }),
    ]);
    expect(batches).to.deep.equal([
      {
        workspace: 'blog', commit: null, occurredAt: NOW, types: ['media.uploaded', 'media.updated'],
        changes: [
          { filename: 'a.png', change: 'uploaded', events: ['media.uploaded', 'media.updated'] },
          { filename: 'new.png', change: 'updated', events: ['media.updated'], previous_filename: 'old.png' },
        ],
      },
      { workspace: 'docs', commit: 'c2', occurredAt: NOW, types: ['media.deleted'], changes: [{ filename: 'b.png', change: 'deleted', events: ['media.deleted'] }] },
    ]);
    expect(JSON.parse(mediaBatchBody(batches[1]))).to.deep.equal({ event: 'media.batch', occurred_at: NOW, workspace: 'docs', commit: 'c2', data: { changes: batches[1].changes } });
  });

  it('refuses to batch a content event it has no change kind for, rather than making one up from its name', () => {
    // Only a change to EVENT_TYPES without one to the batches could bring such an event; the compiler stops that, this checks the guard behind it.
    const unknown = { type: 'content.archived', workspace: 'blog', occurredAt: NOW, commit: 'c1', data: { type: 'posts', id: 'a', slug: 'a' } } as unknown as DomainEvent;
    expect(() => commitBatches([unknown])).to.throw(AppError).with.property('code', 'internal_error');
  });
});

describe('update feed', () => {
  const FEED = 'https://updates.example.com/cms/feed.json';
  const SHA = 'A'.repeat(64);

  it('resolves a relative url against the feed and lowercases the checksum', () => {
    expect(checkRelease({ version: '1.2.3', url: 'releases/1.2.3.zip', sha256: SHA, notes: 'Notes' }, FEED)).to.deep.equal({
      version: '1.2.3',
      url: 'https://updates.example.com/cms/releases/1.2.3.zip',
      sha256: 'a'.repeat(64),
      notes: 'Notes',
    });
  });

  it('refuses feeds with a bad version, checksum, url or notes', () => {
    for (const feed of [
      { version: 'v1', url: 'x.zip', sha256: SHA },
      { version: '1.2', url: 'x.zip', sha256: SHA },
      { version: '1.2.3/../../x', url: 'x.zip', sha256: SHA },
      { version: '1.2.3', url: 'x.zip', sha256: 'abc' },
      { version: '1.2.3', url: 'file:///etc/passwd', sha256: SHA },
      { version: '1.2.3', sha256: SHA },
      { version: '1.2.3', url: 'x.zip', sha256: SHA, notes: 5 },
      null,
    ]) {
      expect(fieldsOf(() => checkRelease(feed, FEED)), JSON.stringify(feed)).to.have.all.keys('feed');
    }
  });

  it('orders versions by number, a release after its pre-releases', () => {
    const cases: [string, string, number][] = [
      ['1.0.0', '1.0.0', 0],
      ['1.0.10', '1.0.9', 1],
      ['2.0.0', '10.0.0', -1],
      ['1.0.0-beta.1', '1.0.0', -1],
      ['1.0.0', '1.0.0-rc.1', 1],
      ['1.0.0-alpha', '1.0.0-beta', -1],
      ['1.0.0+build.5', '1.0.0', 0],
    ];
    for (const [a, b, expected] of cases) expect(compareVersions(a, b), `${a} vs ${b}`).to.equal(expected);
  });
});
