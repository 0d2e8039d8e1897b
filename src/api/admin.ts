// The admin API's route table (SPEC "Admin API"), mounted at /admin/api.
// One guard runs before every route: 503 before setup, 401 without a
// session, 403 without the CSRF token on writes (see http/admin-guard.ts).
import Router from '@koa/router';
import type { Config } from '../config/config.ts';
import type { LoginService } from '../domain/auth/login-service.ts';
import type { ProfileService } from '../domain/auth/profile-service.ts';
import type { RoleService } from '../domain/auth/role-service.ts';
import type { TokenService } from '../domain/auth/token-service.ts';
import type { UserService } from '../domain/auth/user-service.ts';
import type { ContentIndex } from '../domain/content/content-index.ts';
import type { EntryService } from '../domain/entries/entry-service.ts';
import type { TypeService } from '../domain/types/type-service.ts';
import type { WorkspaceService } from '../domain/workspaces/workspace-service.ts';
import type { WebhookActions } from '../domain/webhooks/webhook-actions.ts';
import type { WebhookService } from '../domain/webhooks/webhook-service.ts';
import type { BackupService } from '../domain/backups/backup-service.ts';
import type { UpdateService } from '../domain/updates/update-service.ts';
import type { MediaService } from '../domain/media/media-service.ts';
import { createAdminGuard } from '../http/admin-guard.ts';
import { jsonBody } from '../http/json-body.ts';
import type { AppState } from '../http/state.ts';
import { createAuthRouter } from './admin/auth.routes.ts';
import { createContentTypesRouter } from './content-types/content-types.routes.ts';
import { createEntriesRouter } from './entries/entries.routes.ts';
import { createProfileRouter } from './admin/profile.routes.ts';
import { createGrantActionsRouter } from './admin/grant-actions.routes.ts';
import { createRolesRouter } from './admin/roles.routes.ts';
import { createTokensRouter } from './admin/tokens.routes.ts';
import { createUsersRouter } from './admin/users.routes.ts';
import { createWorkspacesRouter } from './admin/workspaces.routes.ts';
import { createWebhooksRouter } from './admin/webhooks.routes.ts';
import { createBackupsRouter } from './admin/backups.routes.ts';
import { createUpdateRouter } from './admin/update.routes.ts';
import { createMediaRouter } from './media/media.routes.ts';
import type { ActivityLog } from '../domain/activity/activity-log.ts';
import type { AppInfoService } from '../domain/dashboard/app-info.ts';
import type { DashboardService } from '../domain/dashboard/dashboard-service.ts';
import type { RevisionService } from '../domain/history/revision-service.ts';
import type { TrashService } from '../domain/trash/trash-service.ts';
import { createActivityRouter } from './admin/activity.routes.ts';
import { createAppRouter } from './admin/app.routes.ts';
import { createBulkRouter } from './admin/bulk.routes.ts';
import { createDashboardRouter } from './admin/dashboard.routes.ts';
import { createRevisionsRouter } from './admin/revisions.routes.ts';
import { createTranslationsRouter } from './admin/translations.routes.ts';
import { createTrashRouter } from './admin/trash.routes.ts';
import { createTypeOrderRouter } from './admin/type-order.routes.ts';
import { createEventsRouter } from './admin/events.routes.ts';
import type { LiveFeed } from '../domain/live/live-feed.ts';
import type { GitStatusService } from '../domain/git/git-status.ts';
import { createGitRouter } from './admin/git.routes.ts';
import type { ReleaseService } from '../domain/git/release-service.ts';
import { createReleasesRouter } from './admin/releases.routes.ts';
import { ADMIN_PREFIX } from './admin-prefix.ts';

/** The services the admin routes call. */
export interface AdminApiServices {
  login: LoginService;
  users: UserService;
  roles: RoleService;
  tokens: TokenService;
  profiles: ProfileService;
  workspaces: WorkspaceService;
  content: ContentIndex;
  types: TypeService;
  entries: EntryService;
  webhooks: WebhookService;
  webhookActions: WebhookActions;
  backups: BackupService;
  updates: UpdateService;
  media: MediaService;
  activity: ActivityLog;
  trash: TrashService;
  revisions: RevisionService;
  dashboard: DashboardService;
  appInfo: AppInfoService;
  live: LiveFeed;
  sessions: { isLive(key: string): boolean };
  gitStatus: GitStatusService;
  releases: ReleaseService;
}

/**
 * Builds the router for /admin/api with the admin guard in front of every
 * route. Further admin routers can be mounted on it with `use` and get the guard too.
 */
export function createAdminRouter(services: AdminApiServices, config: Config): Router<AppState> {
  const admin = new Router<AppState>({ prefix: ADMIN_PREFIX });
  admin.use(createAdminGuard({ prefix: ADMIN_PREFIX, isSetUp: () => services.users.hasUsers(), defaultWorkspace: config.defaultWorkspace }));
  const body = jsonBody(config.limits.jsonBodyBytes);
  for (const router of [
    createAuthRouter(services, body, config.defaultWorkspace),
    createProfileRouter(services.profiles, body),
    createUsersRouter(services.users, services.profiles, body),
    createRolesRouter(services.roles, body),
    createGrantActionsRouter(),
    createTokensRouter(services.tokens, body),
    createWorkspacesRouter(services.workspaces, body),
    createDashboardRouter(services.dashboard),
    createAppRouter(services.appInfo),
    createActivityRouter(services.activity),
    createTrashRouter(services.trash),
    // Before the content-type and entry routes, whose `:type` and `:id` would match "order" and "bulk".
    createTypeOrderRouter(services.types, body),
    createBulkRouter(services.entries, body),
    createRevisionsRouter(services.revisions),
    createTranslationsRouter(services.entries),
    createContentTypesRouter(services.types, body, { fieldTypesInMeta: true }),
    createEntriesRouter(services.entries, services.content, body, { mediaAsUrls: false }),
    createWebhooksRouter(services.webhooks, services.webhookActions, body),
    createBackupsRouter(services.backups, body, config.backups.maxBytes),
    createUpdateRouter(services.updates),
    createGitRouter(services.gitStatus),
    createReleasesRouter(services.releases, body),
    createEventsRouter(services, { heartbeatMs: config.eventsHeartbeatMs }),
    createMediaRouter(services.media, { admin: true, body, upload: { maxFileBytes: config.limits.uploadFileBytes, maxFiles: config.limits.uploadFiles } }),
  ]) {
    admin.use(router.routes());
  }
  return admin;
}
