// The shapes of webhooks and delivery attempts in admin responses: a webhook
// shows whether it has a secret, never the secret.
import type { DeliveryAttempt, WebhookRecord } from '../../domain/webhooks/webhook-service.ts';

/** A webhook as the admin API lists it (API.md "Webhooks"). */
export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** One `content.batch` per commit instead of one event per entry, and one `media.batch` per change instead of one per file. */
  batch: boolean;
  has_secret: boolean;
  created_at: string;
  updated_at: string;
}

/** Shapes a stored webhook, leaving out its secret. */
export function presentWebhook(hook: WebhookRecord): WebhookView {
  return {
    id: hook.id,
    url: hook.url,
    events: hook.events,
    enabled: hook.enabled,
    batch: hook.batch === true,
    has_secret: hook.secret !== null,
    created_at: hook.created_at,
    updated_at: hook.updated_at,
  };
}

/** Shapes one recorded delivery attempt. */
export function presentDelivery(attempt: DeliveryAttempt): DeliveryAttempt {
  return {
    id: attempt.id,
    webhook_id: attempt.webhook_id,
    event: attempt.event,
    url: attempt.url,
    attempt: attempt.attempt,
    status_code: attempt.status_code,
    duration_ms: attempt.duration_ms,
    ok: attempt.ok,
    error: attempt.error,
    attempted_at: attempt.attempted_at,
    next_attempt_at: attempt.next_attempt_at,
  };
}
