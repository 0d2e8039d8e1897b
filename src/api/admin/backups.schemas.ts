// Request bodies of the backup routes (API.md "Backups"). Part names are
// checked by the domain, which names the unknown one.
import type { JSONSchemaType } from 'ajv';

/** POST /admin/api/backups: which parts to include (all but users when omitted). */
export interface CreateBackupBody {
  parts?: string[];
}

/** POST /admin/api/backups/{name}.zip/restore. */
export interface RestoreBackupBody {
  parts: string[];
  overwrite?: boolean;
}

const parts = { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20 } as const;

/** Shape of POST /backups; the part names are checked by the domain. */
export const createBackupSchema: JSONSchemaType<CreateBackupBody> = {
  type: 'object',
  properties: { parts: { ...parts, nullable: true } },
  additionalProperties: false,
};

/** Shape of a restore request: the parts to restore and whether to overwrite. */
export const restoreBackupSchema: JSONSchemaType<RestoreBackupBody> = {
  type: 'object',
  properties: { parts, overwrite: { type: 'boolean', nullable: true } },
  required: ['parts'],
  additionalProperties: false,
};
