// Request bodies of setup and login (API.md "Admin session").
import type { JSONSchemaType } from 'ajv';
import { CONTACT_PROPERTIES, CREDENTIAL_PROPERTIES } from './user-fields.schemas.ts';

/** POST /admin/api/setup. Optional keys may be null, which means "not given". */
export interface SetupBody {
  username: string;
  password: string;
  email?: string | null;
  display_name?: string | null;
  workspace?: string | null;
  workspace_slug?: string | null;
}

/** POST /admin/api/login. */
export interface LoginBody {
  username: string;
  password: string;
}

/** Shape of the setup body; password and slug rules are checked by the domain. */
export const setupSchema: JSONSchemaType<SetupBody> = {
  type: 'object',
  properties: {
    ...CREDENTIAL_PROPERTIES,
    ...CONTACT_PROPERTIES,
    workspace: { type: 'string', nullable: true, maxLength: 300 },
    workspace_slug: { type: 'string', nullable: true, maxLength: 100 },
  },
  required: ['username', 'password'],
  additionalProperties: false,
};

/** Shape of the login body; unknown keys are a 422. */
export const loginSchema: JSONSchemaType<LoginBody> = {
  type: 'object',
  properties: CREDENTIAL_PROPERTIES,
  required: ['username', 'password'],
  additionalProperties: false,
};
