// API tokens (API.md "Tokens and grants"): `cms_{tokenId}_{secret}`, of which
// only the SHA-256 of the secret is stored. Lookup is by id plus one
// constant-time comparison, all in memory, so a token-authenticated request
// costs about what an anonymous one does.
import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { customAlphabet } from 'nanoid';
import { AppError, notFound } from '../../errors/app-error.ts';
import { authorize } from './authorize.ts';
import { validateGrants } from './grant-validation.ts';
import { ALL_WORKSPACES } from './grants.ts';
import { actorIdOf, type Grant, type Principal } from './principal.ts';
import { StateFile, type JsonState } from '../state/state-file.ts';
import { assertHoldsAtLeast } from './grant-coverage.ts';

/** A stored token; `hash` never leaves the domain (presenters drop it). */
export interface TokenRecord {
  id: string;
  name: string;
  description: string;
  permissions: Grant[];
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  last_used_at: string | null;
  hash: string;
}

/** Body of POST /admin/api/tokens. */
export interface CreateTokenInput {
  name: string;
  description?: string;
  permissions: unknown;
  expires_at?: string | null;
}

const ID_LENGTH = 16;
const SECRET_LENGTH = 43; // 43 base62 characters ≈ 256 bits
const newTokenId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', ID_LENGTH);
const newSecret = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', SECRET_LENGTH);
const TOKEN_FORMAT = new RegExp(`^cms_([0-9a-z]{${ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})$`);
// "Last used" is tracked to the minute and written in batches, never per request.
const LAST_USED_GRANULARITY_MS = 60_000;
const LAST_USED_SAVE_DELAY_MS = 10_000;
const MAX_NAME = 100;
const MAX_DESCRIPTION = 500;

// Per token: its record, and what each request would otherwise derive from it again.
interface TokenEntry {
  record: TokenRecord;
  hash: Buffer;
  expiresAt: number;
  lastUsedAt: number;
  principal: Principal;
}

/** Token management for the admin API and token lookup for authenticate(). */
export class TokenService {
  private readonly file: StateFile<TokenRecord[]>;
  private byId = new Map<string, TokenEntry>();
  private readonly now: () => number;

  private constructor(file: StateFile<TokenRecord[]>, now: () => number) {
    this.file = file;
    this.now = now;
    this.index();
  }

  /** Loads the `tokens` state document. Throws what the state store throws. */
  static async load(state: JsonState, options: { now?: () => number } = {}): Promise<TokenService> {
    return new TokenService(await StateFile.open<TokenRecord[]>(state, 'tokens', []), options.now ?? Date.now);
  }

  /**
   * The principal for a plain bearer token, or undefined when it is malformed
   * (extra characters included), unknown, revoked or expired. Throws nothing.
   */
  authenticate(plain: string): Principal | undefined {
    const match = TOKEN_FORMAT.exec(plain);
    if (!match) return undefined;
    const entry = this.byId.get(match[1]);
    if (!entry) return undefined;
    const presented = hash('sha256', match[2], 'buffer');
    if (presented.length !== entry.hash.length || !timingSafeEqual(presented, entry.hash)) return undefined;
    return this.principalOfVerified(entry.record.id);
  }

  /**
   * The principal for a token whose secret this process already checked
   * (authenticate()), looked up again so a revoked or expired one is refused
   * at once; undefined when it is gone. The caller answers for the check.
   */
  principalOfVerified(id: string): Principal | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    const now = this.now();
    if (now >= entry.expiresAt) return undefined;
    this.markUsed(entry, now);
    return entry.principal;
  }

  /** All tokens, newest first. Throws forbidden (403) without `tokens.read`. */
  list(principal: Principal): TokenRecord[] {
    authorize(principal, { action: 'tokens.read', resource: 'tokens:*', workspace: ALL_WORKSPACES });
    return [...this.file.value].reverse();
  }

  /**
   * Creates a token and returns its record and the plain token, which is never
   * shown again. Throws forbidden (403), validation_failed (422) for a bad name, grants or expiry.
   */
  async create(principal: Principal, input: CreateTokenInput): Promise<{ record: TokenRecord; token: string }> {
    authorize(principal, { action: 'tokens.create', resource: 'tokens:*', workspace: ALL_WORKSPACES });
    const name = input.name.trim();
    if (name === '' || name.length > MAX_NAME) throw fieldError('name', `Use 1 to ${MAX_NAME} characters.`);
    const description = (input.description ?? '').trim();
    if (description.length > MAX_DESCRIPTION) throw fieldError('description', `Use at most ${MAX_DESCRIPTION} characters.`);
    const permissions = validateGrants(input.permissions);
    assertHoldsAtLeast(principal, permissions, 'create this token');
    const expiresAt = this.checkExpiry(input.expires_at ?? null);
    const id = newTokenId();
    const secret = newSecret();
    const record: TokenRecord = {
      id,
      name,
      description,
      permissions,
      created_at: new Date(this.now()).toISOString(),
      created_by: actorIdOf(principal) ?? null,
      expires_at: expiresAt,
      last_used_at: null,
      hash: createHash('sha256').update(secret).digest('hex'),
    };
    await this.file.replace([...this.file.value, record]);
    this.index();
    return { record, token: `cms_${id}_${secret}` };
  }

  /** Revokes (deletes) a token; it stops working at once. Throws forbidden (403), not_found (404). */
  async revoke(principal: Principal, id: string): Promise<void> {
    authorize(principal, { action: 'tokens.revoke', resource: `tokens:${id}`, workspace: ALL_WORKSPACES });
    if (!this.byId.has(id)) throw notFound(`No token "${id}".`);
    await this.file.replace(this.file.value.filter((record) => record.id !== id));
    this.index();
  }

  /** Every token record, hashes included, for backups; callers check their own grants. */
  all(): readonly TokenRecord[] {
    return this.file.value;
  }

  /** Replaces the token set with records from a backup and starts accepting them; restores check grants and records first. */
  async restore(records: TokenRecord[]): Promise<void> {
    await this.file.replace(records);
    this.index();
  }

  /** Writes pending "last used" times; called on shutdown. */
  flush(): Promise<void> {
    return this.file.flush();
  }

  private markUsed(entry: TokenEntry, now: number): void {
    if (now - entry.lastUsedAt < LAST_USED_GRANULARITY_MS) return;
    entry.lastUsedAt = now;
    entry.record.last_used_at = new Date(now).toISOString();
    this.file.saveSoon(LAST_USED_SAVE_DELAY_MS);
  }

  private checkExpiry(value: string | null): string | null {
    if (value === null) return null;
    const time = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(time)) throw fieldError('expires_at', 'Use an ISO 8601 date-time.');
    if (time <= this.now()) throw fieldError('expires_at', 'The expiry must be in the future.');
    return new Date(time).toISOString();
  }

  private index(): void {
    this.byId = new Map(
      this.file.value.map((record) => [
        record.id,
        {
          record,
          hash: Buffer.from(record.hash, 'hex'),
          expiresAt: record.expires_at === null ? Infinity : Date.parse(record.expires_at),
          lastUsedAt: record.last_used_at === null ? 0 : Date.parse(record.last_used_at),
          principal: { kind: 'token', id: record.id, name: record.name, grants: record.permissions },
        },
      ]),
    );
  }
}

function fieldError(field: string, message: string): AppError {
  return new AppError('validation_failed', `The token ${field} is not valid.`, { fields: { [field]: message } });
}
