// Request bodies of the bulk routes. Which ids exist, how many may be named
// and what `changes` may hold are the entry service's rules; this only
// checks the shape.
import type { JSONSchemaType } from 'ajv';
import { IDENTIFIER_PATTERN } from '../../domain/model/slug.ts';

/** PATCH /admin/api/content/{type}/bulk: `changes` is a partial write body (no slug). */
export interface BulkUpdateBody {
  ids: string[];
  changes: Record<string, unknown>;
}

/** DELETE /admin/api/content/{type}/bulk. */
export interface BulkDeleteBody {
  ids: string[];
}

const ids = { type: 'array', items: { type: 'string', pattern: IDENTIFIER_PATTERN.source } } as const;

/** Shape check of BulkUpdateBody; unknown keys are 422. */
export const bulkUpdateSchema: JSONSchemaType<BulkUpdateBody> = {
  type: 'object',
  properties: { ids, changes: { type: 'object', required: [] } },
  required: ['ids', 'changes'],
  additionalProperties: false,
};

/** Shape check of BulkDeleteBody; unknown keys are 422. */
export const bulkDeleteSchema: JSONSchemaType<BulkDeleteBody> = {
  type: 'object',
  properties: { ids },
  required: ['ids'],
  additionalProperties: false,
};
