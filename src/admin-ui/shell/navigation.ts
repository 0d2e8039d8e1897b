// The sidebar's fixed entries beside the content types: which route each
// opens and which action (GET /me, meta.can) the user needs to see it. An
// entry shows only when its screen is built (pathTo) and the user may use it.
import { pathTo, type RouteName } from '../routes.ts';

/** One fixed sidebar entry. */
export interface NavEntry {
  label: string;
  route: RouteName;
  /** The action the user needs on the whole area, from meta.can. */
  needs: string;
}

/** Under the content types. */
export const LIBRARY_ENTRIES: NavEntry[] = [
  { label: 'Media', route: 'media', needs: 'media.read' },
  { label: 'Trash', route: 'trash', needs: 'trash.read' },
];

/** The "Administration" section. */
export const ADMIN_ENTRIES: NavEntry[] = [
  { label: 'Content types', route: 'types', needs: 'schema.update' },
  { label: 'Users', route: 'users', needs: 'users.read' },
  { label: 'Roles', route: 'roles', needs: 'roles.read' },
  { label: 'API tokens', route: 'tokens', needs: 'tokens.read' },
  { label: 'Webhooks', route: 'webhooks', needs: 'webhooks.manage' },
  { label: 'Releases', route: 'releases', needs: 'releases.read' },
  { label: 'Backups', route: 'backups', needs: 'backups.read' },
  { label: 'Workspaces', route: 'workspaces', needs: 'workspaces.manage' },
  { label: 'Activity', route: 'activity', needs: 'activity.read' },
  { label: 'Updates', route: 'updates', needs: 'updates.check' },
];

/** The entries to show: built screens the user may use, with their links. */
export function visibleEntries(entries: NavEntry[], can: (action: string) => boolean): { label: string; href: string }[] {
  return entries.flatMap((entry) => {
    const href = pathTo(entry.route);
    return href && can(entry.needs) ? [{ label: entry.label, href }] : [];
  });
}
