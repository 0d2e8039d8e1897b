// Request body of POST /admin/api/releases (API.md "Changes feed and reads at
// a ref"). The name's git rules and the note's characters are checked by the domain.
import type { JSONSchemaType } from 'ajv';

/** POST /admin/api/releases; a null or missing note means none. */
export interface CreateReleaseBody {
  name: string;
  note?: string | null;
}

/** Shape of a new release. */
export const createReleaseSchema: JSONSchemaType<CreateReleaseBody> = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 200 },
    note: { type: 'string', nullable: true, maxLength: 20_000 },
  },
  required: ['name'],
  additionalProperties: false,
};
