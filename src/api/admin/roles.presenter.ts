// The shape of a role in admin responses.
import type { RoleRecord } from '../../domain/auth/account-store.ts';
import type { Grant } from '../../domain/auth/principal.ts';

/** A role as the admin API returns it. */
export interface RoleView {
  id: string;
  label: string;
  permissions: Grant[];
  builtin: boolean;
  user_count: number;
  created_at: string;
  updated_at: string;
}

/** Shapes a stored role; `userCount` tells the UI whether it can be deleted. */
export function presentRole(role: RoleRecord, userCount: number): RoleView {
  return {
    id: role.id,
    label: role.label,
    permissions: role.permissions,
    builtin: role.builtin,
    user_count: userCount,
    created_at: role.created_at,
    updated_at: role.updated_at,
  };
}
