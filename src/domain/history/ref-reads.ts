// Reads at a ref (API.md "Changes feed and reads at a ref"): the public
// reads of types and entries as the content was at a commit, tag or branch.
// A commit's content is loaded from git objects with the same ContentIndex,
// WorkspaceService, TypeService and EntryService the server runs at HEAD, so
// visibility, filters, sort, `q`, include and locale work exactly as they do
// there; a few recently used commits stay in memory. A ref that names the
// commit the in-memory indexes hold is answered by them (the fast path).
import { notFound } from '../../errors/app-error.ts';
import { LruCache } from '../../lib/lru-cache.ts';
import type { RevisionKind } from '../../storage/content-repo.ts';
import { ContentIndex } from '../content/content-index.ts';
import type { ContentReader, ContentWriter } from '../content/content-writer.ts';
import { EntryService } from '../entries/entry-service.ts';
import { TypeService } from '../types/type-service.ts';
import { WorkspaceService } from '../workspaces/workspace-service.ts';

/** The reads a view answers; never the writes of these services. */
export interface ReadServices {
  content: Pick<ContentIndex, 'getType' | 'nextPublishAfter'>;
  entries: Pick<EntryService, 'list' | 'get' | 'getSingleton'>;
  types: Pick<TypeService, 'list' | 'get'>;
}

/** The content of one workspace at a ref, ready to answer reads. */
export interface RefView extends ReadServices {
  /** The commit the ref named. */
  commit: string;
  /** How it was named: only a full commit id (`commit`) can never come to mean other content. */
  kind: RevisionKind;
  /** True when the in-memory indexes of HEAD answer (the ref names the commit they hold). */
  isCurrent: boolean;
}

/** What RefReads is built from (services.ts). */
export interface RefReadsDeps {
  repo: ContentReader;
  writer: ContentWriter;
  /** The services over the in-memory indexes, for the fast path. */
  current: ReadServices;
  /** How many commits stay loaded (4 by default); each costs about what the content at HEAD costs in memory. */
  maxCommits?: number;
  now?: () => number;
}

/** One loaded commit: its workspaces and, per workspace loaded so far, its types and entries. */
interface Snapshot extends ReadServices {
  content: ContentIndex;
  loaded: Map<string, Promise<void>>;
}

const DEFAULT_MAX_COMMITS = 4;

/** Resolves refs and hands out views of the content at them; created once by services.ts. */
export class RefReads {
  private readonly snapshots: LruCache<string, Promise<Snapshot>>;

  constructor(private readonly deps: RefReadsDeps) {
    this.snapshots = new LruCache(deps.maxCommits ?? DEFAULT_MAX_COMMITS);
  }

  /**
   * The content of `workspace` at `ref` (a full or abbreviated commit id, a
   * tag, a branch). Throws invalid_request for a malformed or ambiguous ref,
   * not_found for a ref the repository does not have.
   */
  async at(workspace: string, ref: string): Promise<RefView> {
    const { repo, writer, current } = this.deps;
    const revision = await repo.resolveRevision(ref);
    if (revision === undefined) throw notFound(`No commit, tag or branch "${ref.slice(0, 100)}" in the content repository.`);
    const { commit, kind } = revision;
    // A full id is answered as immutable, so memory serves it only when the indexes are known to hold that very commit.
    const isCurrent = commit === writer.indexedHead || (kind !== 'commit' && commit === (await repo.head()));
    if (isCurrent) return { commit, kind, isCurrent, ...current };
    const snapshot = await this.snapshot(commit);
    let loading = snapshot.loaded.get(workspace);
    if (loading === undefined) {
      loading = snapshot.content.loadWorkspace(workspace);
      snapshot.loaded.set(workspace, loading);
      loading.catch(() => snapshot.loaded.delete(workspace));
    }
    await loading;
    return { commit, kind, isCurrent, content: snapshot.content, entries: snapshot.entries, types: snapshot.types };
  }

  private snapshot(commit: string): Promise<Snapshot> {
    const cached = this.snapshots.get(commit);
    if (cached !== undefined) return cached;
    const loading = this.load(commit);
    this.snapshots.set(commit, loading);
    // A failed load (a damaged object) is not kept, so a later read tries again.
    loading.catch(() => {
      if (this.snapshots.get(commit) === loading) this.snapshots.delete(commit);
    });
    return loading;
  }

  private async load(commit: string): Promise<Snapshot> {
    const { repo, writer, now } = this.deps;
    const files = await repo.filesAt(commit);
    // Files the server skips at that commit were reported when they were HEAD; they are not reported again.
    const content = new ContentIndex(files, () => undefined);
    const workspaces = await WorkspaceService.load(files, writer);
    // The writer is never used: a view hands out only the read methods of these services.
    const entries = new EntryService(writer, content, now);
    const types = new TypeService(repo, writer, content, workspaces);
    return { content, entries, types, loaded: new Map() };
  }
}
