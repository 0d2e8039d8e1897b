// Delivers domain events to webhooks: a persistent queue in the state folder
// (so pending deliveries survive a restart), a POST per attempt with the
// signed JSON body of API.md, a timeout per attempt and retries with
// exponential backoff. Nothing here ever runs on a request's path: events are
// queued from the EventBus, after the commit that caused them.
import { createHmac, randomUUID } from 'node:crypto';
import type { WebhookSettings } from '../../config/config.ts';
import type { StateStore } from '../../storage/state-store.ts';
import type { DomainEvent, EventType } from '../model/events.ts';
import { isMediaType, MEDIA_BATCH_EVENT, mediaBatchBody, mediaBatches } from './media-batches.ts';
import { BATCH_EVENT, batchBody, commitBatches, isBatched } from './webhook-batches.ts';
import { DELIVERIES_LOG, type DeliveryAttempt, type WebhookRecord } from './webhook-service.ts';

/** The event of a test delivery: sent to one webhook on request, whatever events it subscribes to. */
export const TEST_EVENT = 'webhook.test';

/** A delivery waiting for its next attempt. */
export interface PendingDelivery {
  id: string;
  webhook_id: string;
  /** The event's name (an EventType, or TEST_EVENT), sent as X-Service-Event. */
  event: string;
  /** The exact JSON body, signed again at every attempt. */
  body: string;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (epoch ms). */
  next_at: number;
}

/** What the dispatcher needs to know about the configured webhooks. */
export interface WebhookDirectory {
  subscribers(event: EventType): WebhookRecord[];
  find(id: string): WebhookRecord | undefined;
}

/** What the dispatcher needs: its queue's state, the webhooks, delivery settings and an error sink. */
export interface DispatcherOptions {
  state: Pick<StateStore, 'read' | 'write' | 'appendLine'>;
  webhooks: WebhookDirectory;
  settings: WebhookSettings;
  /** Reports failures of the queue itself (a delivery that fails is recorded, not reported). */
  onError: (message: string, details: Record<string, unknown>) => void;
  /** Told once about each delivery whose last attempt failed (the activity log records it). */
  onGaveUp?: (attempt: DeliveryAttempt, workspace: string | undefined) => void;
  fetch?: typeof fetch;
  now?: () => number;
  /** Attempts in flight at once. */
  concurrency?: number;
}

/** The state document holding the queue. */
export const QUEUE_DOCUMENT = 'webhook-queue';
// A receiver that is down for long must not grow the state file without bound.
const MAX_PENDING = 10_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Computes the `X-Service-Signature` header value: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The JSON body of a delivery (API.md "Webhooks"); `commit` is null for events no commit caused. */
export function deliveryBody(event: DomainEvent): string {
  return JSON.stringify({ event: event.type, occurred_at: event.occurredAt, workspace: event.workspace, commit: event.commit ?? null, data: event.data });
}

/**
 * The delivery queue and its worker. Created once by services.ts with
 * start(); enqueueGroup() is the EventBus group listener; close() stops the worker and
 * leaves unfinished deliveries in the queue for the next start.
 */
export class WebhookDispatcher {
  private queue: PendingDelivery[] = [];
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly shutdown = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly concurrency: number;

  private constructor(private readonly options: DispatcherOptions) {
    this.fetch = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.concurrency = options.concurrency ?? 4;
  }

  /**
   * Loads the queue and starts delivering. A retry that a previous run
   * scheduled further out than the current backoff allows is brought forward.
   */
  static async start(options: DispatcherOptions): Promise<WebhookDispatcher> {
    const dispatcher = new WebhookDispatcher(options);
    const stored = await options.state.read<PendingDelivery[]>(QUEUE_DOCUMENT, []);
    const now = dispatcher.now();
    dispatcher.queue = stored.map((delivery) => ({ ...delivery, next_at: Math.min(delivery.next_at, now + dispatcher.backoff(delivery.attempts)) }));
    dispatcher.run();
    return dispatcher;
  }

  /**
   * Queues the deliveries of one group of events (one commit's): one per
   * enabled webhook subscribed to each event, except that a batched webhook
   * gets the group's entry events as one `content.batch` per workspace, and
   * its media events as one `media.batch` per workspace.
   * Never throws; failures are reported.
   */
  async enqueueGroup(events: readonly DomainEvent[]): Promise<void> {
    if (this.shutdown.signal.aborted) return;
    const wanted: Pick<PendingDelivery, 'webhook_id' | 'event' | 'body'>[] = [];
    for (const event of events) {
      const hooks = this.options.webhooks.subscribers(event.type).filter((hook) => !(hook.batch === true && (isBatched(event) || isMediaType(event.type))));
      const body = deliveryBody(event);
      for (const hook of hooks) wanted.push({ webhook_id: hook.id, event: event.type, body });
    }
    for (const batch of commitBatches(events)) wanted.push(...this.batchDeliveries(batch.types, BATCH_EVENT, batchBody(batch)));
    for (const batch of mediaBatches(events)) wanted.push(...this.batchDeliveries(batch.types, MEDIA_BATCH_EVENT, mediaBatchBody(batch)));
    if (wanted.length === 0) return;
    const room = Math.max(MAX_PENDING - this.queue.length, 0);
    if (room < wanted.length) {
      this.options.onError('dropped webhook deliveries: the queue is full', { event: wanted[0].event, dropped: wanted.length - room });
    }
    const added = wanted.slice(0, room).map((delivery) => ({ ...delivery, id: randomUUID(), attempts: 0, next_at: this.now() }));
    this.queue = [...this.queue, ...added];
    await this.persist();
    this.run();
  }

  /** Queues a test delivery to `hook`, due now; resolves with its delivery id. */
  async queueTest(hook: WebhookRecord): Promise<string> {
    const body = JSON.stringify({ event: TEST_EVENT, occurred_at: new Date(this.now()).toISOString(), workspace: null, commit: null, data: { webhook_id: hook.id } });
    return this.add({ id: randomUUID(), webhook_id: hook.id, event: TEST_EVENT, body });
  }

  /** Queues a delivery that gave up once more, under its id, its attempts counted from one again; resolves with the id. */
  async requeue(delivery: Pick<PendingDelivery, 'id' | 'webhook_id' | 'event' | 'body'>): Promise<string> {
    return this.add(delivery);
  }

  /** Deliveries not finished yet (for status and tests). */
  pending(): readonly PendingDelivery[] {
    return this.queue;
  }

  /** Stops the worker: aborts attempts in flight (they stay queued, uncounted) and writes the queue. */
  async close(): Promise<void> {
    this.shutdown.abort();
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight.values()]);
    await this.persist();
  }

  private async add(delivery: Pick<PendingDelivery, 'id' | 'webhook_id' | 'event' | 'body'>): Promise<string> {
    if (!this.queue.some((queued) => queued.id === delivery.id)) {
      this.queue = [...this.queue, { ...delivery, attempts: 0, next_at: this.now() }];
      await this.persist();
      this.run();
    }
    return delivery.id;
  }

  // A batch goes once to each batched webhook subscribed to one of the event types it folds.
  private batchDeliveries(types: readonly EventType[], event: string, body: string): Pick<PendingDelivery, 'webhook_id' | 'event' | 'body'>[] {
    const hooks = new Set(types.flatMap((type) => this.options.webhooks.subscribers(type)).filter((hook) => hook.batch === true));
    return [...hooks].map((hook) => ({ webhook_id: hook.id, event, body }));
  }

  private backoff(attempts: number): number {
    return this.options.settings.retryBaseMs * 2 ** Math.max(attempts - 1, 0);
  }

  // Starts every due delivery there is room for, then sleeps until the next one is due.
  private run(): void {
    if (this.shutdown.signal.aborted) return;
    clearTimeout(this.timer);
    const now = this.now();
    const waiting = this.queue.filter((delivery) => !this.inFlight.has(delivery.id)).sort((a, b) => a.next_at - b.next_at);
    for (const delivery of waiting) {
      if (this.inFlight.size >= this.concurrency || delivery.next_at > now) break;
      const attempt = this.attempt(delivery)
        .catch((error: unknown) => this.options.onError('a webhook delivery attempt failed unexpectedly', { delivery: delivery.id, error }))
        .finally(() => {
          this.inFlight.delete(delivery.id);
          this.run();
        });
      this.inFlight.set(delivery.id, attempt);
    }
    const next = waiting.find((delivery) => !this.inFlight.has(delivery.id));
    if (next === undefined || this.inFlight.size >= this.concurrency) return;
    this.timer = setTimeout(() => this.run(), Math.min(Math.max(next.next_at - now, 0), MAX_TIMER_MS));
    this.timer.unref();
  }

  private async attempt(delivery: PendingDelivery): Promise<void> {
    const hook = this.options.webhooks.find(delivery.webhook_id);
    // A webhook removed or disabled since the event was queued gets nothing more.
    if (hook === undefined || !hook.enabled) return this.settle(delivery, undefined);
    const started = this.now();
    const outcome = await this.post(hook, delivery);
    if (this.shutdown.signal.aborted && outcome.status_code === null) return;
    const attempt = delivery.attempts + 1;
    const final = outcome.ok || attempt >= this.options.settings.maxAttempts;
    const finished = this.now();
    const nextAt = final ? undefined : finished + this.backoff(attempt);
    const record: DeliveryAttempt = {
      id: delivery.id,
      webhook_id: hook.id,
      event: delivery.event,
      url: hook.url,
      attempt,
      status_code: outcome.status_code,
      duration_ms: finished - started,
      ok: outcome.ok,
      error: outcome.error,
      attempted_at: new Date(started).toISOString(),
      next_attempt_at: nextAt === undefined ? null : new Date(nextAt).toISOString(),
      ...(final && !outcome.ok ? { body: delivery.body } : {}),
    };
    await this.options.state.appendLine(DELIVERIES_LOG, JSON.stringify(record));
    if (final && !outcome.ok) this.options.onGaveUp?.(record, workspaceOf(delivery.body));
    await this.settle(delivery, nextAt === undefined ? undefined : { ...delivery, attempts: attempt, next_at: nextAt });
  }

  private async post(hook: WebhookRecord, delivery: PendingDelivery): Promise<{ ok: boolean; status_code: number | null; error: string | null }> {
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'git-cms-webhooks',
      'x-service-event': delivery.event,
      'x-service-delivery': delivery.id,
    };
    if (hook.secret !== null) headers['x-service-signature'] = signBody(delivery.body, hook.secret);
    const timeout = AbortSignal.timeout(this.options.settings.timeoutMs);
    try {
      const response = await this.fetch(hook.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        redirect: 'manual',
        signal: AbortSignal.any([timeout, this.shutdown.signal]),
      });
      await response.body?.cancel().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return { ok, status_code: response.status, error: ok ? null : `The receiver answered ${response.status}.` };
    } catch (error) {
      if (timeout.aborted) return { ok: false, status_code: null, error: `The receiver did not answer within ${this.options.settings.timeoutMs} ms.` };
      return { ok: false, status_code: null, error: describeFailure(error) };
    }
  }

  // Replaces (or, without `next`, removes) one delivery and saves the queue.
  private async settle(delivery: PendingDelivery, next: PendingDelivery | undefined): Promise<void> {
    this.queue = this.queue.flatMap((item) => (item.id !== delivery.id ? [item] : next === undefined ? [] : [next]));
    await this.persist();
  }

  // Writes coalesce: while one write runs, later changes are saved once, with the latest queue.
  private async persist(): Promise<void> {
    if (this.writing !== undefined) {
      this.dirty = true;
      return this.writing;
    }
    this.writing = (async () => {
      try {
        do {
          this.dirty = false;
          await this.options.state.write(QUEUE_DOCUMENT, this.queue);
        } while (this.dirty);
      } catch (error) {
        this.options.onError('could not save the webhook queue', { error });
      } finally {
        this.writing = undefined;
      }
    })();
    return this.writing;
  }
}

function workspaceOf(body: string): string | undefined {
  const parsed: unknown = JSON.parse(body);
  const workspace = typeof parsed === 'object' && parsed !== null ? (parsed as { workspace?: unknown }).workspace : undefined;
  return typeof workspace === 'string' ? workspace : undefined;
}

function describeFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  if (code !== undefined) return `The request failed (${code}).`;
  return 'The request failed before the receiver answered.';
}
