// Running the site: webhooks and their deliveries, backups, workspaces, the
// activity log, the dashboard and updates.
import { API_ROOT, del, get, post, put, upload } from './client.ts';
import type { ListMeta, Workspace } from './types.ts';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** One content.batch per commit instead of one event per entry, and one media.batch per change instead of one per file. */
  batch: boolean;
  has_secret: boolean;
}

/** What the webhook form sends; `secret` undefined keeps the stored one, null removes it. */
export interface WebhookInput {
  id?: string;
  url: string;
  events: string[];
  enabled: boolean;
  batch: boolean;
  secret?: string | null;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  event: string;
  url: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  ok: boolean;
  error: string | null;
  attempted_at: string;
  next_attempt_at: string | null;
}

export interface Backup {
  name: string;
  size: number;
  created_at: string;
  parts: string[];
}

export interface BackupDetail extends Omit<Backup, 'parts'> {
  version: string;
  parts: Record<string, number>;
  includes: string[];
  includes_secrets: boolean;
}

export interface ActivityRecord {
  id: string;
  time: string;
  level: 'info' | 'warning' | 'error';
  type: string;
  message: string;
  user_id: string | null;
  workspace: string | null;
  details: Record<string, unknown>;
}

export interface ActivityFilters {
  type?: string;
  actor?: string;
  content_type?: string;
  from?: string;
  until?: string;
  limit: number;
  offset: number;
}

/** A file the server skips, as the dashboard lists it; `reason` is `field: message`. */
export interface SkippedFile {
  path: string;
  field?: string;
  message: string;
  reason: string;
  time: string;
}

export interface Dashboard {
  /** An archived workspace's dashboard is answered only to those who may manage workspaces. */
  archived: boolean;
  /** Archived although its workspace.yaml does not say whether it is (docs/cli.md "In doubt, not published"). */
  archived_in_doubt: boolean;
  /** The problems of the workspace's workspace.yaml, for those who may manage it or read problems. */
  workspace_file_problems: SkippedFile[];
  types: { name: string; label: string; singleton: boolean; total: number; by_status: Record<string, number> }[];
  totals: { entries: number; by_status: Record<string, number> };
  media: { count: number; bytes: number } | null;
  recent_activity: ActivityRecord[];
  recent_edits: { type: string; id: string; slug: string; title: string; status: string; updated_at: string; updated_by: string | null }[];
  scheduled: { type: string; id: string; slug: string; title: string; published_at: string }[];
  /** Files the server skips now (the problems register). */
  skipped_files: SkippedFile[];
}

export interface UpdateStatus {
  configured: boolean;
  state: string;
  current_version: string;
  latest_version: string | null;
  latest: { version: string; notes: string } | null;
  staged: { version: string } | null;
  installed: { version: string } | null;
  restart_required: boolean;
  message: string;
}

/** The configured webhooks. Throws ApiError. */
export async function listWebhooks(): Promise<{ webhooks: Webhook[]; events: string[] }> {
  const result = await get<Webhook[], { events: string[] }>('/webhooks');
  return { webhooks: result.data, events: result.meta.events };
}

/** Saves the whole list of webhooks (the API replaces it). Throws ApiError (422 with `fields` such as `webhooks.0.url`). */
export async function saveWebhooks(webhooks: WebhookInput[]): Promise<Webhook[]> {
  return (await put<Webhook[]>('/webhooks', { webhooks })).data;
}

/** Queues a test delivery to one webhook. Throws ApiError. */
export async function testWebhook(id: string): Promise<void> {
  await post(`/webhooks/${encodeURIComponent(id)}/test`);
}

/** Delivery attempts, newest first. Throws ApiError. */
export async function listDeliveries(page: { limit: number; offset: number }): Promise<{ deliveries: Delivery[]; meta: ListMeta }> {
  const result = await get<Delivery[], ListMeta>('/webhooks/deliveries', { query: page });
  return { deliveries: result.data, meta: result.meta };
}

/** Sends a delivery that gave up once more. Throws ApiError (404 when it did not give up). */
export async function retryDelivery(id: string): Promise<void> {
  await post(`/webhooks/deliveries/${encodeURIComponent(id)}/retry`);
}

/** The backups, and the parts an archive can hold. Throws ApiError. */
export async function listBackups(): Promise<{ backups: Backup[]; parts: string[]; defaultParts: string[] }> {
  const result = await get<Backup[], { parts: string[]; default_parts: string[] }>('/backups');
  return { backups: result.data, parts: result.meta.parts, defaultParts: result.meta.default_parts };
}

/** Makes a backup of the chosen parts. Throws ApiError. */
export async function createBackup(parts: string[]): Promise<BackupDetail> {
  return (await post<BackupDetail>('/backups', { parts })).data;
}

/** Uploads an archive made elsewhere, reporting progress. Throws ApiError (422 for an archive that is not a backup). */
export async function uploadBackup(file: File, onProgress: (share: number) => void): Promise<BackupDetail> {
  const form = new FormData();
  form.append('backup', file, file.name);
  return (await upload<BackupDetail>('/backups/upload', form, onProgress)).data;
}

/** What an archive holds, counted per part. Throws ApiError. */
export async function inspectBackup(name: string): Promise<BackupDetail> {
  return (await get<BackupDetail>(`/backups/${encodeURIComponent(name)}/inspect`)).data;
}

/** Where the browser downloads an archive (the session cookie goes along). */
export function backupDownloadUrl(name: string): string {
  return `${API_ROOT}/backups/${encodeURIComponent(name)}/download`;
}

/** Restores chosen parts; `overwrite` replaces what exists. Throws ApiError. */
export async function restoreBackup(name: string, parts: string[], overwrite: boolean): Promise<{ restored: Record<string, number>; notes: string[] }> {
  return (await post<{ restored: Record<string, number>; notes: string[] }>(`/backups/${encodeURIComponent(name)}/restore`, { parts, overwrite })).data;
}

/** Deletes an archive. Throws ApiError. */
export async function deleteBackup(name: string): Promise<void> {
  await del(`/backups/${encodeURIComponent(name)}`);
}

/** Every workspace, archived ones included. Throws ApiError. */
export async function listAllWorkspaces(): Promise<Workspace[]> {
  return (await get<Workspace[]>('/workspaces', { query: { include_archived: 'true' } })).data;
}

/** Creates a workspace. Throws ApiError (422, 409 for a taken slug). */
export async function createWorkspace(slug: string, label: string): Promise<Workspace> {
  return (await post<Workspace>('/workspaces', { slug, label })).data;
}

/** Renames, archives or brings back a workspace. Throws ApiError. */
export async function updateWorkspace(slug: string, change: { label?: string; archived?: boolean }): Promise<Workspace> {
  return (await put<Workspace>(`/workspaces/${encodeURIComponent(slug)}`, change)).data;
}

/** One page of the activity log. Throws ApiError. */
export async function listActivity(filters: ActivityFilters): Promise<{ records: ActivityRecord[]; meta: ListMeta }> {
  const result = await get<ActivityRecord[], ListMeta>('/activity', { query: { ...filters } });
  return { records: result.data, meta: result.meta };
}

/** The dashboard of `workspace` (the selected one without it). Throws ApiError (404 for an archived workspace without workspaces.manage). */
export async function getDashboard(workspace?: string, signal?: AbortSignal): Promise<Dashboard> {
  return (await get<Dashboard>('/dashboard', { workspace, signal })).data;
}

/** The update status. Throws ApiError. */
export async function getUpdateStatus(): Promise<UpdateStatus> {
  return (await get<UpdateStatus>('/update')).data;
}

/** Checks for, downloads or installs an update. Throws ApiError. */
export async function runUpdateStep(step: 'check' | 'download' | 'install'): Promise<UpdateStatus> {
  return (await post<UpdateStatus>(`/update/${step}`)).data;
}
