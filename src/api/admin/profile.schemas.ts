// Request body of PUT /admin/api/profile.
import type { JSONSchemaType } from 'ajv';
import { CONTACT_PROPERTIES, OPTIONAL_PASSWORD } from './user-fields.schemas.ts';

/** PUT /admin/api/profile; null means "not given". */
export interface ProfileBody {
  display_name?: string | null;
  email?: string | null;
  password?: string | null;
  old_password?: string | null;
}

/** Shape of the profile body; unknown keys (e.g. `role`) are a 422. */
export const profileSchema: JSONSchemaType<ProfileBody> = {
  type: 'object',
  properties: {
    ...CONTACT_PROPERTIES,
    password: OPTIONAL_PASSWORD,
    old_password: OPTIONAL_PASSWORD,
  },
  required: [],
  additionalProperties: false,
};
