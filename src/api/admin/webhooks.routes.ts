// Webhooks (SPEC admin table: /webhooks): list and replace the configured
// receivers, list delivery attempts, send a test delivery and retry a failed
// one; all need webhooks.manage.
import Router from '@koa/router';
import { EVENT_TYPES } from '../../domain/model/events.ts';
import type { WebhookActions } from '../../domain/webhooks/webhook-actions.ts';
import type { WebhookService } from '../../domain/webhooks/webhook-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import { pagingParams, validateQuery, type QueryValues } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { nameParam } from '../context.ts';
import { presentDelivery, presentWebhook } from './webhooks.presenter.ts';
import { replaceWebhooksSchema } from './webhooks.schemas.ts';

const DEFAULT_PAGE = 100;
const LARGEST_PAGE = 1000;

/** Routes /webhooks and /webhooks/deliveries, relative to the admin root. */
export function createWebhooksRouter(webhooks: WebhookService, actions: WebhookActions, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parseReplace = compileBody(replaceWebhooksSchema);

  router.get('/webhooks', (ctx) => {
    const list = webhooks.list(ctx.state.principal);
    ctx.body = { data: list.map(presentWebhook), meta: { total: list.length, events: EVENT_TYPES } };
  });

  router.put('/webhooks', body, async (ctx) => {
    const input = parseReplace(bodyOf(ctx));
    const hooks = input.webhooks.map((hook) => ({ ...hook, id: hook.id ?? undefined, enabled: hook.enabled ?? undefined, batch: hook.batch ?? undefined }));
    const list = await webhooks.replace(ctx.state.principal, hooks);
    ctx.body = { data: list.map(presentWebhook), meta: { total: list.length } };
  });

  router.post('/webhooks/:id/test', async (ctx) => {
    ctx.status = 202;
    ctx.body = { data: { delivery_id: await actions.sendTest(ctx.state.principal, nameParam(ctx, 'id')) } };
  });

  router.post('/webhooks/deliveries/:id/retry', async (ctx) => {
    ctx.status = 202;
    ctx.body = { data: { delivery_id: await actions.retry(ctx.state.principal, nameParam(ctx, 'id')) } };
  });

  router.get('/webhooks/deliveries', validateQuery(parseDeliveriesQuery), async (ctx) => {
    const { limit, offset } = ctx.state.query;
    const { attempts, total } = await webhooks.deliveries(ctx.state.principal, { limit, offset });
    ctx.body = { data: attempts.map(presentDelivery), meta: { total, limit, offset } };
  });
  return router;
}

// Deliveries are paged by default (100 at a time, at most 1000), unlike content lists.
function parseDeliveriesQuery(query: QueryValues): { limit: number; offset: number } {
  const { limit, offset } = pagingParams(query, LARGEST_PAGE);
  return { limit: limit ?? DEFAULT_PAGE, offset };
}
