// Server-side admin sessions, kept in memory and persisted to the state
// folder so they survive a restart. The cookie carries only a random key;
// the file holds its SHA-256, so a leaked state file does not leak sessions.
// Idle expiry is decided here, not by the cookie.
import { createHash } from 'node:crypto';
import { StateFile, type JsonState } from '../state/state-file.ts';

/** One stored session: its data (user, CSRF token) and times; keyed by the SHA-256 of the cookie's key. */
export interface StoredSession {
  data: Record<string, unknown>;
  created_at: number;
  last_seen_at: number;
}

/** Every session, keyed by the SHA-256 of its key. */
export type SessionMap = Record<string, StoredSession>;

/** How the store is tuned; `now` exists for tests. */
export interface SessionStoreOptions {
  /** Idle lifetime in milliseconds (config.sessionIdleMs). */
  idleMs: number;
  now?: () => number;
}

// Touches are saved lazily: losing up to this much "last seen" time in a
// crash only shortens a session's idle window a little.
const TOUCH_SAVE_DELAY_MS = 15_000;
// A touch younger than this is not even marked for saving.
const TOUCH_GRANULARITY_MS = 5_000;

/** The session table behind koa-session's external store (see http/session.ts). */
export class SessionStore {
  private readonly file: StateFile<SessionMap>;
  private readonly idleMs: number;
  private readonly now: () => number;

  private constructor(file: StateFile<SessionMap>, options: SessionStoreOptions) {
    this.file = file;
    this.idleMs = options.idleMs;
    this.now = options.now ?? Date.now;
  }

  /** Loads the `sessions` state document and drops expired sessions. Throws what the state store throws. */
  static async load(state: JsonState, options: SessionStoreOptions): Promise<SessionStore> {
    const file = await StateFile.open<SessionMap>(state, 'sessions', {});
    const store = new SessionStore(file, options);
    store.sweep();
    return store;
  }

  /** The live session for `key` (and marks it as used), or undefined when unknown or idle too long. */
  get(key: string): Record<string, unknown> | undefined {
    const id = hashKey(key);
    const session = this.file.value[id];
    if (!session) return undefined;
    const now = this.now();
    if (now - session.last_seen_at > this.idleMs) {
      delete this.file.value[id];
      this.file.saveSoon(TOUCH_SAVE_DELAY_MS);
      return undefined;
    }
    if (now - session.last_seen_at > TOUCH_GRANULARITY_MS) {
      session.last_seen_at = now;
      this.file.saveSoon(TOUCH_SAVE_DELAY_MS);
    }
    return session.data;
  }

  /** Whether the session for `key` exists and is not idle too long; unlike get(), asking does not count as use. */
  isLive(key: string): boolean {
    const session = this.file.value[hashKey(key)];
    return session !== undefined && this.now() - session.last_seen_at <= this.idleMs;
  }

  /** Creates or replaces the session for `key` and saves at once (logins must survive a crash). */
  async set(key: string, data: Record<string, unknown>): Promise<void> {
    const id = hashKey(key);
    const now = this.now();
    const created = this.file.value[id]?.created_at ?? now;
    this.file.value[id] = { data, created_at: created, last_seen_at: now };
    this.sweep();
    await this.file.save();
  }

  /** Ends the session for `key` (logout) and saves at once. */
  async destroy(key: string): Promise<void> {
    const id = hashKey(key);
    if (!(id in this.file.value)) return;
    delete this.file.value[id];
    await this.file.save();
  }

  /** Ends every session of a user, e.g. after the user was deleted or their password reset. */
  async destroyForUser(userId: string): Promise<void> {
    let changed = false;
    for (const [id, session] of Object.entries(this.file.value)) {
      if (session.data.userId === userId) {
        delete this.file.value[id];
        changed = true;
      }
    }
    if (changed) await this.file.save();
  }

  /** Every session as stored (hashed keys only), for replicas (docs/deployment.md). */
  all(): Readonly<SessionMap> {
    return this.file.value;
  }

  /** Replaces every session with a primary's (on a replica) and saves them. Throws what the state store throws. */
  async restore(sessions: SessionMap): Promise<void> {
    await this.file.replace({ ...sessions });
  }

  /** Writes pending "last seen" updates; called on shutdown. */
  flush(): Promise<void> {
    return this.file.flush();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, session] of Object.entries(this.file.value)) {
      if (now - session.last_seen_at > this.idleMs) delete this.file.value[id];
    }
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
