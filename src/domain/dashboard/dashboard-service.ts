// The admin dashboard (GET /admin/api/dashboard): entry counts by type and
// status, media count and bytes, recent activity and recent edits, for one
// workspace and limited to what the signed-in user may read. Everything is
// answered from memory except the activity log's tail.
import type { ActivityLog, ActivityRecord } from '../activity/activity-log.ts';
import { can } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContentIndex } from '../content/content-index.ts';
import { problemsAccess, type ContentProblem, type ProblemRegister } from '../content/problem-register.ts';
import { readsWholeCollection } from '../auth/content-access.ts';
import { ENTRY_STATUSES, type EntryStatus, type StoredEntry } from '../model/entry.ts';
import { workspaceFilePath, type Workspace } from '../model/workspace-file.ts';
import type { TypeService } from '../types/type-service.ts';
import { manageAccess, type WorkspaceService } from '../workspaces/workspace-service.ts';

/** Entry counts of one content type. */
export interface TypeSummary {
  name: string;
  label: string;
  singleton: boolean;
  total: number;
  by_status: Record<EntryStatus, number>;
}

/** One recently changed entry. */
export interface RecentEdit {
  type: string;
  id: string;
  slug: string;
  title: string;
  status: EntryStatus;
  updated_at: string;
  updated_by: string | null;
}

/** The dashboard's data. */
export interface Dashboard {
  workspace: string;
  /** True for an archived workspace (only those who may manage it see its dashboard). */
  archived: boolean;
  /** Archived although its workspace.yaml does not say whether it is (WorkspaceService.isArchivedInDoubt()). */
  archived_in_doubt: boolean;
  /** The problems of `{ws}/workspace.yaml` (which says whether the workspace is archived), for those who may manage the workspace or read its problems; else empty. */
  workspace_file_problems: SkippedFile[];
  types: TypeSummary[];
  totals: { entries: number; by_status: Record<EntryStatus, number> };
  /** Null when the user may not read media. */
  media: { count: number; bytes: number } | null;
  /** Empty without activity.read. */
  recent_activity: ActivityRecord[];
  recent_edits: RecentEdit[];
  /** Entries waiting for their publish time, soonest first. */
  scheduled: ScheduledEntry[];
  /** Files of this workspace the server skips now (the problems register), by path; empty without problems.read. */
  skipped_files: SkippedFile[];
}

/** An entry that goes public at `published_at`. */
export interface ScheduledEntry {
  type: string;
  id: string;
  slug: string;
  title: string;
  published_at: string;
}

/** A file the server skips, and why: `reason` is `field: message` when a field is to blame; `time` is since when the file has had this problem (ContentProblem.since). */
export interface SkippedFile {
  path: string;
  field?: string;
  message: string;
  reason: string;
  time: string;
}

/** Where media counts come from: the media library's records of a workspace, with the sizes of their stored originals (StoredSizes). */
export interface MediaStatsSource {
  all(workspace: string): Promise<readonly { size: number }[]>;
}

/** What the dashboard reads; built in services.ts. */
export interface DashboardDeps {
  content: ContentIndex;
  workspaces: Pick<WorkspaceService, 'getForManagers' | 'isArchivedInDoubt'>;
  types: Pick<TypeService, 'listIn'>;
  activity: Pick<ActivityLog, 'recent'>;
  media?: MediaStatsSource;
  problems: Pick<ProblemRegister, 'list'>;
}

/** How many recent activity records and edits the dashboard shows. */
export const DASHBOARD_RECENT = 10;
/** How many skipped files the dashboard lists (GET /problems has them all). */
export const DASHBOARD_SKIPPED = 50;

/** Builds dashboards. */
export class DashboardService {
  constructor(private readonly deps: DashboardDeps) {}

  /**
   * The dashboard of `workspace` for `principal`: types it may read
   * (content.read on the collection), media with media.read, activity with
   * activity.read, skipped files with problems.read. An archived
   * workspace's dashboard (marked archived, with the problems of its
   * workspace.yaml) is for those who may manage it, so the admin app can
   * show why it is archived. Throws not_found for an unknown workspace, and
   * for an archived one to everyone else.
   */
  async summary(principal: Principal, workspace: string): Promise<Dashboard> {
    const found = this.deps.workspaces.getForManagers(principal, workspace);
    const { types, totals, edits, scheduled } = this.countEntries(principal, found);
    const mayReadActivity = can(principal, { action: 'activity.read', resource: 'activity:*', workspace: ALL_WORKSPACES });
    const mayReadProblems = can(principal, problemsAccess(workspace));
    // Live: a file fixed by a later commit is gone at once.
    const problems = mayReadProblems || can(principal, manageAccess(workspace)) ? this.deps.problems.list(workspace) : [];
    return {
      workspace,
      archived: found.archived,
      archived_in_doubt: found.archived && this.deps.workspaces.isArchivedInDoubt(workspace),
      workspace_file_problems: problems.filter((problem) => problem.path === workspaceFilePath(workspace)).map(presentSkipped),
      types,
      totals,
      media: await this.mediaStats(principal, workspace),
      recent_activity: mayReadActivity ? await this.deps.activity.recent(DASHBOARD_RECENT) : [],
      recent_edits: edits.map(presentEdit),
      scheduled: scheduled
        .sort((a, b) => String(a.published_at).localeCompare(String(b.published_at)))
        .slice(0, DASHBOARD_RECENT)
        .map((entry) => ({ type: entry.type, id: entry.id, slug: entry.slug, title: entry.title, published_at: String(entry.published_at) })),
      skipped_files: mayReadProblems ? problems.slice(0, DASHBOARD_SKIPPED).map(presentSkipped) : [],
    };
  }

  // Counts by type and status over the types `principal` may read whole, with the newest edits and the scheduled entries.
  private countEntries(principal: Principal, workspace: Workspace) {
    const readable = this.deps.types.listIn(principal, workspace).filter((type) => readsWholeCollection(principal, workspace.slug, type.name));
    const types: TypeSummary[] = [];
    const totals = { entries: 0, by_status: emptyCounts() };
    const edits: StoredEntry[] = [];
    const scheduled: StoredEntry[] = [];
    for (const type of readable) {
      const entries = this.deps.content.findType(workspace.slug, type.name)?.index.all() ?? [];
      scheduled.push(...entries.filter((entry) => entry.status === 'scheduled' && entry.published_at));
      const byStatus = emptyCounts();
      for (const entry of entries) byStatus[entry.status] += 1;
      for (const status of ENTRY_STATUSES) totals.by_status[status] += byStatus[status];
      totals.entries += entries.length;
      types.push({ name: type.name, label: type.label, singleton: type.singleton, total: entries.length, by_status: byStatus });
      keepNewest(edits, entries, DASHBOARD_RECENT);
    }
    return { types, totals, edits, scheduled };
  }

  private async mediaStats(principal: Principal, workspace: string): Promise<Dashboard['media']> {
    if (!can(principal, { action: 'media.read', resource: 'media:*', workspace })) return null;
    const records = (await this.deps.media?.all(workspace)) ?? [];
    return { count: records.length, bytes: records.reduce((sum, record) => sum + record.size, 0) };
  }
}

function emptyCounts(): Record<EntryStatus, number> {
  return Object.fromEntries(ENTRY_STATUSES.map((status) => [status, 0])) as Record<EntryStatus, number>;
}

// Keeps `kept` as the `limit` most recently updated entries seen so far, newest first.
function keepNewest(kept: StoredEntry[], entries: StoredEntry[], limit: number): void {
  for (const entry of entries) {
    if (kept.length >= limit && entry.updated_at <= kept[kept.length - 1].updated_at) continue;
    const at = kept.findIndex((other) => entry.updated_at > other.updated_at);
    kept.splice(at === -1 ? kept.length : at, 0, entry);
    if (kept.length > limit) kept.pop();
  }
}

function presentSkipped({ path, field, message, since }: ContentProblem): SkippedFile {
  return { path, ...(field === undefined ? {} : { field }), message, reason: field === undefined ? message : `${field}: ${message}`, time: since };
}

function presentEdit(entry: StoredEntry): RecentEdit {
  return { type: entry.type, id: entry.id, slug: entry.slug, title: entry.title, status: entry.status, updated_at: entry.updated_at, updated_by: entry.updated_by ?? null };
}
