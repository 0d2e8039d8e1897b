// Webhooks (SPEC admin table: /webhooks): list and replace the configured
// receivers, and list delivery attempts; all need webhooks.manage.
import Router from '@koa/router';
import type { Config } from '../../config/config.ts';
import type { WebhookService } from '../../domain/webhooks/webhook-service.ts';
import { AppError } from '../../errors/app-error.ts';
import { bodyOf, jsonBody } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { presentDelivery, presentWebhook } from './webhooks.presenter.ts';
import { replaceWebhooksSchema } from './webhooks.schemas.ts';

const DEFAULT_PAGE = 100;
const LARGEST_PAGE = 1000;

/** Routes /webhooks and /webhooks/deliveries, relative to the admin root. */
export function createWebhooksRouter(webhooks: WebhookService, config: Config): Router<AppState> {
  const router = new Router<AppState>();
  const parseReplace = compileBody(replaceWebhooksSchema);

  router.get('/webhooks', (ctx) => {
    const list = webhooks.list(ctx.state.principal);
    ctx.body = { data: list.map(presentWebhook), meta: { total: list.length } };
  });

  router.put('/webhooks', jsonBody(config.limits.jsonBodyBytes), async (ctx) => {
    const input = parseReplace(bodyOf(ctx));
    const hooks = input.webhooks.map((hook) => ({ ...hook, id: hook.id ?? undefined, enabled: hook.enabled ?? undefined }));
    const list = await webhooks.replace(ctx.state.principal, hooks);
    ctx.body = { data: list.map(presentWebhook), meta: { total: list.length } };
  });

  router.get('/webhooks/deliveries', async (ctx) => {
    const limit = pageNumber(ctx.query.limit, 'limit', 1, LARGEST_PAGE) ?? DEFAULT_PAGE;
    const offset = pageNumber(ctx.query.offset, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const { attempts, total } = await webhooks.deliveries(ctx.state.principal, { limit, offset });
    ctx.body = { data: attempts.map(presentDelivery), meta: { total, limit, offset } };
  });
  return router;
}

function pageNumber(raw: string | string[] | undefined, name: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) throw new AppError('invalid_request', `${name} must be a whole number from ${min} to ${max}.`);
  return value;
}
