// The in-memory auth stores with a fake clock and a fake state folder:
// session idle expiry, login throttling windows, token lookup and expiry.
import { expect } from 'chai';
import { LoginThrottle } from '../../src/domain/auth/login-throttle.ts';
import { SessionStore } from '../../src/domain/auth/session-store.ts';
import type { JsonState } from '../../src/domain/state/state-file.ts';
import { TokenService } from '../../src/domain/auth/token-service.ts';
import type { Grant, Principal } from '../../src/domain/auth/principal.ts';
import { AppError } from '../../src/errors/app-error.ts';

/** A state folder in memory that records how often each document was written. */
function buildState(): JsonState & { docs: Map<string, string>; writes: Map<string, number> } {
  const docs = new Map<string, string>();
  const writes = new Map<string, number>();
  return {
    docs,
    writes,
    read: async <T>(name: string, fallback: T): Promise<T> => (docs.has(name) ? (JSON.parse(docs.get(name) ?? 'null') as T) : fallback),
    write: async (name: string, value: unknown): Promise<void> => {
      docs.set(name, JSON.stringify(value));
      writes.set(name, (writes.get(name) ?? 0) + 1);
    },
  };
}

function buildClock(start = Date.parse('2030-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const ADMIN: Principal = { kind: 'user', id: 'u1', username: 'root', displayName: 'Root', role: 'admin', grants: [{ effect: 'allow', actions: ['*'], resources: ['*'] }] };

describe('SessionStore', () => {
  const idleMs = 60_000;

  it('returns a session until it has been idle too long', async () => {
    const clock = buildClock();
    const store = await SessionStore.load(buildState(), { idleMs, now: clock.now });
    await store.set('key-1', { userId: 'u1' });
    clock.advance(idleMs - 1);
    expect(store.get('key-1')).to.deep.equal({ userId: 'u1' });
    clock.advance(idleMs - 1);
    expect(store.get('key-1'), 'each use restarts the idle window').to.deep.equal({ userId: 'u1' });
    clock.advance(idleMs + 1);
    expect(store.get('key-1')).to.equal(undefined);
  });

  it('persists sessions by the hash of their key and reloads them', async () => {
    const state = buildState();
    const clock = buildClock();
    const store = await SessionStore.load(state, { idleMs, now: clock.now });
    await store.set('secret-key', { userId: 'u1', csrfToken: 'c' });
    expect(state.docs.get('sessions')).to.not.include('secret-key');
    const reloaded = await SessionStore.load(state, { idleMs, now: clock.now });
    expect(reloaded.get('secret-key')).to.deep.equal({ userId: 'u1', csrfToken: 'c' });
    expect(reloaded.get('other-key')).to.equal(undefined);
  });

  it('drops expired sessions on load and destroys sessions by key or user', async () => {
    const state = buildState();
    const clock = buildClock();
    const store = await SessionStore.load(state, { idleMs, now: clock.now });
    await store.set('a', { userId: 'u1' });
    await store.set('b', { userId: 'u1' });
    await store.set('c', { userId: 'u2' });
    await store.destroy('c');
    expect(store.get('c')).to.equal(undefined);
    await store.destroyForUser('u1');
    expect(store.get('a')).to.equal(undefined);
    expect(store.get('b')).to.equal(undefined);
    await store.set('d', { userId: 'u3' });
    clock.advance(idleMs + 1);
    const reloaded = await SessionStore.load(state, { idleMs, now: clock.now });
    expect(reloaded.get('d')).to.equal(undefined);
  });

  it('does not write the state file on every read', async () => {
    const state = buildState();
    const clock = buildClock();
    const store = await SessionStore.load(state, { idleMs, now: clock.now });
    await store.set('k', { userId: 'u1' });
    const writesAfterLogin = state.writes.get('sessions');
    for (let i = 0; i < 100; i++) {
      clock.advance(100);
      store.get('k');
    }
    expect(state.writes.get('sessions')).to.equal(writesAfterLogin);
    await store.flush();
    expect(state.writes.get('sessions')).to.equal((writesAfterLogin ?? 0) + 1);
  });
});

describe('LoginThrottle', () => {
  function expectLimited(throttle: LoginThrottle, username: string, address: string): number {
    try {
      throttle.assertAllowed(username, address);
    } catch (error) {
      expect(error).to.be.instanceOf(AppError);
      expect((error as AppError).code).to.equal('rate_limited');
      return (error as AppError).details?.retryAfter as number;
    }
    return expect.fail('expected rate_limited');
  }

  it('allows 5 failures, then limits the username until the window passes', () => {
    const clock = buildClock();
    const throttle = new LoginThrottle({ now: clock.now });
    for (let i = 0; i < 5; i++) {
      throttle.assertAllowed('Ann', `10.0.0.${i}`);
      throttle.recordFailure('Ann', `10.0.0.${i}`);
      clock.advance(1000);
    }
    expect(expectLimited(throttle, 'ann', '10.0.0.99')).to.equal(15 * 60 - 5);
    clock.advance(15 * 60_000 - 5000);
    throttle.assertAllowed('ann', '10.0.0.99');
  });

  it('limits an address across usernames and forgets a username after success', () => {
    const clock = buildClock();
    const throttle = new LoginThrottle({ now: clock.now });
    for (let i = 0; i < 5; i++) throttle.recordFailure(`user${i}`, '10.0.0.1');
    expect(expectLimited(throttle, 'someone', '10.0.0.1')).to.equal(900);
    throttle.assertAllowed('someone', '10.0.0.2');

    for (let i = 0; i < 4; i++) throttle.recordFailure('bob', `10.1.0.${i}`);
    throttle.recordSuccess('bob');
    throttle.recordFailure('bob', '10.1.0.9');
    throttle.assertAllowed('bob', '10.1.0.10');
  });
});

describe('TokenService', () => {
  const grants: Grant[] = [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }];

  it('authenticates the exact plain token only', async () => {
    const tokens = await TokenService.load(buildState());
    const { record, token } = await tokens.create(ADMIN, { name: 'ci', permissions: grants });
    expect(token).to.match(/^cms_[0-9a-z]{16}_[0-9A-Za-z]{43}$/);
    expect(tokens.authenticate(token)).to.deep.equal({ kind: 'token', id: record.id, name: 'ci', grants });
    expect(tokens.authenticate(`${token}a`)).to.equal(undefined);
    expect(tokens.authenticate(token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a'))).to.equal(undefined);
    expect(tokens.authenticate('')).to.equal(undefined);
  });

  it('refuses a token once it has expired', async () => {
    const clock = buildClock();
    const tokens = await TokenService.load(buildState(), { now: clock.now });
    const { token } = await tokens.create(ADMIN, { name: 'short', permissions: grants, expires_at: new Date(clock.now() + 60_000).toISOString() });
    expect(tokens.authenticate(token)?.kind).to.equal('token');
    clock.advance(60_000);
    expect(tokens.authenticate(token)).to.equal(undefined);
  });

  it('stores only the hash and batches last_used_at writes', async () => {
    const state = buildState();
    const clock = buildClock();
    const tokens = await TokenService.load(state, { now: clock.now });
    const { token } = await tokens.create(ADMIN, { name: 'ci', permissions: grants });
    expect(state.docs.get('tokens')).to.not.include(token.split('_')[2]);
    const writes = state.writes.get('tokens');
    for (let i = 0; i < 50; i++) tokens.authenticate(token);
    expect(state.writes.get('tokens')).to.equal(writes);
    expect(tokens.list(ADMIN)[0].last_used_at).to.equal(new Date(clock.now()).toISOString());
    await tokens.flush();
    expect(state.writes.get('tokens')).to.equal((writes ?? 0) + 1);
    // A minute is the granularity: a use within it is not recorded, the next one after it is.
    const firstUse = new Date(clock.now()).toISOString();
    clock.advance(59_000);
    tokens.authenticate(token);
    expect(tokens.list(ADMIN)[0].last_used_at).to.equal(firstUse);
    clock.advance(1_000);
    tokens.authenticate(token);
    expect(tokens.list(ADMIN)[0].last_used_at).to.equal(new Date(clock.now()).toISOString());
  });

  it('needs tokens.* grants', async () => {
    const tokens = await TokenService.load(buildState());
    const reader: Principal = { kind: 'token', id: 't', name: 'reader', grants };
    expect(() => tokens.list(reader)).to.throw(AppError).with.property('code', 'forbidden');
    expect(() => tokens.list({ kind: 'anonymous' })).to.throw(AppError).with.property('code', 'unauthorized');
  });
});
