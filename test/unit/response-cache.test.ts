// The response cache's own rules (http/response-cache.ts): what makes an
// answer stale, and the bounds on what it keeps.
import { expect } from 'chai';
import type { Context } from 'koa';
import { ANONYMOUS, type Grant, type Principal } from '../../src/domain/auth/principal.ts';
import { ResponseCache, type ReadFreshness } from '../../src/http/response-cache.ts';
import type { AppState } from '../../src/http/state.ts';

interface FakeContext {
  url: string;
  method: string;
  status: number;
  type: string;
  body: unknown;
  headers: Record<string, string>;
  state: AppState;
  get(name: string): string;
  set(name: string, value: string): void;
}

function request(url: string, principal: Principal = ANONYMOUS, ifNoneMatch = ''): FakeContext {
  return {
    url,
    method: 'GET',
    status: 404,
    type: '',
    body: undefined,
    headers: {},
    state: { requestId: 'test', principal, baseUrl: 'http://cms.test' },
    get: (name) => (name.toLowerCase() === 'if-none-match' ? ifNoneMatch : ''),
    set(name, value) {
      this.headers[name.toLowerCase()] = value;
    },
  };
}

describe('response cache', () => {
  let changes: number;
  let nextPublish: number;
  let now: number;
  let reads: number;
  const freshness: ReadFreshness = { changeCount: () => changes, nextPublishAfter: () => nextPublish };
  const read = (body: unknown) => () => {
    reads += 1;
    return { body };
  };
  const send = (cache: ResponseCache, url: string, body: unknown = { data: url }, principal: Principal = ANONYMOUS): FakeContext => {
    const ctx = request(url, principal);
    cache.send(ctx as unknown as Context & { state: AppState }, 'default', read(body));
    return ctx;
  };

  beforeEach(() => {
    changes = 0;
    nextPublish = Number.POSITIVE_INFINITY;
    now = 1_000;
    reads = 0;
  });

  it('answers a repeated read from memory with the same bytes and entity tag', () => {
    const cache = new ResponseCache(freshness, undefined, () => now);
    const first = send(cache, '/a');
    const second = send(cache, '/a');
    expect(reads).to.equal(1);
    expect(String(second.body)).to.equal(JSON.stringify({ data: '/a' }));
    expect(second.headers.etag).to.equal(first.headers.etag);
    expect(second.type).to.equal('application/json; charset=utf-8');
  });

  it('answers 304 from memory when the client has the entity tag', () => {
    const cache = new ResponseCache(freshness, undefined, () => now);
    const first = send(cache, '/a');
    const conditional = request('/a', ANONYMOUS, first.headers.etag);
    cache.send(conditional as unknown as Context & { state: AppState }, 'default', read({}));
    expect(conditional.status).to.equal(304);
    expect(reads).to.equal(1);
  });

  it('reads again once the content changed', () => {
    const cache = new ResponseCache(freshness, undefined, () => now);
    send(cache, '/a');
    changes += 1;
    send(cache, '/a');
    expect(reads).to.equal(2);
  });

  it('reads again once a scheduled entry went public, and not before', () => {
    nextPublish = 2_000;
    const cache = new ResponseCache(freshness, undefined, () => now);
    send(cache, '/a');
    now = 1_999;
    send(cache, '/a');
    expect(reads).to.equal(1);
    now = 2_000;
    send(cache, '/a');
    expect(reads).to.equal(2);
  });

  it('keeps readers apart, by id and by grants', () => {
    const cache = new ResponseCache(freshness, undefined, () => now);
    const token = (grants: Grant[]): Principal => ({ kind: 'token', id: 't1', name: 'ci', grants });
    send(cache, '/a');
    send(cache, '/a', {}, token([]));
    send(cache, '/a', {}, token([{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]));
    send(cache, '/a', {}, token([]));
    expect(reads).to.equal(3);
  });

  it('drops the least recently used answer beyond its count', () => {
    const cache = new ResponseCache(freshness, { maxAnswers: 2, maxBytes: 1_000_000 }, () => now);
    send(cache, '/a');
    send(cache, '/b');
    send(cache, '/a');
    send(cache, '/c');
    expect(reads).to.equal(3);
    send(cache, '/a');
    expect(reads, '/a was used last and stays').to.equal(3);
    send(cache, '/b');
    expect(reads, '/b was dropped').to.equal(4);
  });

  it('stays within its bytes and never keeps an answer larger than an eighth of them', () => {
    const cache = new ResponseCache(freshness, { maxAnswers: 100, maxBytes: 800 }, () => now);
    const big = { data: 'x'.repeat(150) };
    send(cache, '/big', big);
    send(cache, '/big', big);
    expect(reads, 'too big to keep').to.equal(2);
    for (const url of ['/1', '/2', '/3', '/4', '/5', '/6', '/7', '/8', '/9']) send(cache, url, { data: 'y'.repeat(80) });
    reads = 0;
    send(cache, '/9', { data: 'y'.repeat(80) });
    send(cache, '/1', { data: 'y'.repeat(80) });
    expect(reads, 'the newest kept, the oldest dropped').to.equal(1);
  });
});
