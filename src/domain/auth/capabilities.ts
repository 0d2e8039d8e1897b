// What a signed-in user may do, area by area, for the admin app to decide
// which screens and controls to show (GET /admin/api/me, meta.can). The
// server still checks every request; this is only a summary of the grants.
import { can } from './authorize.ts';
import { ALL_WORKSPACES, KNOWN_ACTIONS } from './grants.ts';
import type { Principal } from './principal.ts';

// Areas whose requests are not scoped to one workspace (docs/permissions.md).
const GLOBAL_AREAS = new Set(['users', 'roles', 'tokens', 'backups', 'webhooks', 'activity', 'updates', 'workspaces', 'git', 'replication', 'releases']);

/**
 * Every known action mapped to whether the principal may do it on its whole
 * area (`{area}:*`) in `workspace` (global areas: in every workspace). A
 * grant on part of an area (one type, one category) does not count. Throws nothing.
 */
export function capabilitiesOf(principal: Principal, workspace: string): Record<string, boolean> {
  const result: Record<string, boolean> = {};
  for (const action of KNOWN_ACTIONS) {
    const area = action.split('.')[0];
    result[action] = can(principal, { action, resource: `${area}:*`, workspace: GLOBAL_AREAS.has(area) ? ALL_WORKSPACES : workspace });
  }
  return result;
}
