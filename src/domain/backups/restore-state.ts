// Restoring the state-folder parts of a backup: webhooks, and users with
// roles and tokens. Records are checked field by field before anything is
// stored; without overwrite, records whose id exists are kept as they are.
import { isAppError } from '../../errors/app-error.ts';
import { ADMIN_ROLE, type AccountStore, type RoleRecord, type UserRecord } from '../auth/account-store.ts';
import { validateGrants } from '../auth/grant-validation.ts';
import type { TokenRecord, TokenService } from '../auth/token-service.ts';
import { normalizeWebhooks, type WebhookRecord, type WebhookService } from '../webhooks/webhook-service.ts';
import { unreadable } from './backup-format.ts';

/** Counts of one state part's restore. */
export interface StateTally {
  restored: number;
  kept: number;
}

/** The parsed, checked records of the users part. */
export interface UsersPart {
  users: UserRecord[];
  roles: RoleRecord[];
  tokens: TokenRecord[];
}

const ISO = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));
const TEXT = (value: unknown): value is string => typeof value === 'string';

/** Checks the webhooks of an archive (as the PUT route would). Throws validation_failed naming the file. */
export function checkWebhooks(records: Record<string, unknown>[], current: readonly WebhookRecord[]): WebhookRecord[] {
  try {
    const inputs = records.map((record) => ({
      id: TEXT(record.id) ? record.id : undefined,
      url: TEXT(record.url) ? record.url : '',
      secret: TEXT(record.secret) && record.secret !== '' ? record.secret : undefined,
      events: Array.isArray(record.events) && record.events.every(TEXT) ? record.events : [],
      enabled: typeof record.enabled === 'boolean' ? record.enabled : true,
      batch: record.batch === true,
    }));
    const checked = normalizeWebhooks(inputs, current, new Date().toISOString());
    return checked.map((hook, i) => ({ ...hook, created_at: ISO(records[i].created_at) ? records[i].created_at : hook.created_at }));
  } catch (error) {
    if (isAppError(error)) throw unreadable(`state/webhooks.json holds an invalid webhook (${Object.keys(error.fields ?? {})[0] ?? 'unknown field'}).`);
    throw error;
  }
}

/** Merges checked webhooks into the configured set; a webhook without a secret keeps the one it has. */
export async function restoreWebhooks(service: Pick<WebhookService, 'find' | 'restore'> & { all(): readonly WebhookRecord[] }, hooks: WebhookRecord[], overwrite: boolean): Promise<StateTally> {
  const tally: StateTally = { restored: 0, kept: 0 };
  const byId = new Map(service.all().map((hook) => [hook.id, hook]));
  for (const hook of hooks) {
    const existing = byId.get(hook.id);
    if (existing && !overwrite) {
      tally.kept += 1;
      continue;
    }
    byId.set(hook.id, { ...hook, secret: hook.secret ?? existing?.secret ?? null });
    tally.restored += 1;
  }
  await service.restore([...byId.values()]);
  return tally;
}

/**
 * Checks the users part of an archive: roles always, users and tokens only
 * when the archive holds their hashes. Throws validation_failed naming the bad record.
 */
export function checkUsersPart(users: Record<string, unknown>[], roles: Record<string, unknown>[], tokens: Record<string, unknown>[], withSecrets: boolean): UsersPart {
  const checkedRoles = roles.map(checkRole);
  if (!withSecrets) return { users: [], roles: checkedRoles, tokens: [] };
  return { users: users.map(checkUser), roles: checkedRoles, tokens: tokens.map(checkToken) };
}

function checkRole(record: Record<string, unknown>, i: number): RoleRecord {
  if (!TEXT(record.id) || !/^[a-z0-9-]{1,64}$/.test(record.id) || !TEXT(record.label)) throw unreadable(`state/roles.json has an invalid role at ${i}.`);
  return { id: record.id, label: record.label, permissions: grantsOf(record, 'state/roles.json'), builtin: record.builtin === true, created_at: stamp(record.created_at), updated_at: stamp(record.updated_at) };
}

function checkUser(record: Record<string, unknown>, i: number): UserRecord {
  const { id, username, role, password_hash: hash } = record;
  if (!TEXT(id) || !TEXT(username) || username === '' || !TEXT(role) || !TEXT(hash) || hash === '') throw unreadable(`state/users.json has an invalid user at ${i}.`);
  return {
    id,
    username,
    display_name: TEXT(record.display_name) ? record.display_name : '',
    email: TEXT(record.email) ? record.email : '',
    role,
    password_hash: hash,
    avatar: null,
    created_at: stamp(record.created_at),
    updated_at: stamp(record.updated_at),
  };
}

function checkToken(record: Record<string, unknown>, i: number): TokenRecord {
  const { id, name, hash } = record;
  if (!TEXT(id) || !/^[0-9a-z]{16}$/.test(id) || !TEXT(name) || !TEXT(hash) || !/^[0-9a-f]{64}$/.test(hash)) throw unreadable(`state/tokens.json has an invalid token at ${i}.`);
  return {
    id,
    name,
    description: TEXT(record.description) ? record.description : '',
    permissions: grantsOf(record, 'state/tokens.json'),
    created_at: stamp(record.created_at),
    created_by: TEXT(record.created_by) ? record.created_by : null,
    expires_at: ISO(record.expires_at) ? record.expires_at : null,
    last_used_at: ISO(record.last_used_at) ? record.last_used_at : null,
    hash,
  };
}

function grantsOf(record: Record<string, unknown>, file: string): RoleRecord['permissions'] {
  try {
    return validateGrants(record.permissions);
  } catch {
    throw unreadable(`${file} has invalid grants for "${String(record.id)}".`);
  }
}

/**
 * Merges the users part into the stores. The built-in admin role is never
 * replaced; a user whose username another user has, or whose role does not
 * exist, is skipped. Returns tallies per record kind and notes.
 */
export async function restoreUsersPart(
  stores: { accounts: AccountStore; tokens: Pick<TokenService, 'all' | 'restore'> },
  part: UsersPart,
  overwrite: boolean,
): Promise<{ users: StateTally; roles: StateTally; tokens: StateTally; notes: string[] }> {
  const notes: string[] = [];
  const roles = merge(stores.accounts.roles(), part.roles.filter((role) => role.id !== ADMIN_ROLE), overwrite);
  const roleIds = new Set(roles.records.map((role) => role.id));
  const usable = part.users.filter((user) => {
    const taken = stores.accounts.findUserByUsername(user.username);
    return roleIds.has(user.role) && (taken === undefined || taken.id === user.id);
  });
  if (usable.length < part.users.length) notes.push(`${part.users.length - usable.length} users were skipped: their username is taken by another user or their role does not exist.`);
  const users = merge(stores.accounts.users(), usable, overwrite);
  const tokens = merge(stores.tokens.all(), part.tokens, overwrite);
  await stores.accounts.replaceRoles(roles.records);
  if (part.users.length > 0) await stores.accounts.replaceUsers(users.records);
  if (part.tokens.length > 0) await stores.tokens.restore(tokens.records);
  return { users: users.tally, roles: roles.tally, tokens: tokens.tally, notes };
}

function merge<T extends { id: string }>(current: readonly T[], incoming: T[], overwrite: boolean): { records: T[]; tally: StateTally } {
  const tally: StateTally = { restored: 0, kept: 0 };
  const byId = new Map(current.map((record) => [record.id, record]));
  for (const record of incoming) {
    if (byId.has(record.id) && !overwrite) {
      tally.kept += 1;
      continue;
    }
    byId.set(record.id, record);
    tally.restored += 1;
  }
  return { records: [...byId.values()], tally };
}

function stamp(value: unknown): string {
  return ISO(value) ? value : new Date().toISOString();
}
