// Request bodies of the role routes. `permissions` is taken out before this
// check and validated by the domain (validateGrants), which names each bad
// action, resource or key.
import type { JSONSchemaType } from 'ajv';

/** POST /admin/api/roles, without `permissions`. */
export interface CreateRoleBody {
  id?: string | null;
  label: string;
}

/** PUT /admin/api/roles/{id}, without `permissions`; null means "not given". */
export interface UpdateRoleBody {
  label?: string | null;
}

/** Shape of a new role besides its permissions. */
export const createRoleSchema: JSONSchemaType<CreateRoleBody> = {
  type: 'object',
  properties: {
    id: { type: 'string', nullable: true, maxLength: 100 },
    label: { type: 'string', maxLength: 300 },
  },
  required: ['label'],
  additionalProperties: false,
};

/** Shape of a role update besides its permissions. */
export const updateRoleSchema: JSONSchemaType<UpdateRoleBody> = {
  type: 'object',
  properties: {
    label: { type: 'string', nullable: true, maxLength: 300 },
  },
  required: [],
  additionalProperties: false,
};
