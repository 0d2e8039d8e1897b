// Notices commits made outside the server (a developer's `git commit`, a
// `git pull`) by polling HEAD: two small file reads per tick, no git command.
// Commits this process wrote are recorded and never reported.
import { LruCache } from '../lib/lru-cache.ts';
import { readHead } from './git/refs.ts';

/**
 * Called with the commit before a run of foreign commits, the last commit of
 * that run, and the commit its files are to be read at: the last of this
 * process's own commits that follow the run before the next foreign one
 * (they are applied already, and may have changed the same files), else the
 * run's last commit.
 */
export type HeadChangeHandler = (fromOid: string, toOid: string, readAtOid: string) => Promise<void>;

/** Options of watchHead(). */
export interface WatchOptions {
  /** Commit to compare against first; defaults to HEAD when the repository was opened. */
  since?: string;
  /** Receives errors of a tick (including ones thrown by the handler); defaults to process.emitWarning. */
  onError?: (error: unknown) => void;
}

type Serialize = (fn: () => Promise<void>) => Promise<void>;
/** The first parent of a commit; undefined for a root or unknown commit. */
type ParentReader = (oid: string) => Promise<string | undefined>;

const OWN_COMMITS_KEPT = 100_000;
const LONGEST_WALK = 10_000;

/**
 * Polls one repository's HEAD for foreign commits. Walking first parents from
 * HEAD back to the last synced commit, each run of consecutive foreign commits
 * is reported as its own range, oldest first, so a diff never nets out a file
 * that this process added and a developer then deleted. When the synced commit
 * is not an ancestor (a reset or force push) the whole range is reported once.
 */
export class HeadWatcher {
  private baseline: string | undefined;
  private readonly ownParents = new LruCache<string, string>(OWN_COMMITS_KEPT);
  private readonly watches = new Set<{ synced: string | undefined; stop: () => void }>();

  constructor(
    private readonly gitdir: string,
    private readonly serialize: Serialize,
    private readonly readParent: ParentReader,
  ) {}

  /** Sets the HEAD that new watches start from. */
  setBaseline(oid: string): void {
    this.baseline = oid;
  }

  /** Marks a commit as written by this process; watches synced to its parent move on to it. */
  recordOwnCommit(oid: string, parent: string | undefined): void {
    if (parent === undefined) return;
    this.ownParents.set(oid, parent);
    for (const watch of this.watches) if (watch.synced === parent) watch.synced = oid;
  }

  /** Starts polling every `intervalMs`; the returned function stops it. */
  watch(onChange: HeadChangeHandler, intervalMs: number, options: WatchOptions = {}): () => void {
    let busy = false;
    let stopped = false;
    const report = options.onError ?? ((error: unknown) => process.emitWarning(error instanceof Error ? error : String(error)));
    const watch = {
      synced: options.since ?? this.baseline,
      stop: () => {
        stopped = true;
        clearInterval(timer);
        this.watches.delete(watch);
      },
    };
    const tick = async (): Promise<void> => {
      if ((await readHead(this.gitdir)).oid === watch.synced) return;
      await this.serialize(async () => {
        const head = (await readHead(this.gitdir)).oid;
        const from = watch.synced;
        if (stopped || head === undefined || head === from) return;
        // Advance first: a handler that throws must not be re-run every tick.
        watch.synced = head;
        if (from === undefined) return;
        const runs = await this.foreignRuns(from, head);
        for (const [position, [start, end]] of runs.entries()) {
          // The next run starts from the last own commit after this one; the last run is read at the head.
          await onChange(start, end, runs[position + 1]?.[0] ?? head).catch(report);
        }
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
    this.watches.add(watch);
    return watch.stop;
  }

  /** Stops every watch (on shutdown). */
  stopAll(): void {
    for (const watch of [...this.watches]) watch.stop();
  }

  private async foreignRuns(from: string, head: string): Promise<[string, string][]> {
    const chain: string[] = [];
    for (let current = head; current !== from; ) {
      const parent = this.ownParents.get(current) ?? (await this.readParent(current));
      if (parent === undefined || chain.length >= LONGEST_WALK) return [[from, head]];
      chain.push(current);
      current = parent;
    }
    const runs: [string, string][] = [];
    let previous = from;
    let runStart: string | undefined;
    for (const oid of chain.reverse()) {
      const own = this.ownParents.get(oid) !== undefined;
      if (!own && runStart === undefined) runStart = previous;
      if (own && runStart !== undefined) {
        runs.push([runStart, previous]);
        runStart = undefined;
      }
      previous = oid;
    }
    if (runStart !== undefined) runs.push([runStart, previous]);
    return runs;
  }
}
