// Webhooks (API.md "Webhooks"): the configured receivers, kept in the state
// folder with their secrets, and the log of delivery attempts. Delivering
// (the persistent queue, signing, retries) lives in webhook-dispatcher.ts;
// which domain operation emits which event lives with those operations.
import { customAlphabet } from 'nanoid';
import { validationFailed, type FieldErrors } from '../../errors/app-error.ts';
import type { StateStore } from '../../storage/state-store.ts';
import { authorize } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import { StateFile } from '../state/state-file.ts';
import { EVENT_TYPES, type EventType } from '../model/events.ts';

/** A stored webhook; `secret` never leaves the domain (presenters show `has_secret`). */
export interface WebhookRecord {
  id: string;
  url: string;
  secret: string | null;
  /** Event names, or `*` for every event. */
  events: string[];
  enabled: boolean;
  /**
   * Batched delivery: one `content.batch` per commit instead of one event per
   * entry (webhook-batches.ts), and one `media.batch` per change instead of one
   * per media file (media-batches.ts). Absent on webhooks stored before it existed: false.
   */
  batch?: boolean;
  created_at: string;
  updated_at: string;
}

/** One webhook of a PUT body; a missing `secret` on an existing id keeps the stored one. */
export interface WebhookInput {
  id?: string;
  url: string;
  secret?: string | null;
  events: string[];
  enabled?: boolean;
  /** Batched delivery (WebhookRecord.batch); defaults to false, kept when omitted on an existing id. */
  batch?: boolean;
}

/** One delivery attempt as recorded in the deliveries log. */
export interface DeliveryAttempt {
  /** The delivery id (X-Service-Delivery); the same for every attempt of one delivery. */
  id: string;
  webhook_id: string;
  event: string;
  url: string;
  attempt: number;
  /** The receiver's HTTP status, or null when no answer came (timeout, refused). */
  status_code: number | null;
  duration_ms: number;
  ok: boolean;
  error: string | null;
  attempted_at: string;
  /** When the next attempt is due, or null when this was the last one. */
  next_attempt_at: string | null;
  /** On the last attempt of a delivery that failed: its body, so it can be retried by hand. Never shown. */
  body?: string;
}

/** State document and log names. */
export const WEBHOOKS_DOCUMENT = 'webhooks';
/** The state log of delivery attempts. */
export const DELIVERIES_LOG = 'webhook-deliveries';

const MAX_WEBHOOKS = 100;
const MAX_URL = 2048;
const MAX_SECRET = 512;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const newWebhookId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 12);
/** The grant every webhook route asks for. */
export const WEBHOOKS_ACCESS = { action: 'webhooks.manage', resource: 'webhooks:*', workspace: ALL_WORKSPACES };

/** The webhook configuration and delivery log; created once by services.ts. */
export class WebhookService {
  private constructor(
    private readonly file: StateFile<WebhookRecord[]>,
    private readonly state: Pick<StateStore, 'readLines'>,
    private readonly now: () => number,
  ) {}

  /** Loads the `webhooks` state document. Throws what the state store throws. */
  static async load(state: Pick<StateStore, 'read' | 'write' | 'readLines'>, options: { now?: () => number } = {}): Promise<WebhookService> {
    return new WebhookService(await StateFile.open<WebhookRecord[]>(state, WEBHOOKS_DOCUMENT, []), state, options.now ?? Date.now);
  }

  /** The configured webhooks. Throws unauthorized/forbidden without `webhooks.manage`. */
  list(principal: Principal): readonly WebhookRecord[] {
    authorize(principal, WEBHOOKS_ACCESS);
    return this.file.value;
  }

  /**
   * Replaces the whole set. Throws forbidden without `webhooks.manage` and
   * validation_failed naming each bad item (`webhooks.{n}.url`, …): URLs must be http(s).
   */
  async replace(principal: Principal, inputs: WebhookInput[]): Promise<readonly WebhookRecord[]> {
    authorize(principal, WEBHOOKS_ACCESS);
    const now = new Date(this.now()).toISOString();
    const next = normalizeWebhooks(inputs, this.file.value, now);
    await this.file.replace(next);
    return next;
  }

  /**
   * Replaces the set with records read from a backup, as they are. Used by
   * restores, which check the caller's grants and the records themselves.
   */
  async restore(records: WebhookRecord[]): Promise<void> {
    await this.file.replace(records);
  }

  /** Every webhook, secrets included, for backups; callers check their own grants. */
  all(): readonly WebhookRecord[] {
    return this.file.value;
  }

  /** The enabled webhooks subscribed to `event` (read on every event, so edits apply at once). */
  subscribers(event: EventType): WebhookRecord[] {
    return this.file.value.filter((hook) => hook.enabled && (hook.events.includes('*') || hook.events.includes(event)));
  }

  /** The webhook with this id, enabled or not. */
  find(id: string): WebhookRecord | undefined {
    return this.file.value.find((hook) => hook.id === id);
  }

  /**
   * Delivery attempts, newest first, paged. Throws forbidden without `webhooks.manage`.
   */
  async deliveries(principal: Principal, page: { limit: number; offset: number }): Promise<{ attempts: DeliveryAttempt[]; total: number }> {
    authorize(principal, WEBHOOKS_ACCESS);
    const lines = await this.state.readLines(DELIVERIES_LOG);
    const attempts: DeliveryAttempt[] = [];
    for (const line of lines.reverse()) {
      try {
        attempts.push(JSON.parse(line) as DeliveryAttempt);
      } catch {
        // A line cut short by a crash is skipped rather than failing the list.
      }
    }
    return { attempts: attempts.slice(page.offset, page.offset + page.limit), total: attempts.length };
  }

  /** The last attempt of delivery `id` when it gave up (with its body), else undefined. Throws what reading the log throws. */
  async failedDelivery(id: string): Promise<(DeliveryAttempt & { body: string }) | undefined> {
    const lines = await this.state.readLines(DELIVERIES_LOG);
    for (const line of lines.reverse()) {
      let attempt: DeliveryAttempt;
      try {
        attempt = JSON.parse(line) as DeliveryAttempt;
      } catch {
        continue;
      }
      if (attempt.id !== id) continue;
      return attempt.ok || attempt.body === undefined ? undefined : (attempt as DeliveryAttempt & { body: string });
    }
    return undefined;
  }
}

/**
 * Validates a PUT body's webhooks against the stored ones: ids unique and
 * well-formed, http(s) URLs, known events, secrets kept when omitted.
 * Throws validation_failed with one message per bad field.
 */
export function normalizeWebhooks(inputs: WebhookInput[], current: readonly WebhookRecord[], now: string): WebhookRecord[] {
  const fields: FieldErrors = {};
  if (inputs.length > MAX_WEBHOOKS) fields.webhooks = `At most ${MAX_WEBHOOKS} webhooks can be configured.`;
  const seen = new Set<string>();
  const records = inputs.map((input, position): WebhookRecord => {
    const at = `webhooks.${position}`;
    const existing = input.id === undefined ? undefined : current.find((hook) => hook.id === input.id);
    if (input.id !== undefined && !ID.test(input.id)) fields[`${at}.id`] = 'Use 1 to 64 letters, digits, hyphens or underscores.';
    if (input.id !== undefined && seen.has(input.id)) fields[`${at}.id`] = `The id "${input.id}" appears twice.`;
    if (input.id !== undefined) seen.add(input.id);
    const urlProblem = checkUrl(input.url);
    if (urlProblem) fields[`${at}.url`] = urlProblem;
    const eventsProblem = checkEvents(input.events);
    if (eventsProblem) fields[`${at}.events`] = eventsProblem;
    if (typeof input.secret === 'string' && input.secret.length > MAX_SECRET) fields[`${at}.secret`] = `Use at most ${MAX_SECRET} characters.`;
    const secret = input.secret === undefined ? (existing?.secret ?? null) : input.secret === '' ? null : input.secret;
    return {
      id: input.id ?? newWebhookId(),
      url: input.url,
      secret,
      events: [...new Set(input.events)],
      enabled: input.enabled ?? true,
      batch: input.batch ?? existing?.batch ?? false,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
  });
  if (Object.keys(fields).length > 0) throw validationFailed(fields, 'The webhooks did not pass validation.');
  return records;
}

function checkUrl(value: string): string | undefined {
  if (value.length > MAX_URL) return `Use at most ${MAX_URL} characters.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Use an absolute http:// or https:// URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http:// and https:// URLs are allowed.';
  return undefined;
}

function checkEvents(events: string[]): string | undefined {
  if (events.length === 0) return 'Name at least one event, or "*" for all.';
  const known = new Set<string>([...EVENT_TYPES, '*']);
  const unknown = events.filter((event) => !known.has(event));
  if (unknown.length > 0) return `Unknown event "${unknown[0]}"; use one of: ${EVENT_TYPES.join(', ')} or "*".`;
  return undefined;
}
