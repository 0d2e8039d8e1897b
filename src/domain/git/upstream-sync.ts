// Keeping the content repo in step with an upstream (GitHub, Gitea, a bare
// repository, or, for a replica, its primary). Every interval, and on
// demand, the upstream's branch is fetched and taken in through the write
// path: a fast-forward when only the upstream moved; when both moved, the
// local commits not pushed yet are replayed onto the upstream and validated
// again; a conflict that cannot be resolved parks the local commits on
// `cms/conflict-<time>`, adopts the upstream and is reported (activity,
// webhook `git.conflict`, status). Local commits are pushed in the
// background, with growing waits after failures. Nothing is ever lost: every
// commit stays on a branch. A replica (`follow` mode) also mirrors its
// primary's tags, the releases, at every fetch.
import type { Logger } from '../../lib/logger.ts';
import { trackingRef, type GitPeer, type GitRemote, type PushOutcome } from '../../storage/git-cli/git-peer.ts';
import type { ContentReader, ContentTransaction, ContentWriter } from '../content/content-writer.ts';
import { EVERY_WORKSPACE, type EventBus } from '../model/events.ts';
import { entriesAtCommit } from './commit-entries.ts';
import { formatProblem } from '../content/file-rules.ts';
import { validatePush } from './push-validation.ts';
import { unlessWorkingTreeBehind } from './working-tree-behind.ts';

/** `sync`: a primary's two-way sync; `follow`: a replica only takes its primary's commits. */
export type SyncMode = 'sync' | 'follow';

/** What UpstreamSync works with. */
export interface UpstreamSyncDeps {
  peer: GitPeer;
  remote: GitRemote;
  mode: SyncMode;
  /** The upstream branch; undefined: the same name as the local branch. */
  branch: string | undefined;
  repo: ContentReader;
  writer: ContentWriter;
  events: EventBus;
  logger: Logger;
  intervalMs: number;
  now?: () => number;
}

/** When a step last ran and how it ended (error: null when it worked). */
export interface StepReport {
  at: string;
  error: string | null;
}

/** GET /admin/api/git's upstream part. */
export interface UpstreamStatus {
  /** The upstream's URL without credentials. */
  url: string;
  branch: string;
  /** Local commits the upstream does not have yet, and upstream commits not taken in yet (as of the last fetch). */
  ahead: number;
  behind: number;
  last_fetch: StepReport | null;
  last_push: StepReport | null;
  /** The last time local commits had to be parked on a branch. */
  last_conflict: { branch: string; at: string; local: string; upstream: string } | null;
}

// What one run does: fetch (knowing the upstream's head already, when a primary announced it) and push.
interface Steps {
  fetch: boolean;
  push: boolean;
  announced?: string;
}

const CONFLICT_PREFIX = 'cms/conflict-';
const PUSH_DELAY_MS = 50;
const FIRST_RETRY_MS = 500;

/** The background sync with one upstream; services.ts starts it when CMS_GIT_UPSTREAM is set. */
export class UpstreamSync {
  private lastFetch: StepReport | null = null;
  private lastPush: StepReport | null = null;
  private lastConflict: UpstreamStatus['last_conflict'] = null;
  private toldConflict: UpstreamStatus['last_conflict'] = null;
  private running: Promise<void> | undefined;
  private again: Steps | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pushTimer: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly deps: UpstreamSyncDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Syncs now and then every interval; in `sync` mode also pushes soon after every change. */
  start(): void {
    if (this.deps.mode === 'sync') this.deps.events.on(() => this.pushSoon());
    this.timer = setInterval(() => void this.sync(), this.deps.intervalMs);
    this.timer.unref();
    void this.sync();
  }

  /** Pushes local commits shortly (a push that landed, a write); coalesces bursts. */
  pushSoon(delayMs = PUSH_DELAY_MS): void {
    if (this.deps.mode !== 'sync' || this.stopped || this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      void this.run({ fetch: false, push: true });
    }, delayMs);
    this.pushTimer.unref();
  }

  /**
   * Fetches, takes in what the upstream has and (in `sync` mode) pushes what
   * it lacks; resolves when done. Failures are recorded in the status, never
   * thrown. A call while a sync runs resolves after a further one.
   */
  sync(announced?: string): Promise<void> {
    return this.run({ fetch: true, push: this.deps.mode === 'sync', announced });
  }

  /** Where the sync stands (GET /admin/api/git). */
  async status(): Promise<UpstreamStatus> {
    const branch = await this.upstreamBranch();
    const { peer } = this.deps;
    const local = await this.deps.repo.head();
    const tracked = await peer.branches.resolve(trackingRef(branch));
    const counts = tracked ? await peer.branches.aheadBehind(local, tracked) : { ahead: await peer.branches.countCommits(local), behind: 0 };
    return { url: this.deps.remote.displayUrl, branch, ...counts, last_fetch: this.lastFetch, last_push: this.lastPush, last_conflict: this.lastConflict };
  }

  /** Stops the timers and waits for a sync in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.pushTimer);
    await this.running;
  }

  // One sync at a time; what is asked meanwhile runs once right after.
  private run(steps: Steps): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = { fetch: steps.fetch || !!this.again?.fetch, push: steps.push || !!this.again?.push, announced: steps.announced ?? this.again?.announced };
      return this.running.then(() => this.running ?? Promise.resolve());
    }
    this.running = this.steps(steps).finally(() => {
      this.running = undefined;
      const next = this.again;
      this.again = undefined;
      if (next) void this.run(next);
    });
    return this.running;
  }

  private async steps(steps: Steps): Promise<void> {
    if (steps.fetch && !(await this.fetchAndTakeIn(steps.announced))) return;
    if (!steps.push) return;
    // Refused because the upstream moved meanwhile: take its commits in and try once more.
    if ((await this.pushLocal()) === 'rejected' && (await this.fetchAndTakeIn())) await this.pushLocal();
  }

  // Returns false when the upstream could not be reached (the push would fail too).
  private async fetchAndTakeIn(announced?: string): Promise<boolean> {
    const { peer, remote } = this.deps;
    const branch = await this.upstreamBranch();
    try {
      // A primary that announced its head saves the round trip that asks for it.
      const head = announced ?? (await remote.headOf(branch));
      // A replica mirrors its primary's tags (releases), which move without
      // the branch, so its timed syncs fetch even when the branch stands still.
      const isFollowing = this.deps.mode === 'follow';
      const isBranchNew = head !== undefined && head !== (await peer.branches.resolve(trackingRef(branch)));
      if (isBranchNew || (isFollowing && head !== undefined && announced === undefined)) await remote.fetch(peer.gitdir, branch, { mirrorTags: isFollowing });
      this.lastFetch = this.report(null);
      const fetched = await peer.branches.resolve(trackingRef(branch));
      if (fetched !== undefined) await this.deps.writer.transaction((tx) => this.takeIn(tx, fetched));
      // Told once the transaction is over, so listeners never run inside it.
      if (this.lastConflict && this.lastConflict !== this.toldConflict) this.tellConflict(this.lastConflict);
      return true;
    } catch (error) {
      this.lastFetch = this.report(error);
      this.deps.logger.error('could not sync with the upstream', { upstream: remote.displayUrl, error });
      return false;
    }
  }

  private async takeIn(tx: ContentTransaction, upstream: string): Promise<void> {
    const { peer, repo } = this.deps;
    const local = await repo.head();
    const branch = await this.localBranch();
    const base = await peer.branches.mergeBase(local, upstream);
    if (local === upstream || base === upstream) return;
    if (base === local) return this.adopt(tx, branch, local, upstream);
    const replayed = this.deps.mode === 'sync' ? await this.replay(base, local, upstream) : undefined;
    if (replayed !== undefined) return this.adopt(tx, branch, local, replayed);
    await this.park(tx, branch, local, upstream);
  }

  // Local commits onto the upstream, valid by the same rules as a push; undefined when that cannot be.
  private async replay(base: string | undefined, local: string, upstream: string): Promise<string | undefined> {
    const { peer, logger } = this.deps;
    const replayed = await peer.branches.replay(base, local, upstream);
    if (replayed === undefined) return undefined;
    const files = peer.commitFiles();
    const problems = await validatePush(files, entriesAtCommit(files, upstream), { from: upstream, to: replayed });
    if (problems.length === 0) return replayed;
    logger.error('local commits replayed onto the upstream break the content rules', { problems: problems.map(formatProblem).slice(0, 20) });
    return undefined;
  }

  private async adopt(tx: ContentTransaction, branch: string, from: string, to: string): Promise<void> {
    await this.deps.peer.branches.move(branch, from, to).catch(unlessWorkingTreeBehind(this.deps.logger));
    await tx.receiveCommits(from, to);
  }

  // Nothing is lost: the local commits stay on a branch of their own.
  private async park(tx: ContentTransaction, branch: string, local: string, upstream: string): Promise<void> {
    const at = new Date(this.now());
    const parked = `${CONFLICT_PREFIX}${at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
    let name = parked;
    for (let suffix = 2; (await this.deps.peer.branches.resolve(`refs/heads/${name}`)) !== undefined; suffix++) name = `${parked}-${suffix}`;
    await this.deps.peer.branches.createBranch(name, local);
    await this.adopt(tx, branch, local, upstream);
    this.lastConflict = { branch: name, at: at.toISOString(), local, upstream };
    this.deps.logger.error('local commits conflict with the upstream; they were kept on a branch and the upstream adopted', { branch: name, local, upstream });
  }

  private tellConflict(conflict: NonNullable<UpstreamStatus['last_conflict']>): void {
    this.toldConflict = conflict;
    const { branch, at, local, upstream } = conflict;
    this.deps.events.emit({ type: 'git.conflict', workspace: EVERY_WORKSPACE, occurredAt: at, data: { branch, local, upstream } });
  }

  // Pushes the branch when the upstream lacks some of its commits; failures are retried with growing waits.
  private async pushLocal(): Promise<PushOutcome | 'failed' | 'nothing'> {
    const { peer, remote } = this.deps;
    const branch = await this.upstreamBranch();
    const local = await this.deps.repo.head();
    const tracked = await peer.branches.resolve(trackingRef(branch));
    if (tracked !== undefined && (await peer.branches.isAncestor(local, tracked))) return 'nothing';
    let outcome: PushOutcome;
    try {
      outcome = await remote.push(peer.gitdir, local, branch);
    } catch (error) {
      this.pushFailed(error);
      return 'failed';
    }
    if (outcome === 'rejected') {
      this.pushFailed(new Error('The upstream refused the push: it has commits this server has not taken in yet, or a rule of its own.'));
      return outcome;
    }
    await peer.branches.setRef(trackingRef(branch), local);
    this.lastPush = this.report(null);
    this.retryMs = FIRST_RETRY_MS;
    return outcome;
  }

  private pushFailed(error: unknown): void {
    this.lastPush = this.report(error);
    this.deps.logger.error('could not push to the upstream', { upstream: this.deps.remote.displayUrl, error });
    this.pushSoon(this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, this.deps.intervalMs);
  }

  private async localBranch(): Promise<string> {
    const branch = await this.deps.repo.currentBranch();
    if (branch === null) throw new Error('The content repository has no branch checked out (detached HEAD); check out a branch to sync it.');
    return branch;
  }

  private async upstreamBranch(): Promise<string> {
    return this.deps.branch ?? (await this.localBranch());
  }

  private report(error: unknown): StepReport {
    const message = error === null ? null : error instanceof Error ? error.message : String(error);
    return { at: new Date(this.now()).toISOString(), error: message };
  }
}
