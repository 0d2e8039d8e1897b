// Request body of PUT /admin/api/webhooks (API.md "Webhooks"). The shape is
// checked here; URLs, events and ids are judged by the domain.
import type { JSONSchemaType } from 'ajv';

/** One webhook as sent by the client; `secret` omitted keeps the stored one, null or "" removes it. */
export interface WebhookBody {
  id?: string;
  url: string;
  secret?: string | null;
  events: string[];
  enabled?: boolean;
  batch?: boolean;
}

/** PUT /admin/api/webhooks: the whole new set. */
export interface ReplaceWebhooksBody {
  webhooks: WebhookBody[];
}

/** Shape of PUT /webhooks (the whole set); URL, event and secret rules are checked by the domain. */
export const replaceWebhooksSchema: JSONSchemaType<ReplaceWebhooksBody> = {
  type: 'object',
  properties: {
    webhooks: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', nullable: true, maxLength: 200 },
          url: { type: 'string', maxLength: 10_000 },
          secret: { type: 'string', nullable: true, maxLength: 10_000 },
          events: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 100 },
          enabled: { type: 'boolean', nullable: true },
          batch: { type: 'boolean', nullable: true },
        },
        required: ['url', 'events'],
        additionalProperties: false,
      },
    },
  },
  required: ['webhooks'],
  additionalProperties: false,
};
