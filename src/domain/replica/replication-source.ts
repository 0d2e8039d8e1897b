// The primary's side of replication (docs/deployment.md "Replicas"): the
// replicated state, a long poll that answers as soon as the content head or
// the state version moves (so replicas follow within moments, not a poll
// interval), and media binaries for replicas that lack one. Every call needs
// a token with `replication.read`; the content itself travels over git.
import type { Readable } from 'node:stream';
import { AppError } from '../../errors/app-error.ts';
import { authorize } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContentReader } from '../content/content-writer.ts';
import type { MediaService } from '../media/media-service.ts';
import type { EventBus } from '../model/events.ts';
import { readReplicatedState, type ReplicatedState, type StateStores } from './replicated-state.ts';
import type { StateVersion } from './state-version.ts';

/** Where the primary is: its content head and replicated-state version. */
export interface ReplicationPoint {
  head: string;
  state: string;
}

/** What the replication source reads. */
export interface ReplicationSourceDeps {
  version: StateVersion;
  repo: ContentReader;
  stores: StateStores;
  media: MediaService;
  events: EventBus;
}

/** The longest a long poll is held, in milliseconds. */
export const LONGEST_WAIT_MS = 30_000;
// Commits that tell no event (a README pushed alone) are seen by polling HEAD this often while someone waits.
const HEAD_POLL_MS = 200;

/** Serves replicas; one per primary. */
export class ReplicationSource {
  private readonly waiting = new Set<() => void>();
  private closed = false;

  constructor(private readonly deps: ReplicationSourceDeps) {
    deps.version.onChange(() => this.wakeAll());
    deps.events.on(() => this.wakeAll());
  }

  /** Where the primary is now. */
  async point(): Promise<ReplicationPoint> {
    return { head: await this.deps.repo.head(), state: this.deps.version.value };
  }

  /**
   * Answers where the primary is as soon as it differs from `since`, or
   * after `waitMs` (at most LONGEST_WAIT_MS), or at shutdown. Needs
   * `replication.read`. Throws unauthorized, forbidden.
   */
  async changes(principal: Principal, since: Partial<ReplicationPoint>, waitMs: number): Promise<ReplicationPoint> {
    this.check(principal);
    const deadline = Date.now() + Math.min(Math.max(waitMs, 0), LONGEST_WAIT_MS);
    for (;;) {
      const now = await this.point();
      const remaining = deadline - Date.now();
      if (now.head !== since.head || now.state !== since.state || remaining <= 0 || this.closed) return now;
      await this.sleep(Math.min(remaining, HEAD_POLL_MS));
    }
  }

  /** The replicated state. Needs `replication.read`. Throws unauthorized, forbidden. */
  state(principal: Principal): ReplicatedState {
    this.check(principal);
    return readReplicatedState(this.deps.stores, this.deps.version.value);
  }

  /**
   * A media original, whatever its visibility (replicas enforce visibility
   * themselves). Needs `replication.read`. Throws unauthorized, forbidden, not_found.
   */
  async mediaFile(principal: Principal, workspace: string, filename: string): Promise<{ size: number; stream: Readable }> {
    this.check(principal);
    const file = await this.deps.media.openOriginal(workspace, filename);
    return { size: file.size, stream: file.stream() };
  }

  /** Whether close() was called: polls are answered at once, and their connections should not be kept. */
  get isClosing(): boolean {
    return this.closed;
  }

  /** Answers every waiting long poll (at shutdown, so the server can close). */
  close(): void {
    this.closed = true;
    this.wakeAll();
  }

  // The state holds password, token and session hashes: only a token made for
  // replicas gets it, one whose grant names replication.read (a `*` is not enough).
  private check(principal: Principal): void {
    authorize(principal, { action: 'replication.read', resource: 'replication:*', workspace: ALL_WORKSPACES });
    const named = principal.kind !== 'anonymous' && principal.grants.some((grant) => grant.effect === 'allow' && grant.actions.some((action) => action === 'replication.read' || action === 'replication.*'));
    if (!named) throw new AppError('forbidden', 'Replication needs a token made for replicas: a grant that names replication.read, since it hands out password and token hashes.');
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiting.add(wake);
    });
  }

  private wakeAll(): void {
    for (const wake of [...this.waiting]) wake();
  }
}
