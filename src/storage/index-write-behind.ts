// When the git index of a commit is written (git/commit-writer.ts leaves it
// pending, with index.lock held). A lone commit writes its own before it is
// answered, so after an editor's save `git status` agrees with HEAD at once.
// A commit that starts right after another leaves it pending for the next
// one, and the index is written once the commits pause, or after a while in
// a steady stream. The timer writes it without waiting for the write queue:
// a task queued after the burst that takes long without committing (a push
// being validated) must not keep index.lock from a developer's git meanwhile.
import type { Logger } from '../lib/logger.ts';
import type { CommitWriter } from './git/commit-writer.ts';

/** A commit starting within this long of the previous one's end belongs to a burst. */
const BURST_GAP_MS = 50;
/** A pending index is written once no commit came for this long… */
const QUIET_MS = 30;
/** …or when it has waited this long, whatever comes. */
const MAX_PENDING_MS = 500;
/** A failed index write (a full disk) is tried again after this long. */
const RETRY_MS = 1000;

/** Decides, per commit, whether its index write waits, and writes pending ones. */
export class IndexWriteBehind {
  private lastCommitEnd = Number.NEGATIVE_INFINITY;
  private pendingSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly writer: CommitWriter,
    private readonly logger?: Logger,
  ) {}

  /** Whether a commit starting now follows the previous one closely enough to leave its index pending. */
  deferNext(): boolean {
    return performance.now() - this.lastCommitEnd < BURST_GAP_MS;
  }

  /** Call inside the write queue after each commit, with what deferNext() said before it; writes the index unless deferred. */
  async afterCommit(deferred: boolean): Promise<void> {
    this.lastCommitEnd = performance.now();
    // After close() no timer would write it.
    if (!deferred || this.closed) {
      await this.flush();
      return;
    }
    this.pendingSince ??= this.lastCommitEnd;
    this.arm(QUIET_MS);
  }

  /**
   * Writes a pending index now, after a commit in progress. A failure is
   * logged and tried again later (never after close()): the commits are
   * safe on the branch, and index.lock stays held so git never commits from
   * the stale index.
   */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      await this.writer.flushIndex();
      this.pendingSince = undefined;
    } catch (error) {
      if (this.closed) {
        // The index on disk is the one from before the commits, whole (the new one goes through a temp file and a rename); the lock keeps their journals for the next start.
        this.logger?.error('could not write the git index of the content repository while stopping; .git/index.lock stays so that git does not commit from the stale index, and the next start brings the index up to date', { error });
        return;
      }
      this.logger?.error('could not write the git index of the content repository; trying again shortly (git commands wait for .git/index.lock meanwhile)', { error });
      this.arm(RETRY_MS);
    }
  }

  /** Stops the timer for good: nothing is scheduled after this; the caller writes what is pending with a last flush() (ContentRepo.close). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = performance.now();
      const stillBusy = now - this.lastCommitEnd < QUIET_MS && now - (this.pendingSince ?? now) < MAX_PENDING_MS;
      if (stillBusy) this.arm(QUIET_MS);
      else void this.flush();
    }, delayMs);
    this.timer.unref();
  }
}
