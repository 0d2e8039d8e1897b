// The one write path of the content repo. Every change to it runs here: an
// API write, a backup restore, and commits that arrived from outside (a
// developer's git commit or pull, later a push). It takes the repo's write
// lock, makes the commit, updates the in-memory indexes and tells the event
// bus, in that order and only once the commit has landed. Services hold a
// ContentReader (the repo without its write methods) and this writer; the
// architecture test checks that nothing else commits.
import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '../../errors/app-error.ts';
import { SYSTEM_AUTHOR, type ChangedPath, type CommitInfo, type ContentRepo, type FileChange } from '../../storage/content-repo.ts';
import { actorIdOf, gitAuthorOf, type Principal } from '../auth/principal.ts';
import type { DomainEvent, EventBus, WorkspaceChange } from '../model/events.ts';

/** The content repo as everything but the write path sees it: reads, history, object transfer. */
export type ContentReader = Omit<ContentRepo, 'commitChanges' | 'serialize' | 'watchHead' | 'markReceived' | 'close'>;

/** The reads that loading content needs: the repo at HEAD, or a working tree as `cms check` reads it. */
export type ContentFiles = Pick<ContentReader, 'readFile' | 'readFiles' | 'listFileIds' | 'readListed' | 'listFiles' | 'listFilesIn' | 'listFolders'>;

/** Who a change is by: the acting principal, or the server itself (first start, type order, the publish scheduler), whose commits git-cms authors (SYSTEM_AUTHOR). */
export type ChangeAuthor = Principal | 'system';

/** An event to tell once the commit has landed; the writer adds the time, the actor and the commit. */
export type EventDraft = Pick<DomainEvent, 'type' | 'workspace' | 'data' | 'withWorkspace'>;

/** A workspace archived, brought back or removed by a change; the writer adds the actor. */
export type WorkspaceChangeDraft = Omit<WorkspaceChange, 'actor'>;

/** What a change tells once its commit has landed: its events, and the workspaces it archived, brought back or removed (EventBus.emitGroup). */
export interface ChangeTold {
  events: EventDraft[];
  workspaces: WorkspaceChangeDraft[];
}

/** One change to the content repo: one commit and what it does in memory. */
export interface ContentChange {
  by: ChangeAuthor;
  /** The commit subject, e.g. `Update posts/hello-world`. */
  message: string;
  changes: FileChange[];
  /** Trailers before the `Actor` trailer, which the writer adds (Workspace, Type, Entry, Media, Backup…). */
  trailers: Record<string, string>;
  /** Further parents (a restored backup's head), each present with its whole history. */
  mergeParents?: string[];
  /** Updates the in-memory indexes; runs once the commit has landed, never when it failed. */
  apply?: () => void;
  /** Told after `apply`, with the change's actor. */
  events?: EventDraft[];
  /** The workspaces the change archived or brought back, told with `events`. */
  workspaces?: WorkspaceChangeDraft[];
  /**
   * Instead of `apply`, `events` and `workspaces`: re-read the paths the
   * commit changed and tell what changed, as for a commit from outside (a
   * backup restore).
   */
  reread?: boolean;
  /** With `reread`, the backup restored: its events carry it as `fromBackup`. */
  fromBackup?: string;
  /**
   * With `reread`, handed the workspaces the re-read found archived,
   * brought back or removed, before its events are told: a backup restore
   * names them in its one activity line, and they are told without a line of their own.
   */
  onWorkspaces?: (workspaces: readonly WorkspaceChangeDraft[]) => void;
}

/**
 * The commit a run of changes is re-read at: its last commit, or the last of
 * the server's own commits that followed it (applied in memory already, they
 * may have written the same files). Never HEAD's files: more commits may land
 * with git while a run is re-read, and the next run brings their changes.
 */
export interface ReadAt {
  files: ContentFiles;
  /** The commit's time for commits from outside; absent for a re-read of the server's own (a restored backup keeps the files' dates). */
  committedAt?: string;
}

/**
 * Brings the in-memory indexes in line with the paths commits changed and
 * returns the events those changes mean (external-commits.ts).
 */
export type Reindexer = (changes: ChangedPath[], at: ReadAt) => Promise<ChangeTold>;

/** What a transaction may do while it holds the write lock. */
export interface ContentTransaction {
  /**
   * Commits the change, then applies it in memory and tells its events.
   * Throws what the repo throws (invalid_request, conflict; nothing changed
   * then) and internal_error when used after its transaction ended or while
   * another commit of it is running.
   */
  commit(change: ContentChange): Promise<CommitInfo>;
  /**
   * The entry point for commits that arrived from outside the server (git
   * CLI, pull, push): HEAD moved from `from` to `to` without this writer.
   * Re-reads the changed paths into the indexes, at `readAt` (`to` unless the
   * server's own commits followed it: HeadChangeHandler), and tells what
   * changed. Returns the changed paths. Throws what reading the repo throws.
   */
  receiveCommits(from: string, to: string, readAt?: string): Promise<ChangedPath[]>;
}

/** Told the paths of each commit of the server's own (ContentWriter.onWrite). */
export type WriteListener = (paths: readonly string[]) => void | Promise<void>;

/** Told the paths a run of commits not written by the server changed (ContentWriter.onReceive). */
export type ReceiveListener = (changes: readonly ChangedPath[]) => Promise<void>;

/** Called with each run of commits made outside the server, inside a transaction. */
export type ExternalCommitHandler = (tx: ContentTransaction, from: string, to: string, readAt: string) => Promise<void>;

/** The write path of one content repo; created once by services.ts. */
export class ContentWriter {
  private readonly running = new AsyncLocalStorage<Transaction>();
  private readonly writeListeners: WriteListener[] = [];
  private readonly receiveListeners: ReceiveListener[] = [];
  private changes = 0;
  private indexed: string | undefined;

  constructor(
    private readonly repo: ContentRepo,
    private readonly events: EventBus,
    private readonly reindex: Reindexer,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs `work` holding the write lock: after every earlier write, and with
   * no other write or outside commit landing until it settles, so a
   * service's checks and its commit never interleave with another's. Called
   * from inside a running transaction (one service calling another), `work`
   * joins it and runs at once instead of waiting for itself. Resolves or
   * rejects with `work`'s result.
   */
  transaction<T>(work: (tx: ContentTransaction) => Promise<T>): Promise<T> {
    const current = this.running.getStore();
    if (current?.isOpen) return work(current);
    return this.repo.serialize(() => this.hold(work));
  }

  /**
   * Counts the changes to the content in memory: it moves after every commit
   * or outside commit a transaction applies and when a transaction ends, so a
   * cache of read answers taken at one count is stale at any other.
   */
  get changeCount(): number {
    return this.changes;
  }

  /**
   * The commit the in-memory indexes are known to hold: the HEAD they were
   * loaded from (markIndexed), then each commit a transaction applied or
   * received. A commit made with git moves HEAD before the watch takes it in,
   * so a reader that pairs the index with a commit id asks here, not HEAD.
   */
  get indexedHead(): string | undefined {
    return this.indexed;
  }

  /** Records the commit the indexes were loaded from at start (services.ts; undefined when HEAD moved while they loaded); later commits move it themselves. */
  markIndexed(oid: string | undefined): void {
    this.indexed = oid;
  }

  /**
   * Calls `listener` with the paths of each commit the server writes itself
   * (not a re-read: those go through the reindexer), once it has landed and
   * is applied in memory, and waits for it before the commit's events are
   * told and the commit returns. The problems register forgets what it knew
   * of those files, and what is still wrong with them is judged again
   * (services.ts). A listener must not throw.
   */
  onWrite(listener: WriteListener): void {
    this.writeListeners.push(listener);
  }

  /**
   * Calls `listener` with the paths each re-read changed (commits from
   * outside, a push, an upstream sync, a replica taking in its primary's
   * commits, a restored backup), once they are applied in memory and before
   * their events are told, still holding the write lock. For what lives
   * outside the repo and follows it: a media record's local files
   * (media-removals.ts). A listener must not throw.
   */
  onReceive(listener: ReceiveListener): void {
    this.receiveListeners.push(listener);
  }

  /**
   * Polls HEAD every `intervalMs` for commits this process did not write and
   * hands each run of them to `onCommits` inside a transaction. Returns stop().
   */
  onExternalCommits(onCommits: ExternalCommitHandler, intervalMs: number): () => void {
    // The repo's watcher already holds the write lock when it calls back.
    return this.repo.watchHead((from, to, readAt) => this.hold((tx) => onCommits(tx, from, to, readAt)), intervalMs);
  }

  private async hold<T>(work: (tx: ContentTransaction) => Promise<T>): Promise<T> {
    const tx = new Transaction({ repo: this.repo, reindex: this.reindex, tell: (change, told) => this.tell(change, told), changed: () => (this.changes += 1), indexed: (oid) => (this.indexed = oid),
      wrote: async (paths) => {
        for (const listener of this.writeListeners) await listener(paths);
      },
      received: async (changes) => {
        for (const listener of this.receiveListeners) await listener(changes);
      },
    });
    try {
      return await this.running.run(tx, () => work(tx));
    } finally {
      tx.isOpen = false;
      this.changes += 1;
      // On Node 20 the context is tracked with promise hooks, which cost every
      // promise of every request (~10 µs of a ~45 µs cached read) once
      // enabled. Only a running transaction needs them, and transactions run
      // one at a time: the next run() turns them on again.
      this.running.disable();
    }
  }

  // Listeners run outside the transaction's context, so a listener that writes
  // queues behind it instead of joining it.
  private tell(change: ChangeTold, told: Told): void {
    const occurredAt = new Date(this.now()).toISOString();
    const { actor, commit, fromBackup } = told;
    const events = change.events.map(({ type, workspace, data, withWorkspace }): DomainEvent => ({ type, workspace, occurredAt, actor, commit, data, ...(withWorkspace && { withWorkspace }), ...(fromBackup && { fromBackup }) }));
    // A restore's one activity line tells what it did to workspaces too.
    const workspaces = fromBackup ? [] : change.workspaces.map((moved) => ({ ...moved, ...(actor && { actor }) }));
    this.running.exit(() => {
      this.events.emitGroup(events, workspaces);
    });
  }
}

/** Who and what a change's events are told with. */
interface Told {
  actor: string | undefined;
  commit: string;
  fromBackup?: string;
}

/** What a transaction commits and re-reads with; only ContentWriter hands it out. */
interface WriteParts {
  repo: ContentRepo;
  reindex: Reindexer;
  /** Tells one commit's events (or one landing's of outside commits) as a group, with the commit that caused them. */
  tell: (change: ChangeTold, told: Told) => void;
  /** Called once a commit's changes are in memory, before its events are told. */
  changed: () => void;
  /** Called with the commit whose changes are now in memory. */
  indexed: (oid: string) => void;
  /** Called with the paths of a commit of the server's own, once it is applied in memory. */
  wrote: (paths: readonly string[]) => Promise<void>;
  /** Called with the paths a re-read changed, once they are applied in memory. */
  received: (changes: readonly ChangedPath[]) => Promise<void>;
}

// One holding of the write lock. Its commits run one at a time, and it can
// no longer commit once the work it was made for has settled.
class Transaction implements ContentTransaction {
  isOpen = true;
  private isCommitting = false;

  constructor(private readonly parts: WriteParts) {}

  async commit(change: ContentChange): Promise<CommitInfo> {
    return this.exclusively(async () => {
      const { repo, reindex, tell, changed, indexed, wrote, received } = this.parts;
      const by = change.by;
      const info = await repo.commitChanges({
        changes: change.changes,
        message: change.message,
        author: by === 'system' ? SYSTEM_AUTHOR : gitAuthorOf(by),
        trailers: { ...change.trailers, Actor: by === 'system' ? 'system' : (actorIdOf(by) ?? 'anonymous') },
        mergeParents: change.mergeParents,
      });
      if (change.reread) {
        // What a re-read finds is told like an outside commit: without an actor.
        const changes = await repo.changedPaths(info.parents[0], info.oid);
        const found = await reindex(changes, { files: await repo.filesAt(info.oid) });
        indexed(info.oid);
        changed();
        await received(changes);
        change.onWorkspaces?.(found.workspaces);
        tell(found, { actor: undefined, commit: info.oid, fromBackup: change.fromBackup });
      } else {
        change.apply?.();
        indexed(info.oid);
        changed();
        // After the in-memory update, which readers see with its commit at once; the problems register may read the repo.
        await wrote(change.changes.map((file) => file.path));
        tell({ events: change.events ?? [], workspaces: change.workspaces ?? [] }, { actor: by === 'system' ? undefined : actorIdOf(by), commit: info.oid });
      }
      return info;
    });
  }

  async receiveCommits(from: string, to: string, readAt = to): Promise<ChangedPath[]> {
    return this.exclusively(async () => {
      // So the watch for outside commits does not take them in a second time.
      this.parts.repo.markReceived(from, to);
      const { repo, reindex } = this.parts;
      const changes = await repo.changedPaths(from, to);
      const found = await reindex(changes, { files: await repo.filesAt(readAt), committedAt: (await repo.commitInfo(to)).timestamp });
      this.parts.indexed(readAt);
      this.parts.changed();
      await this.parts.received(changes);
      // A run of outside commits is re-read as one change, so its events name the new head.
      this.parts.tell(found, { actor: undefined, commit: to });
      return changes;
    });
  }

  private async exclusively<T>(step: () => Promise<T>): Promise<T> {
    if (!this.isOpen) throw new AppError('internal_error', 'The content transaction has ended; write inside ContentWriter.transaction().');
    if (this.isCommitting) throw new AppError('internal_error', 'A content transaction makes one commit at a time; await the previous one.');
    this.isCommitting = true;
    try {
      return await step();
    } finally {
      this.isCommitting = false;
    }
  }
}
