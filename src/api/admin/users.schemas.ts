// Request bodies of the user management routes.
import type { JSONSchemaType } from 'ajv';
import { CONTACT_PROPERTIES, CREDENTIAL_PROPERTIES, OPTIONAL_PASSWORD } from './user-fields.schemas.ts';

/** POST /admin/api/users; null means "not given". */
export interface CreateUserBody {
  username: string;
  password: string;
  email?: string | null;
  display_name?: string | null;
  role?: string | null;
}

/** PUT /admin/api/users/{id}; every key optional, null means "not given". */
export interface UpdateUserBody {
  email?: string | null;
  display_name?: string | null;
  role?: string | null;
  password?: string | null;
}

/** Shape of a new user; username, email and password rules are checked by the domain. */
export const createUserSchema: JSONSchemaType<CreateUserBody> = {
  type: 'object',
  properties: {
    ...CREDENTIAL_PROPERTIES,
    ...CONTACT_PROPERTIES,
    role: { type: 'string', nullable: true, maxLength: 100 },
  },
  required: ['username', 'password'],
  additionalProperties: false,
};

/** Shape of a user update; the username cannot change, so it is an unknown key here. */
export const updateUserSchema: JSONSchemaType<UpdateUserBody> = {
  type: 'object',
  properties: {
    ...CONTACT_PROPERTIES,
    role: { type: 'string', nullable: true, maxLength: 100 },
    password: OPTIONAL_PASSWORD,
  },
  required: [],
  additionalProperties: false,
};
