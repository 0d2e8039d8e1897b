// The composition root: the only place services are constructed and wired.
// Everything is passed explicitly; there are no module-level singletons.
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { ConfigError, type Config } from './config/config.ts';
import { ContentIndex } from './domain/content/content-index.ts';
import { ContentWriter, type ContentReader } from './domain/content/content-writer.ts';
import { EntryService } from './domain/entries/entry-service.ts';
import { ChangesFeed } from './domain/changes/changes-feed.ts';
import { EventBus, type Announcements } from './domain/model/events.ts';
import { HealthService, type NodeHealth } from './domain/health.ts';
import { TypeService } from './domain/types/type-service.ts';
import { WorkspaceService } from './domain/workspaces/workspace-service.ts';
import type { Logger } from './lib/logger.ts';
import { once } from './lib/once.ts';
import { findPackageRoot } from './lib/package-root.ts';
import { pathExists } from './lib/path-exists.ts';
import { ContentRepo } from './storage/content-repo.ts';
import { SnapshotFile } from './storage/snapshot-file.ts';
import { StateStore } from './storage/state-store.ts';
import { reindexChangedPaths, watchExternalCommits } from './domain/content/external-commits.ts';
import { CommitDates } from './domain/content/commit-dates.ts';
import { EntrySnapshotSaver, readEntrySnapshot } from './domain/content/entry-snapshot.ts';
import { ProblemRegister } from './domain/content/problem-register.ts';
import { AccountStore } from './domain/auth/account-store.ts';
import { stateAvatarFiles } from './domain/auth/avatar-files.ts';
import { LoginService } from './domain/auth/login-service.ts';
import { LoginThrottle } from './domain/auth/login-throttle.ts';
import type { ProfileService } from './domain/auth/profile-service.ts';
import type { RoleService } from './domain/auth/role-service.ts';
import { loadSessionKeys } from './domain/auth/session-keys.ts';
import { SessionStore } from './domain/auth/session-store.ts';
import { TokenService } from './domain/auth/token-service.ts';
import { UserService } from './domain/auth/user-service.ts';
import { WebhookDispatcher } from './domain/webhooks/webhook-dispatcher.ts';
import type { WebhookActions } from './domain/webhooks/webhook-actions.ts';
import { WebhookService } from './domain/webhooks/webhook-service.ts';
import type { BackupService } from './domain/backups/backup-service.ts';
import type { UpdateService } from './domain/updates/update-service.ts';
import { FileFolder } from './storage/file-folder.ts';
import { ImageVariants } from './domain/media/image-variants.ts';
import { MediaLibrary } from './domain/media/media-library.ts';
import { MediaService } from './domain/media/media-service.ts';
import { ContentHashes } from './domain/media/content-hashes.ts';
import { dropFilesOfRemovedRecords } from './domain/media/media-removals.ts';
import { StoredSizes } from './domain/media/stored-sizes.ts';
import { copyMissingPublicFiles } from './domain/media/media-copies.ts';
import { resolveAllowedTypes } from './domain/media/media-types.ts';
import { MediaStore } from './storage/media-store.ts';
import { VariantStore } from './storage/variant-store.ts';
import { ActivityLog } from './domain/activity/activity-log.ts';
import { recordDomainEvents, recordLoginAttempts, recordSkippedFiles } from './domain/activity/activity-feeds.ts';
import { PublishScheduler } from './domain/activity/publish-scheduler.ts';
import type { AppInfoService } from './domain/dashboard/app-info.ts';
import type { DashboardService } from './domain/dashboard/dashboard-service.ts';
import type { RevisionService } from './domain/history/revision-service.ts';
import type { TrashService } from './domain/trash/trash-service.ts';
import { AppBundle, loadSwaggerUi } from './storage/app-bundle.ts';
import { DOCS_PAGE_HTML, DOCS_PAGE_SCRIPT } from './api/openapi/docs-page.ts';
import { LiveFeed } from './domain/live/live-feed.ts';
import { GitHttpService } from './domain/git/git-http-service.ts';
import type { GitStatusService } from './domain/git/git-status.ts';
import type { ReleaseService } from './domain/git/release-service.ts';
import { RefReads } from './domain/history/ref-reads.ts';
import { UpstreamSync } from './domain/git/upstream-sync.ts';
import { displayUrl, GitPeer } from './storage/git-cli/git-peer.ts';
import { PrimaryClient } from './domain/replica/primary-client.ts';
import { ReplicaFollower } from './domain/replica/replica-follower.ts';
import { applyReplicatedState, type StateStores } from './domain/replica/replicated-state.ts';
import { ReplicationSource } from './domain/replica/replication-source.ts';
import { countingWrites, StateVersion } from './domain/replica/state-version.ts';

export interface Services {
  config: Config;
  logger: Logger;
  /** The content repo for reads; every change goes through `writer`. */
  repo: ContentReader;
  /** The one write path of the content repo: lock, commit, index, events; also for commits from outside. */
  writer: ContentWriter;
  state: StateStore;
  content: ContentIndex;
  /** Every file of the content repo the indexes currently skip (GET /problems, the dashboard). */
  problems: ProblemRegister;
  health: HealthService;
  workspaces: WorkspaceService;
  types: TypeService;
  entries: EntryService;
  /** What changed since a commit, per caller (docs/changes-feed.md). */
  changes: ChangesFeed;
  /** Domain events, emitted after each commit. */
  events: EventBus;
  /** Users and roles held in memory (state folder). */
  accounts: AccountStore;
  users: UserService;
  tokens: TokenService;
  /** Server-side admin sessions (koa-session's external store). */
  sessions: SessionStore;
  /** Keys that sign the session cookie (app.keys). */
  sessionKeys: string[];
  login: LoginService;
  /** Configured webhooks and the delivery log. */
  webhooks: WebhookService;
  /** The persistent webhook delivery queue, fed by `events`. */
  webhookDispatcher: WebhookDispatcher;
  /** Backup archives in state/backups and their restore; its modules load when first asked for (with the admin API), not by every start; a load that fails is tried again by the next caller. */
  backups: () => Promise<BackupService>;
  /** The services only the admin API uses, built with its first request like `backups`. */
  adminOnly: () => Promise<AdminOnlyServices>;
  /** Update checks against CMS_UPDATE_FEED, staged downloads and unpacked releases; like `backups`, its modules load with the first admin request. */
  updates: () => Promise<UpdateService>;
  /** The media library: uploads, metadata, categories and file serving. */
  media: MediaService;
  /** The activity log; `record()` is open to any service (webhook failures use type `webhook.failed`). */
  activity: ActivityLog;
  /** Announces scheduled entries as their publish time passes. */
  scheduler: PublishScheduler;
  /** The admin app's open live-event streams, fed by `events`; close() ends them. */
  live: LiveFeed;
  /** The built admin web app, or undefined when it has not been built; read when first asked for. */
  adminApp: () => Promise<AppBundle | undefined>;
  /** The API reference page at /api/docs and its files (Swagger UI); read when first asked for. */
  apiDocs: () => Promise<AppBundle>;
  /** Git over HTTP: clone, fetch and push of the content repo (503 git_unavailable without the git CLI). */
  git: GitHttpService;
  /** Reads of types and entries at `?ref=` (a commit, tag or branch). */
  refs: RefReads;
  /** The sync with CMS_GIT_UPSTREAM (a replica's primary), when one is configured and git is installed. */
  upstream: UpstreamSync | undefined;
  /** On a primary: what replicas poll (/replication/v1). */
  replication: ReplicationSource | undefined;
  /** On a replica: the loop that follows the primary, and the wait of forwarded writes. */
  replica: ReplicaFollower | undefined;
  /** Stops background work (the external-commit watcher, pending state writes). */
  close(): Promise<void>;
}

/** The services only the admin API uses: their modules load with its first request (docs/architecture.md, "Loaded on first use"). */
export interface AdminOnlyServices {
  roles: RoleService;
  profiles: ProfileService;
  /** Test deliveries and retries by hand. */
  webhookActions: WebhookActions;
  trash: TrashService;
  revisions: RevisionService;
  dashboard: DashboardService;
  appInfo: AppInfoService;
  /** GET /admin/api/git and POST /admin/api/git/sync. */
  gitStatus: GitStatusService;
  /** Releases: annotated tags on HEAD (/admin/api/releases). */
  releases: ReleaseService;
}

/**
 * Opens the data root (creating the content repo and the default workspace on
 * first start), loads every workspace into memory and starts watching for
 * commits made outside the server.
 */
export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const contentDir = path.join(config.dataDir, 'content');
  await cloneUpstreamOnFirstStart(config, contentDir, logger);
  await ContentRepo.check(contentDir);
  const peer = await GitPeer.open({ ...config.git, root: contentDir, hooksDir: path.join(config.dataDir, 'cache', 'git-hooks') });
  if (!peer) logger.error('the git CLI was not found: git over HTTP, upstream sync and replicas are off until git is installed');
  // A branch move (push, sync) that a kill interrupted is finished before anything reads the content.
  if (await peer?.branches.recover(logger)) logger.info('finished a branch move that was interrupted');
  // A refused start (a damaged repository) must not leave the push hooks' listener keeping the process alive.
  const repo = await ContentRepo.open(contentDir, { splitIndex: config.git.splitIndex, packing: config.git.packing, git: { bin: config.git.bin, env: config.git.env }, logger }).catch(async (error: unknown) => {
    await peer?.close();
    throw error;
  });
  peer?.branches.holdIndexWith(() => repo.holdIndex());
  const state = await StateStore.open(path.join(config.dataDir, 'state'));
  const events = new EventBus((error, event) => logger.error('an event listener failed', { event: event?.type, error }));
  const activity = new ActivityLog(state, (error) => logger.error('could not write the activity log', { error }));
  recordDomainEvents(events, activity);
  const problems = new ProblemRegister(Date.now, config.defaultWorkspace);
  const content = new ContentIndex(repo, problems.reporter(recordSkippedFiles(activity, (problem) => logger.error('skipped a file that cannot be indexed', { ...problem }))), await CommitDates.load(state));
  // Commits from outside (and restores) are re-read into the read models built below; that happens only once the watch has started.
  const writer = new ContentWriter(repo, events, (changes, at) => reindexChangedPaths({ content, workspaces, indexes: [mediaLibrary], problems, announcements: scheduler }, changes, at));
  writer.onWrite(async (paths) => {
    problems.forgetWritten(paths);
    try {
      await content.judgeWorkspaceFilesAgain(paths);
    } catch (error) {
      logger.error('could not judge workspace.yaml again after a write', { error });
    }
  });
  // The scheduler starts after the registry (it lists workspaces); archiving asks it what is announced only later, on a request.
  const announcements: Announcements = { isAnnounced: (ws, entry) => scheduler.isAnnounced(ws, entry), keptPublic: (ws, entry) => scheduler.keptPublic(ws, entry) };
  const workspaces = await WorkspaceService.load(repo, writer, [config.defaultWorkspace], { content, announcements });
  // A replica never commits: its content is its primary's.
  if (config.role === 'primary') await workspaces.ensure(config.defaultWorkspace, config.defaultWorkspace === 'default' ? 'Default' : config.defaultWorkspace);
  const loadedFrom = await repo.head();
  // Entries whose files and type are those of the last start come from its snapshot, unparsed (docs/performance.md).
  const snapshotFile = new SnapshotFile(path.join(config.dataDir, 'cache', 'entries.snapshot'));
  const snapshot = await readEntrySnapshot(snapshotFile, logger);
  content.useSnapshot(snapshot);
  for (const workspace of workspaces.listAll()) await content.loadWorkspace(workspace.slug);
  const snapshotSaver = new EntrySnapshotSaver(snapshotFile, { records: (signal) => content.snapshotRecords(signal), head: () => repo.head(), entryCount: () => content.entryCount() }, logger, {
    head: loadedFrom,
    outdated: snapshot.endLoading(),
  });
  for (const folder of await repo.listFolders('')) await content.checkFolderName(folder);
  // Only when no outside commit landed while loading is it certain which commit the indexes hold (reads at a ref, the changes feed).
  writer.markIndexed((await repo.head()) === loadedFrom ? loadedFrom : undefined);

  const mediaLibrary = new MediaLibrary(repo, problems.reporter(recordSkippedFiles(activity, (problem) => logger.error('skipped a media metadata file that cannot be read', { ...problem }))));
  for (const workspace of workspaces.listAll()) await mediaLibrary.loadWorkspace(workspace.slug);
  const mediaStore = await MediaStore.open(config.dataDir);
  const variants = new ImageVariants({ store: await VariantStore.open(config.dataDir), maxBytes: config.media.variantCacheBytes, logger });
  // Before the watch, so no removal of a record by a commit from outside leaves its local files behind (docs/media.md).
  const hashes = new ContentHashes(mediaStore);
  const removals = { library: mediaLibrary, store: mediaStore, variants, hashes, keepsOriginals: config.role === 'primary', logger };
  writer.onReceive((changes) => dropFilesOfRemovedRecords(removals, changes));
  // Before the watch: commits from outside ask it what is announced already.
  const scheduler = await PublishScheduler.start({
    content,
    ...(config.role === 'primary' ? { writer, files: repo, history: repo } : {}),
    workspaces,
    events,
    state,
    intervalMs: config.schedulerIntervalMs,
    onError: (error) => logger.error('the publish scheduler failed', { error }),
  });
  const stopWatching = watchExternalCommits({ writer, logger, intervalMs: config.watchIntervalMs });
  // On a primary, writes of what replicas receive are counted, so a replica knows when it holds a write.
  const stateVersion = new StateVersion();
  const replicatedState = config.role === 'primary' ? countingWrites(state, stateVersion) : state;
  const accounts = await AccountStore.load(replicatedState);
  const sessions = await SessionStore.load(replicatedState, { idleMs: config.sessionIdleMs });
  const tokens = await TokenService.load(replicatedState);
  const sessionKeys = await loadSessionKeys(replicatedState);
  const stores: StateStores = { accounts, tokens, sessions, sessionKeys, state: replicatedState };
  const primary = config.role === 'replica' && config.primaryUrl ? new PrimaryClient({ baseUrl: config.primaryUrl, token: config.git.upstreamToken }) : undefined;
  const users = new UserService(accounts, sessions);
  const webhooks = await WebhookService.load(state);
  const webhookDispatcher = await WebhookDispatcher.start({
    state,
    webhooks,
    settings: config.webhooks,
    onError: (message, details) => logger.error(message, details),
    onGaveUp: (attempt, workspace) =>
      void activity.record({
        level: 'error',
        type: 'webhook.failed',
        message: `The ${attempt.event} delivery to ${attempt.url} failed after ${attempt.attempt} attempts.`,
        workspace,
        details: { delivery: attempt.id, webhook_id: attempt.webhook_id, status_code: attempt.status_code, error: attempt.error },
      }),
  });
  // The primary delivers webhooks; a replica taking in the same commits must not deliver them again.
  if (config.role === 'primary') events.onGroup((group) => webhookDispatcher.enqueueGroup(group));
  const live = new LiveFeed({ principalFor: (userId) => users.principalFor(userId), content });
  events.on((event) => live.publish(event));
  const types = new TypeService(repo, writer, content, workspaces, scheduler);
  const entries = new EntryService(writer, content, Date.now, scheduler);
  const health = new HealthService(await packageInfo());
  // Opened now, so that drafts a killed upload left are removed at start.
  const backupFolder = await FileFolder.open(path.join(state.dir, 'backups'));
  const backups = once(async () => {
    const { BackupService } = await import('./domain/backups/backup-service.ts');
    return new BackupService({
      folder: backupFolder,
      repo,
      writer,
      content,
      workspaces,
      events,
      media: mediaStore,
      copiesInRepo: config.media.inRepo,
      accounts,
      tokens,
      webhooks,
      state: { users: () => accounts.users(), roles: () => accounts.roles(), tokens: () => tokens.all(), webhooks: () => webhooks.all() },
      version: health.info.version,
      includeSecrets: config.backupIncludeSecrets,
      limits: config.backups,
      activity,
      maxObjectBytes: Math.min(config.backups.maxBytes, 2 ** 31 - 1),
      maxMediaBytes: config.limits.uploadFileBytes,
    });
  });
  const upstream =
    peer && config.git.upstream
      ? new UpstreamSync({
          peer,
          remote: peer.remote({ url: config.git.upstream, token: config.git.upstreamToken }),
          mode: config.role === 'replica' ? 'follow' : 'sync',
          branch: config.git.branch,
          repo,
          writer,
          events,
          logger,
          intervalMs: config.git.syncIntervalMs,
        })
      : undefined;
  const git = new GitHttpService({ peer, repo, writer, content, activity, logger, onLanded: () => upstream?.pushSoon() });
  const mediaSizes = new StoredSizes(mediaLibrary, (workspace, filename) => mediaStore.sizeOf('file', workspace, filename));
  const media = new MediaService({
    writer,
    content,
    workspaces,
    library: mediaLibrary,
    store: mediaStore,
    hashes,
    sizes: mediaSizes,
    variants,
    allowedTypes: resolveAllowedTypes(config.media.allowedTypes),
    logger,
    missingFiles: primary && ((workspace, filename) => primary.media(workspace, filename)),
    copiesInRepo: config.media.inRepo,
  });
  // Public files without their copy in the repo (uploaded before copies were kept) get one now, on the node that commits.
  if (config.role === 'primary' && config.media.inRepo) {
    for (const workspace of workspaces.listAll()) {
      const copied = await copyMissingPublicFiles({ writer, files: repo, library: mediaLibrary, store: mediaStore }, workspace.slug);
      if (copied > 0) logger.info('copied public media files into the content repo', { workspace: workspace.slug, files: copied });
    }
  }
  const replication = config.role === 'primary' ? new ReplicationSource({ version: stateVersion, repo, stores, media, events }) : undefined;
  const replica =
    primary && peer && upstream && config.primaryUrl
      ? new ReplicaFollower({ client: primary, upstream, branches: peer.branches, repo, writer, applyState: (snapshot) => applyReplicatedState(stores, snapshot), logger }, config.primaryUrl)
      : undefined;
  health.reportNodeWith(async () => ({
    role: config.role,
    git_available: peer !== undefined,
    branch: await repo.currentBranch(),
    ...(replica ? await replicaHealth(replica) : { head: await repo.head(), lag_ms: 0 }),
  }));
  // A replica's follower drives its syncs; the interval is its fallback.
  upstream?.start();
  replica?.start();
  const updateStaging = await FileFolder.open(path.join(state.dir, 'updates'));
  // Read and hashed when first asked for, not by every start (~50 ms before the first answer).
  const adminApp = once(() => AppBundle.load(config.adminAppDir));
  const apiDocs = once(async () => AppBundle.of(Buffer.from(DOCS_PAGE_HTML), { ...(await loadSwaggerUi()), 'docs.js': Buffer.from(DOCS_PAGE_SCRIPT) }));
  // Started last and not awaited, with nothing awaited after it: its first slice runs after the caller has started listening.
  // Again after every change, for the types it leaves without a search index (a new type, an outside commit's entries).
  const searchWarmUp = new AbortController();
  const warmSearch = () => content.warmSearchSoon({ signal: searchWarmUp.signal }).catch((error: unknown) => logger.error('could not build the search indexes ahead of time', { error }));
  let warmingSearch = warmSearch();
  events.onGroup(() => {
    warmingSearch = warmSearch();
  });
  return {
    config,
    logger,
    repo,
    writer,
    state,
    content,
    problems,
    health,
    workspaces,
    types,
    entries,
    changes: new ChangesFeed(repo, writer, content, workspaces),
    events,
    accounts,
    users,
    tokens,
    sessions,
    sessionKeys,
    login: new LoginService({ accounts, users, workspaces, throttle: new LoginThrottle(), defaultWorkspace: config.defaultWorkspace, onAttempt: recordLoginAttempts(activity) }),
    webhooks,
    webhookDispatcher,
    backups,
    adminOnly: once(async () => {
      const [{ RoleService }, { ProfileService }, { WebhookActions }, { TrashService }, { RevisionService }, { DashboardService }, { AppInfoService }, { GitStatusService }, { ReleaseService }] = await Promise.all([
        import('./domain/auth/role-service.ts'),
        import('./domain/auth/profile-service.ts'),
        import('./domain/webhooks/webhook-actions.ts'),
        import('./domain/trash/trash-service.ts'),
        import('./domain/history/revision-service.ts'),
        import('./domain/dashboard/dashboard-service.ts'),
        import('./domain/dashboard/app-info.ts'),
        import('./domain/git/git-status.ts'),
        import('./domain/git/release-service.ts'),
      ]);
      return {
        roles: new RoleService(accounts),
        profiles: new ProfileService(users, stateAvatarFiles(state)),
        webhookActions: new WebhookActions(webhooks, webhookDispatcher),
        trash: new TrashService(repo, writer, content),
        revisions: new RevisionService(repo, writer, content, Date.now, scheduler),
        dashboard: new DashboardService({ content, workspaces, types, activity, media: mediaSizes, problems }),
        appInfo: new AppInfoService({ config, health, repoHead: async () => ({ branch: await repo.currentBranch(), head: await repo.head() }) }),
        gitStatus: new GitStatusService({ role: config.role, isGitAvailable: peer !== undefined, repo, http: git, upstream }),
        releases: new ReleaseService({ peer, repo, writer }),
      };
    }),
    updates: once(async () => {
      const { UpdateService } = await import('./domain/updates/update-service.ts');
      return new UpdateService({
        feedUrl: config.updateFeed,
        currentVersion: health.info.version,
        state,
        staging: updateStaging,
        releases: () => FileFolder.open(config.releasesDir),
      });
    }),
    media,
    activity,
    scheduler,
    live,
    adminApp,
    apiDocs,
    git,
    refs: new RefReads({ repo, writer, current: { content, entries, types } }),
    upstream,
    replication,
    replica,
    close: async () => {
      await live.close();
      searchWarmUp.abort();
      await warmingSearch;
      replication?.close();
      await replica?.stop();
      await upstream?.stop();
      stopWatching();
      await scheduler.stop();
      await webhookDispatcher.close();
      // Batched "last used" and "last seen" times are written before exit.
      await tokens.flush();
      await snapshotSaver.close();
      await sessions.flush();
      await activity.flush();
      // Last: queued commits finish and background packing stops.
      await repo.close();
      await peer?.close();
    },
  };
}

async function packageInfo(): Promise<{ name: string; version: string }> {
  const manifest = JSON.parse(await readFile(path.join(findPackageRoot(import.meta.url), 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: manifest.name, version: manifest.version };
}

// A server given an upstream and no content repo yet starts from the
// upstream's content (a replica must: its history is its primary's). An
// upstream without that branch yet is filled by the first push instead.
async function cloneUpstreamOnFirstStart(config: Config, contentDir: string, logger: Logger): Promise<void> {
  const { upstream, upstreamToken, branch } = config.git;
  if (upstream === undefined || (await pathExists(path.join(contentDir, '.git')))) return;
  let cloned = false;
  try {
    cloned = await GitPeer.cloneInto(config.git, { url: upstream, token: upstreamToken }, contentDir, branch ?? 'main');
  } catch (error) {
    logger.error('could not clone the upstream', { upstream: displayUrl(upstream), error });
  }
  if (cloned) logger.info('cloned the content repository from the upstream', { upstream: displayUrl(upstream) });
  else if (config.role === 'replica') {
    throw new ConfigError(`A new replica starts from its primary's content, but it could not be cloned from ${displayUrl(upstream)}: start the replica once the primary answers (and git is installed).`);
  }
}

async function replicaHealth(replica: ReplicaFollower): Promise<{ head: string; lag_ms: number; primary: NonNullable<NodeHealth['primary']> }> {
  const { head, lag_ms, primary, reachable, last_contact_at, primary_head } = await replica.health();
  return { head, lag_ms, primary: { url: primary, reachable, last_contact_at, head: primary_head } };
}

