// What reaches replicas besides the content repo: users, roles, token
// hashes, sessions (hashed keys) and the keys that sign session cookies, so
// a token, a sign-in or a role change made on the primary works on every
// replica. It travels only over the primary's authenticated replication
// endpoint and lands in the replica's own state folder: never in git.
import type { AccountStore, RoleRecord, UserRecord } from '../auth/account-store.ts';
import type { SessionMap, SessionStore } from '../auth/session-store.ts';
import type { TokenRecord, TokenService } from '../auth/token-service.ts';
import type { JsonState } from '../state/state-file.ts';

/** GET /replication/v1/state: the replicated state at `version`. */
export interface ReplicatedState {
  version: string;
  users: UserRecord[];
  roles: RoleRecord[];
  tokens: TokenRecord[];
  sessions: SessionMap;
  session_keys: string[];
}

/** The stores a snapshot is read from (primary) or written to (replica). */
export interface StateStores {
  accounts: AccountStore;
  tokens: TokenService;
  sessions: SessionStore;
  /** The cookie-signing keys the app uses; a replica changes this very array, so the running app signs with the primary's keys. */
  sessionKeys: string[];
  state: JsonState;
}

/** The replicated state as it is now (primary). */
export function readReplicatedState(stores: StateStores, version: string): ReplicatedState {
  return {
    version,
    users: [...stores.accounts.users()],
    roles: [...stores.accounts.roles()],
    tokens: [...stores.tokens.all()],
    sessions: { ...stores.sessions.all() },
    session_keys: [...stores.sessionKeys],
  };
}

/** Makes a replica's stores hold `snapshot` (and saves them, so a restart without the primary keeps them). Throws what the state store throws. */
export async function applyReplicatedState(stores: StateStores, snapshot: ReplicatedState): Promise<void> {
  await stores.accounts.replaceRoles(snapshot.roles);
  await stores.accounts.replaceUsers(snapshot.users);
  await stores.tokens.restore(snapshot.tokens);
  await stores.sessions.restore(snapshot.sessions);
  if (snapshot.session_keys.length > 0) {
    await stores.state.write('session-keys', { keys: snapshot.session_keys });
    stores.sessionKeys.splice(0, stores.sessionKeys.length, ...snapshot.session_keys);
  }
}

/** Checks the shape of a snapshot from the primary; undefined when it is not one. Throws nothing. */
export function parseReplicatedState(value: unknown): ReplicatedState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { version, users, roles, tokens, sessions, session_keys: keys } = value as Record<string, unknown>;
  if (typeof version !== 'string' || !Array.isArray(users) || !Array.isArray(roles) || !Array.isArray(tokens) || !Array.isArray(keys)) return undefined;
  if (typeof sessions !== 'object' || sessions === null || Array.isArray(sessions)) return undefined;
  if (!keys.every((key): key is string => typeof key === 'string' && key.length >= 32)) return undefined;
  return { version, users, roles, tokens, sessions: sessions as SessionMap, session_keys: keys };
}
