// The content repo as a git peer, at a glance (GET /admin/api/git): the
// branch and head, the upstream (without secrets) with ahead/behind and the
// last fetch, push and conflict, and the last push taken in over HTTP; and
// the on-demand sync (POST /admin/api/git/sync).
import { AppError } from '../../errors/app-error.ts';
import { authorize } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContentReader } from '../content/content-writer.ts';
import { gitUnavailable, type GitHttpService, type ReceivedPush } from './git-http-service.ts';
import type { StepReport, UpstreamStatus, UpstreamSync } from './upstream-sync.ts';

/** The body of GET /admin/api/git. */
export interface GitStatus {
  role: 'primary' | 'replica';
  branch: string | null;
  head: string;
  /** The upstream's URL without credentials, or null when none is configured. */
  upstream: string | null;
  upstream_branch: string | null;
  ahead: number | null;
  behind: number | null;
  last_fetch: StepReport | null;
  last_push: StepReport | null;
  last_conflict: UpstreamStatus['last_conflict'];
  last_received_push: ReceivedPush | null;
}

/** What the status is read from. */
export interface GitStatusDeps {
  role: GitStatus['role'];
  isGitAvailable: boolean;
  repo: ContentReader;
  http: GitHttpService;
  upstream: UpstreamSync | undefined;
}

/** Status and on-demand sync of the content repo's git peers. */
export class GitStatusService {
  constructor(private readonly deps: GitStatusDeps) {}

  /** The status. Needs `git.pull`. Throws unauthorized, forbidden, git_unavailable. */
  async status(principal: Principal): Promise<GitStatus> {
    this.check(principal, 'git.pull');
    return this.read();
  }

  /**
   * Fetches from the upstream, takes its commits in and pushes local ones
   * now, then answers the status (a failure shows in last_fetch or
   * last_push). Needs `git.push`. Throws unauthorized, forbidden,
   * git_unavailable, conflict (409) when no upstream is configured.
   */
  async sync(principal: Principal): Promise<GitStatus> {
    this.check(principal, 'git.push');
    if (!this.deps.upstream) throw new AppError('conflict', 'No upstream is configured (CMS_GIT_UPSTREAM), so there is nothing to sync with.');
    await this.deps.upstream.sync();
    return this.read();
  }

  private check(principal: Principal, action: string): void {
    authorize(principal, { action, resource: 'git:*', workspace: ALL_WORKSPACES });
    if (!this.deps.isGitAvailable) throw gitUnavailable();
  }

  private async read(): Promise<GitStatus> {
    const { repo, upstream, role, http } = this.deps;
    const synced = upstream ? await upstream.status() : undefined;
    return {
      role,
      branch: await repo.currentBranch(),
      head: await repo.head(),
      upstream: synced?.url ?? null,
      upstream_branch: synced?.branch ?? null,
      ahead: synced?.ahead ?? null,
      behind: synced?.behind ?? null,
      last_fetch: synced?.last_fetch ?? null,
      last_push: synced?.last_push ?? null,
      last_conflict: synced?.last_conflict ?? null,
      last_received_push: http.lastReceivedPush() ?? null,
    };
  }
}
