// Request body of PUT /admin/api/profile.
import type { JSONSchemaType } from 'ajv';

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
    display_name: { type: 'string', nullable: true, maxLength: 300 },
    email: { type: 'string', nullable: true, maxLength: 300 },
    password: { type: 'string', nullable: true, maxLength: 1000 },
    old_password: { type: 'string', nullable: true, maxLength: 1000 },
  },
  required: [],
  additionalProperties: false,
};
