// A replica following its primary (docs/deployment.md "Replicas"): a long
// poll on the primary answers as soon as its content head or replicated
// state moves; the replica then fetches the commits over git (the upstream
// sync in `follow` mode, through the write path) and the state over the
// replication endpoint. With the primary away it keeps serving what it has
// and retries with growing waits. Writes forwarded to the primary wait in
// catchUp() until the replica holds their outcome.
import type { Logger } from '../../lib/logger.ts';
import type { BranchMoves } from '../../storage/git-cli/git-peer.ts';
import type { ContentReader, ContentWriter } from '../content/content-writer.ts';
import type { UpstreamSync } from '../git/upstream-sync.ts';
import type { PrimaryClient } from './primary-client.ts';
import type { ReplicatedState } from './replicated-state.ts';
import type { ReplicationPoint } from './replication-source.ts';
import { holdsVersion } from './state-version.ts';

/** What a replica follows with. */
export interface ReplicaFollowerDeps {
  client: PrimaryClient;
  /** The sync with the primary's repository, in `follow` mode. */
  upstream: UpstreamSync;
  branches: BranchMoves;
  repo: ContentReader;
  /** Its lock tells when commits taken in are in the index too, not only on the branch. */
  writer: ContentWriter;
  /** Makes the replica's stores hold a snapshot of the primary's state. */
  applyState: (snapshot: ReplicatedState) => Promise<void>;
  logger: Logger;
  now?: () => number;
}

/** The replica part of GET /api/v1/health. */
export interface ReplicaHealth {
  /** The commit this replica serves (in its index, not only on its branch). */
  head: string;
  primary: string;
  /** Whether the last call to the primary got an answer. */
  reachable: boolean;
  last_contact_at: string | null;
  /** The primary's head as last announced. */
  primary_head: string | null;
  /** How long this replica has known it is behind that head; 0 when it holds it. */
  lag_ms: number;
}

const LONG_POLL_MS = 25_000;
const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5_000;
const CATCH_UP_STEP_MS = 50;

/** Follows one primary; services.ts starts it on a replica. */
export class ReplicaFollower {
  private readonly stopping = new AbortController();
  private appliedState: string | undefined;
  private primaryHead: string | undefined;
  private behindSince: number | undefined;
  private reachable = false;
  private lastContact: number | undefined;
  private following: Promise<void> = Promise.resolve();
  private loop: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly deps: ReplicaFollowerDeps,
    private readonly primaryUrl: string,
  ) {
    this.now = deps.now ?? Date.now;
  }

  /** Starts following; the first answer brings the state and any commits the replica lacks. */
  start(): void {
    this.loop = this.poll();
  }

  /**
   * Waits (up to `timeoutMs`) until the replica holds the commit `head` and
   * state version `state`, asking the primary at once instead of waiting
   * for its announcement. Resolves with whether it got there. Throws nothing.
   */
  async catchUp(target: Partial<ReplicationPoint>, timeoutMs: number): Promise<boolean> {
    const deadline = this.now() + timeoutMs;
    while (!(await this.holds(target))) {
      if (this.now() >= deadline || this.stopping.signal.aborted) return false;
      await this.follow({ head: target.head ?? this.primaryHead ?? '', state: target.state ?? this.appliedState ?? '' }).catch(() => undefined);
      if (!(await this.holds(target))) await this.pause(CATCH_UP_STEP_MS);
    }
    return true;
  }

  /** Where the replica stands against its primary. */
  async health(): Promise<ReplicaHealth> {
    const head = await this.heldHead();
    const isBehind = this.primaryHead !== undefined && head !== this.primaryHead;
    return {
      head,
      primary: this.primaryUrl,
      reachable: this.reachable,
      last_contact_at: this.lastContact === undefined ? null : new Date(this.lastContact).toISOString(),
      primary_head: this.primaryHead ?? null,
      lag_ms: isBehind ? this.now() - (this.behindSince ?? this.now()) : 0,
    };
  }

  /** Stops following and waits for the step in progress. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    await this.following;
  }

  private async poll(): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    let isDownLogged = false;
    while (!this.stopping.signal.aborted) {
      const asked = this.now();
      try {
        const since = { head: await this.heldHead(), state: this.appliedState };
        const point = await this.deps.client.changes(since, LONG_POLL_MS, this.stopping.signal);
        await this.follow(point);
        // Commits announced but not taken in (git failed; the sync logged why) are asked for again after a wait, not at once.
        if (!(await this.holds({ head: point.head }))) throw new Error('The primary\'s commits could not be fetched yet.');
        retryMs = FIRST_RETRY_MS;
        isDownLogged = false;
        // An early answer without news is a primary on its way down; do not ask again at once.
        if (point.head === since.head && point.state === since.state && this.now() - asked < LONG_POLL_MS) await this.pause(FIRST_RETRY_MS);
      } catch (error) {
        if (this.stopping.signal.aborted) return;
        if (!isDownLogged) this.deps.logger.error('the primary cannot be reached or followed; serving what this replica has', { primary: this.primaryUrl, error });
        isDownLogged = true;
        this.reachable = false;
        await this.pause(retryMs);
        retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
      }
    }
  }

  // The branch moves a moment before the index has taken the commits in; both are done once the write lock is free.
  private heldHead(): Promise<string> {
    return this.deps.writer.transaction(() => this.deps.repo.head());
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  // Takes in what the primary announced; one step at a time.
  private follow(point: ReplicationPoint): Promise<void> {
    const step = this.following.then(() => this.take(point));
    this.following = step.catch(() => undefined);
    return step;
  }

  private async take(point: ReplicationPoint): Promise<void> {
    if (point.head !== '') this.noteContact(point.head);
    if (point.head !== '' && point.head !== (await this.heldHead())) await this.deps.upstream.sync(point.head);
    if (point.state !== '' && point.state !== this.appliedState) {
      const snapshot = await this.deps.client.state();
      await this.deps.applyState(snapshot);
      this.appliedState = snapshot.version;
    }
    if ((await this.heldHead()) === this.primaryHead) this.behindSince = undefined;
  }

  private noteContact(primaryHead: string): void {
    this.reachable = true;
    this.lastContact = this.now();
    if (primaryHead !== this.primaryHead) {
      this.primaryHead = primaryHead;
      this.behindSince ??= this.now();
    }
  }

  private async holds(target: Partial<ReplicationPoint>): Promise<boolean> {
    if (target.state !== undefined && !holdsVersion(this.appliedState, target.state)) return false;
    if (target.head === undefined) return true;
    const head = await this.heldHead();
    return head === target.head || (await this.deps.branches.isAncestor(target.head, head).catch(() => false));
  }
}
