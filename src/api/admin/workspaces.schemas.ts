// Request bodies of the workspace routes.
import type { JSONSchemaType } from 'ajv';

/** POST /admin/api/workspaces. */
export interface CreateWorkspaceBody {
  slug: string;
  label: string;
}

/** PUT /admin/api/workspaces/{ws}; null means "not given". The slug cannot change. */
export interface UpdateWorkspaceBody {
  label?: string | null;
  archived?: boolean | null;
}

/** Shape of a new workspace; the slug rule is checked by the domain. */
export const createWorkspaceSchema: JSONSchemaType<CreateWorkspaceBody> = {
  type: 'object',
  properties: {
    slug: { type: 'string', maxLength: 100 },
    label: { type: 'string', maxLength: 300 },
  },
  required: ['slug', 'label'],
  additionalProperties: false,
};

/** Shape of a workspace update; `slug` is an unknown key because slugs never change. */
export const updateWorkspaceSchema: JSONSchemaType<UpdateWorkspaceBody> = {
  type: 'object',
  properties: {
    label: { type: 'string', nullable: true, maxLength: 300 },
    archived: { type: 'boolean', nullable: true },
  },
  required: [],
  additionalProperties: false,
};
