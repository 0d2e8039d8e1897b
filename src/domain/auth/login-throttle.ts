// Login throttling (API.md "Admin session"): after 5 failed logins for one
// username or from one address within 15 minutes, further attempts get
// rate_limited until the oldest counted failure leaves the window. Kept in
// memory on purpose: a restart forgiving failures is acceptable.
import { AppError } from '../../errors/app-error.ts';

/** Limits of the throttle; tests shorten nothing, they inject `now`. */
export interface LoginThrottleOptions {
  maxFailures?: number;
  windowMs?: number;
  now?: () => number;
}

// Bounds memory when someone sprays many usernames or addresses.
const MAX_KEYS = 10_000;

/** Counts failed logins per username and per client address. */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: LoginThrottleOptions = {}) {
    this.maxFailures = options.maxFailures ?? 5;
    this.windowMs = options.windowMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Refuses an attempt for a throttled username or address, before any
   * password is checked. Throws rate_limited (429) with details.retryAfter in seconds.
   */
  assertAllowed(username: string, address: string): void {
    const waitMs = Math.max(this.waitFor(userKey(username)), this.waitFor(addressKey(address)));
    if (waitMs > 0) {
      throw new AppError('rate_limited', 'Too many failed logins. Try again later.', { details: { retryAfter: Math.ceil(waitMs / 1000) } });
    }
  }

  /** Counts one failed attempt against both the username and the address. */
  recordFailure(username: string, address: string): void {
    if (this.failures.size >= MAX_KEYS) this.prune();
    const now = this.now();
    for (const key of [userKey(username), addressKey(address)]) {
      const list = this.recent(key);
      list.push(now);
      this.failures.set(key, list);
    }
  }

  /** Forgets the failures of a username after a successful login (the address keeps its count). */
  recordSuccess(username: string): void {
    this.failures.delete(userKey(username));
  }

  private waitFor(key: string): number {
    const list = this.recent(key);
    if (list.length < this.maxFailures) return 0;
    // The attempt is allowed again once enough failures have aged out.
    const releasing = list[list.length - this.maxFailures];
    return releasing + this.windowMs - this.now();
  }

  private recent(key: string): number[] {
    const stored = this.failures.get(key);
    if (!stored) return [];
    const cutoff = this.now() - this.windowMs;
    const list = stored.filter((time) => time > cutoff);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  private prune(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
    if (this.failures.size >= MAX_KEYS) this.failures.clear();
  }
}

function userKey(username: string): string {
  return `user:${username.toLowerCase()}`;
}

function addressKey(address: string): string {
  return `addr:${address}`;
}
