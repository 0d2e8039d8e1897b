// Request body of POST /admin/api/tokens (API.md "Tokens and grants").
// `permissions` is taken out before this check and validated by the domain.
import type { JSONSchemaType } from 'ajv';

/** POST /admin/api/tokens, without `permissions`; `expires_at` null means "never". */
export interface CreateTokenBody {
  name: string;
  description?: string | null;
  expires_at?: string | null;
}

/** Shape of a new token besides its permissions; the expiry is checked by the domain. */
export const createTokenSchema: JSONSchemaType<CreateTokenBody> = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 300 },
    description: { type: 'string', nullable: true, maxLength: 2000 },
    expires_at: { type: 'string', nullable: true, maxLength: 64 },
  },
  required: ['name'],
  additionalProperties: false,
};
