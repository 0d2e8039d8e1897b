// What an administrator asks of the delivery queue by hand: a test delivery
// to one webhook, and another go at a delivery that gave up.
import { AppError } from '../../errors/app-error.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import type { WebhookDispatcher } from './webhook-dispatcher.ts';
import { WEBHOOKS_ACCESS, type WebhookService } from './webhook-service.ts';

/** Test and retry, guarded by `webhooks.manage`; created once by services.ts. */
export class WebhookActions {
  constructor(
    private readonly webhooks: Pick<WebhookService, 'find' | 'failedDelivery'>,
    private readonly dispatcher: Pick<WebhookDispatcher, 'queueTest' | 'requeue'>,
  ) {}

  /** Queues a `webhook.test` delivery to the webhook now; resolves with the delivery id. Throws forbidden, not_found. */
  async sendTest(principal: Principal, webhookId: string): Promise<string> {
    authorize(principal, WEBHOOKS_ACCESS);
    const hook = this.webhooks.find(webhookId);
    if (hook === undefined) throw new AppError('not_found', `No webhook with the id "${webhookId}".`);
    return this.dispatcher.queueTest(hook);
  }

  /**
   * Queues a delivery that gave up once more, with the same body and id; it
   * gets the usual attempts and backoff. Throws forbidden, not_found (no such
   * failed delivery, or its webhook was removed).
   */
  async retry(principal: Principal, deliveryId: string): Promise<string> {
    authorize(principal, WEBHOOKS_ACCESS);
    const failed = await this.webhooks.failedDelivery(deliveryId);
    if (failed === undefined) throw new AppError('not_found', `No failed delivery with the id "${deliveryId}".`);
    if (this.webhooks.find(failed.webhook_id) === undefined) throw new AppError('not_found', 'The webhook of this delivery has been removed.');
    return this.dispatcher.requeue({ id: failed.id, webhook_id: failed.webhook_id, event: failed.event, body: failed.body });
  }
}
