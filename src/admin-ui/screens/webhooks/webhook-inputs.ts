// The API replaces the whole list of webhooks on every save; this is the
// list as stored, in the form the PUT body takes (secrets left out, so the
// saved ones are kept).
import type { Webhook, WebhookInput } from '../../api/operations.ts';

export function inputsOf(webhooks: Webhook[]): WebhookInput[] {
  return webhooks.map(({ id, url, events, enabled, batch }) => ({ id, url, events, enabled, batch }));
}
