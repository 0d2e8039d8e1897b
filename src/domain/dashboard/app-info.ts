// GET /admin/api/app: what the admin UI needs to know about this server:
// name and version, the default and selected workspace, request limits,
// optional features, and which branch and commit the content repo is on.
import type { Config } from '../../config/config.ts';
import { MAX_BULK_IDS } from '../entries/entry-bulk.ts';
import type { HealthService } from '../health.ts';

/** The app description the admin UI reads at start. */
export interface AppInfo {
  name: string;
  version: string;
  default_workspace: string;
  workspace: string;
  limits: { json_body_bytes: number; upload_file_bytes: number; upload_files: number; bulk_ids: number };
  features: { thumbnails: boolean; zip: boolean; revisions: true; trash: true; scheduled_publishing: true };
  content_repo: { branch: string | null; head: string };
}

/** Where HEAD points: the branch name (null when detached) and the commit. */
export type RepoHead = () => Promise<{ branch: string | null; head: string }>;

/** What AppInfoService reads; built in services.ts. */
export interface AppInfoDeps {
  config: Pick<Config, 'defaultWorkspace' | 'limits'>;
  health: Pick<HealthService, 'report'>;
  repoHead: RepoHead;
}

/** Answers GET /admin/api/app; every signed-in user may read it. */
export class AppInfoService {
  constructor(private readonly deps: AppInfoDeps) {}

  /** The description, with `workspace` the one the request selected. Throws what reading HEAD throws. */
  async info(workspace: string): Promise<AppInfo> {
    const { config, health, repoHead } = this.deps;
    const report = await health.report();
    return {
      name: report.name,
      version: report.version,
      default_workspace: config.defaultWorkspace,
      workspace,
      limits: {
        json_body_bytes: config.limits.jsonBodyBytes,
        upload_file_bytes: config.limits.uploadFileBytes,
        upload_files: config.limits.uploadFiles,
        bulk_ids: MAX_BULK_IDS,
      },
      features: { thumbnails: report.extensions.gd, zip: report.extensions.zip, revisions: true, trash: true, scheduled_publishing: true },
      content_repo: await repoHead(),
    };
  }
}
