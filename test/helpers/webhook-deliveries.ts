// Webhook deliveries as the tests read them at a local receiver: taken once
// the server's delivery queue has drained, so a late extra delivery shows.
import type { LocalHttpServer } from './local-http.ts';
import { pollUntil } from './poll.ts';
import type { TestServer } from './server.ts';

/** Settings for tests of publication events: quick webhook retries, and a scheduler only the test ticks (its own timer looks once an hour). */
export const TICK_BY_HAND_ENV = { CMS_WEBHOOK_RETRY_BASE_MS: '20', CMS_WEBHOOK_TIMEOUT_MS: '300', CMS_SCHEDULER_INTERVAL_MS: '3600000' };

/** The JSON body of one delivered event (API.md "Webhooks"). */
export interface DeliveredEvent {
  event: string;
  workspace: string;
  data: Record<string, string>;
}

/** Waits for `count` requests at `receiver`, then for `server`'s delivery queue to drain. */
export async function awaitDeliveries(server: TestServer, receiver: LocalHttpServer, count: number): Promise<void> {
  await pollUntil(async () => receiver.requests.length, (seen) => seen >= count);
  await pollUntil(async () => server.services.webhookDispatcher.pending().length, (pending) => pending === 0);
}

/** Waits as awaitDeliveries(), then returns every request's event as `describe` writes it, sorted, and forgets them. */
export async function takeDeliveries(server: TestServer, receiver: LocalHttpServer, count: number, describe: (event: DeliveredEvent) => string): Promise<string[]> {
  await awaitDeliveries(server, receiver, count);
  const events = receiver.requests.map((request) => describe(JSON.parse(request.body.toString('utf8')) as DeliveredEvent));
  receiver.requests.length = 0;
  return events.sort();
}
