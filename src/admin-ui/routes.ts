// The route table: every screen of the app, its path and, once it is built,
// the module that draws it (loaded on first visit, so each screen is its own
// chunk). A route without `screen` is planned and not linked anywhere yet:
// links are made with pathTo(), which gives undefined for those.
import type { ComponentType } from 'preact';

/** What every screen component receives. */
export interface ScreenProps {
  /** The path parameters, e.g. `{ type: 'posts' }` for /admin/content/:type. */
  params: Record<string, string>;
}

/** One entry of the table. */
export interface RouteDefinition {
  /** Path pattern; `:name` matches one segment. */
  path: string;
  /** The window title (screens with a more specific one call useTitle). */
  title: string;
  /** Loads the screen component; absent while the screen is not built. */
  screen?: () => Promise<ComponentType<ScreenProps>>;
}

export const routes = {
  // The start screen: the workspace's dashboard.
  home: { path: '/admin', title: 'Home', screen: () => import('./screens/home/home-screen.tsx').then((m) => m.HomeScreen) },
  // Issue 11: content.
  entries: { path: '/admin/content/:type', title: 'Entries', screen: () => import('./screens/entries/entries-screen.tsx').then((m) => m.EntriesScreen) },
  newEntry: { path: '/admin/content/:type/new', title: 'New entry', screen: () => import('./screens/entry/entry-screen.tsx').then((m) => m.EntryScreen) },
  entry: { path: '/admin/content/:type/:id', title: 'Edit entry', screen: () => import('./screens/entry/entry-screen.tsx').then((m) => m.EntryScreen) },
  versions: { path: '/admin/content/:type/:id/versions', title: 'Versions', screen: () => import('./screens/versions/versions-screen.tsx').then((m) => m.VersionsScreen) },
  trash: { path: '/admin/trash', title: 'Trash', screen: () => import('./screens/trash/trash-screen.tsx').then((m) => m.TrashScreen) },
  typeTrash: { path: '/admin/trash/:type', title: 'Trash', screen: () => import('./screens/trash/trash-screen.tsx').then((m) => m.TrashScreen) },
  types: { path: '/admin/types', title: 'Content types', screen: () => import('./screens/types/types-screen.tsx').then((m) => m.TypesScreen) },
  newType: { path: '/admin/types/new', title: 'New content type', screen: () => import('./screens/types/type-screen.tsx').then((m) => m.TypeScreen) },
  type: { path: '/admin/types/:name', title: 'Edit content type', screen: () => import('./screens/types/type-screen.tsx').then((m) => m.TypeScreen) },
  // Issue 12: media and administration.
  media: { path: '/admin/media', title: 'Media', screen: () => import('./screens/media/media-screen.tsx').then((m) => m.MediaScreen) },
  users: { path: '/admin/users', title: 'Users', screen: () => import('./screens/users/users-screen.tsx').then((m) => m.UsersScreen) },
  roles: { path: '/admin/roles', title: 'Roles', screen: () => import('./screens/roles/roles-screen.tsx').then((m) => m.RolesScreen) },
  role: { path: '/admin/roles/:id', title: 'Role', screen: () => import('./screens/roles/role-screen.tsx').then((m) => m.RoleScreen) },
  tokens: { path: '/admin/tokens', title: 'API tokens', screen: () => import('./screens/tokens/tokens-screen.tsx').then((m) => m.TokensScreen) },
  webhooks: { path: '/admin/webhooks', title: 'Webhooks', screen: () => import('./screens/webhooks/webhooks-screen.tsx').then((m) => m.WebhooksScreen) },
  releases: { path: '/admin/releases', title: 'Releases', screen: () => import('./screens/releases/releases-screen.tsx').then((m) => m.ReleasesScreen) },
  backups: { path: '/admin/backups', title: 'Backups', screen: () => import('./screens/backups/backups-screen.tsx').then((m) => m.BackupsScreen) },
  workspaces: { path: '/admin/workspaces', title: 'Workspaces', screen: () => import('./screens/workspaces/workspaces-screen.tsx').then((m) => m.WorkspacesScreen) },
  activity: { path: '/admin/activity', title: 'Activity', screen: () => import('./screens/activity/activity-screen.tsx').then((m) => m.ActivityScreen) },
  updates: { path: '/admin/updates', title: 'Updates', screen: () => import('./screens/updates/updates-screen.tsx').then((m) => m.UpdatesScreen) },
  profile: { path: '/admin/profile', title: 'Your profile', screen: () => import('./screens/profile/profile-screen.tsx').then((m) => m.ProfileScreen) },
} satisfies Record<string, RouteDefinition>;

/** A route's name in the table. */
export type RouteName = keyof typeof routes;

/**
 * The URL of a built screen with `params` filled in (and an optional query),
 * or undefined when the screen is not built yet, so callers leave the link out.
 */
export function pathTo(name: RouteName, params: Record<string, string> = {}, query?: Record<string, string>): string | undefined {
  const route: RouteDefinition = routes[name];
  if (!route.screen) return undefined;
  const path = route.path.replace(/:([a-z]+)/gi, (_, key: string) => encodeURIComponent(params[key] ?? ''));
  const search = query ? new URLSearchParams(query).toString() : '';
  return search ? `${path}?${search}` : path;
}

/** The route matching `path` and its parameters; literal segments win over parameters (`/types/new` before `/types/:name`). */
export function matchRoute(path: string): { name: RouteName; route: RouteDefinition; params: Record<string, string> } | undefined {
  let best: { name: RouteName; route: RouteDefinition; params: Record<string, string>; score: number } | undefined;
  const segments = path.split('/');
  for (const [name, route] of Object.entries(routes) as [RouteName, RouteDefinition][]) {
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    const matches = pattern.every((part, index) => {
      if (part.startsWith(':')) {
        params[part.slice(1)] = safeDecode(segments[index]);
        return segments[index] !== '';
      }
      score += 1;
      return part === segments[index];
    });
    if (matches && (!best || score > best.score)) best = { name, route, params, score };
  }
  return best && { name: best.name, route: best.route, params: best.params };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
