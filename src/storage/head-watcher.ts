// Notices commits made outside the server (a developer's `git commit`, a
// `git pull`) by polling HEAD: two small file reads per tick, no git command.
// Commits this process wrote are recorded and never reported.
import { LruCache } from '../lib/lru-cache.ts';
import { readHead } from './git/refs.ts';

/** Called with the last HEAD the watcher knew and the newest commit not written by this process. */
export type HeadChangeHandler = (fromOid: string, toOid: string) => Promise<void>;

export interface WatchOptions {
  /** Commit to compare against first; defaults to HEAD when the repository was opened. */
  since?: string;
  /** Receives errors of a tick (including ones thrown by the handler); defaults to process.emitWarning. */
  onError?: (error: unknown) => void;
}

type Serialize = (fn: () => Promise<void>) => Promise<void>;

const OWN_COMMITS_KEPT = 100_000;

/**
 * Polls one repository's HEAD for foreign commits. The range reported is
 * `from` → newest foreign commit. Own commits made directly on top of the
 * synced commit advance it, so a file this process added and a developer then
 * deleted is reported as deleted, not hidden in a net-zero diff.
 */
export class HeadWatcher {
  private baseline: string | undefined;
  private readonly ownParents = new LruCache<string, string>(OWN_COMMITS_KEPT);
  private readonly stops = new Set<() => void>();
  private readonly watches = new Set<{ synced: string | undefined }>();

  constructor(
    private readonly gitdir: string,
    private readonly serialize: Serialize,
  ) {}

  /** Sets the HEAD that new watches start from. */
  setBaseline(oid: string): void {
    this.baseline = oid;
  }

  /** Marks a commit as written by this process (its first parent lets walks skip it). */
  recordOwnCommit(oid: string, parent: string | undefined): void {
    if (parent !== undefined) this.ownParents.set(oid, parent);
    for (const state of this.watches) if (state.synced === parent) state.synced = oid;
  }

  /** Starts polling every `intervalMs`; the returned function stops it. */
  watch(onChange: HeadChangeHandler, intervalMs: number, options: WatchOptions = {}): () => void {
    const state = { synced: options.since ?? this.baseline };
    this.watches.add(state);
    let busy = false;
    let stopped = false;
    const report = options.onError ?? ((error: unknown) => process.emitWarning(error instanceof Error ? error : String(error)));
    const tick = async (): Promise<void> => {
      const { oid } = await readHead(this.gitdir);
      if (oid === undefined || oid === state.synced) return;
      await this.serialize(async () => {
        const head = (await readHead(this.gitdir)).oid;
        if (stopped || head === undefined || head === state.synced) return;
        const from = state.synced;
        const tip = from === undefined ? undefined : this.newestForeign(head, from);
        // Advance first: a handler that throws must not be re-run every tick.
        state.synced = head;
        if (from !== undefined && tip !== undefined) await onChange(from, tip);
      });
    };
    const timer = setInterval(() => {
      if (busy || stopped) return;
      busy = true;
      tick()
        .catch(report)
        .finally(() => {
          busy = false;
        });
    }, intervalMs);
    timer.unref();
    const stop = (): void => {
      stopped = true;
      clearInterval(timer);
      this.watches.delete(state);
      this.stops.delete(stop);
    };
    this.stops.add(stop);
    return stop;
  }

  /** Stops every watch (on shutdown). */
  stopAll(): void {
    for (const stop of [...this.stops]) stop();
  }

  private newestForeign(head: string, from: string): string | undefined {
    for (let current = head; current !== from; ) {
      const parent = this.ownParents.get(current);
      if (parent === undefined) return current;
      current = parent;
    }
    return undefined;
  }
}
