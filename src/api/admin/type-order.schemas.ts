// Request body of PATCH /admin/api/content-types/order (API.md "Admin ordering").
import type { JSONSchemaType } from 'ajv';

/** The type names in their new order. */
export interface TypeOrderBody {
  names: string[];
}

/** Shape check of TypeOrderBody; unknown keys are 422. */
export const typeOrderSchema: JSONSchemaType<TypeOrderBody> = {
  type: 'object',
  properties: { names: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 128 } } },
  required: ['names'],
  additionalProperties: false,
};
