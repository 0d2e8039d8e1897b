// The problems register: every file of the content repo that the in-memory
// indexes currently skip, and why (API.md "For site generators", GET
// /problems; the admin dashboard; `cms check` prints the same list). The
// loaders (ContentIndex, MediaLibrary) report into it as they read; before
// files are read again (commits from outside, the server's own writes) what
// was known about them is forgotten, so a fixed file drops out and a file
// still broken is reported afresh (keeping the `since` of a problem that is
// still there). It holds only what the loaders report: files it lists are
// exactly the ones missing from the reads.
import { authorize } from '../auth/authorize.ts';
import type { AccessRequest } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import { entriesDir, parseEntryPath } from '../model/entry-paths.ts';
import { typesDir } from '../model/type-files.ts';
import { WORKSPACE_SLUG, workspaceFilePath } from '../model/workspace-file.ts';
import type { ProblemReporter } from './content-index.ts';
import { workspaceFilesJudgedAgain, type FileProblem } from './file-rules.ts';

/** A skipped file (path, field to blame when there is one, a full sentence), its workspace, and since when it is known. */
export interface ContentProblem extends FileProblem {
  workspace: string;
  /**
   * Since when the file has had this problem without a break (ISO): the
   * time it was first reported, kept while every re-read of the file finds
   * the same field and message again.
   */
  since: string;
}

/** The problems of the content repo's files; one per server, fed by the loaders' reporters. */
export class ProblemRegister {
  private readonly byPath = new Map<string, ContentProblem[]>();
  // What each path had when it was last forgotten, for the re-read that follows: a problem it finds again keeps its `since`.
  // Forgetting the path again replaces it, so a problem the re-read did not find (fixed) gets a new `since` when it comes back.
  private readonly beforeReread = new Map<string, ContentProblem[]>();

  /**
   * `misnamedIn` is the workspace whose list also holds the problems of
   * top-level folders that are no workspace because of their name
   * (checkWorkspaceFolder(); the server's configured default workspace),
   * which no workspace of their own could list.
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly misnamedIn?: string,
  ) {}

  /**
   * A reporter for a loader: records each problem (once per path and
   * reason), then hands it on to `next` (the log, the activity feed).
   */
  reporter(next?: ProblemReporter): ProblemReporter {
    return (reported) => {
      const known = this.byPath.get(reported.path) ?? [];
      const isSame = (other: ContentProblem) => other.field === reported.field && other.message === reported.message;
      const old = known.find(isSame);
      const since = old?.since ?? this.beforeReread.get(reported.path)?.find(isSame)?.since ?? new Date(this.now()).toISOString();
      this.byPath.set(reported.path, [...known.filter((other) => other !== old), { ...reported, since }]);
      next?.(reported);
    };
  }

  /**
   * Forgets what is known about the files that the paths of a commit make
   * the loaders read again: each changed path and the other files of its
   * entry (a translation that lacked its entry file); with
   * `wholeWorkspace` (a type file changed, so every entry is re-read) all
   * types and entries of the workspace, and its workspace.yaml (which names
   * types). Call it before the re-read.
   */
  forgetChanged(workspace: string, paths: readonly string[], options: { wholeWorkspace?: boolean } = {}): void {
    const reread = [`${typesDir(workspace)}/`, `${workspace}/entries/`];
    const isChanged = changedFiles(paths);
    const isWholeWorkspace = (path: string) => path === workspaceFilePath(workspace) || reread.some((prefix) => path.startsWith(prefix));
    this.forget((path) => isChanged(path) || (options.wholeWorkspace === true && isWholeWorkspace(path)));
  }

  /**
   * Forgets what is known about the files a commit of the server's own wrote
   * or removed, and the other files of their entries: the server writes only
   * files that pass the rules, and applies them to the indexes without
   * reading them back. The exception is `{ws}/workspace.yaml`, whose `types`
   * may keep names of no type: it is forgotten also when a type file beside
   * it is written, and the content index judges it again
   * (ContentIndex.judgeWorkspaceFilesAgain()).
   */
  forgetWritten(paths: readonly string[]): void {
    const isChanged = changedFiles(paths);
    const judgedAgain = new Set(workspaceFilesJudgedAgain(paths).map(workspaceFilePath));
    this.forget((path) => isChanged(path) || judgedAgain.has(path));
  }

  /** Forgets every problem of a workspace that is no longer read (its workspace.yaml removed); one that comes back with it is new. */
  forgetWorkspace(workspace: string): void {
    const isInWorkspace = (path: string) => path.startsWith(`${workspace}/`);
    this.forget(isInWorkspace);
    for (const path of [...this.beforeReread.keys()]) if (isInWorkspace(path)) this.beforeReread.delete(path);
  }

  /** The problems of `workspace` (every workspace without one), by path: for callers that checked the grant (the dashboard, `cms check`). The `misnamedIn` workspace's include those of misnamed folders. */
  list(workspace?: string): ContentProblem[] {
    const isListed = (problem: ContentProblem) => workspace === undefined || problem.workspace === workspace || (workspace === this.misnamedIn && !WORKSPACE_SLUG.test(problem.workspace));
    const all = [...this.byPath.values()].flat().filter(isListed);
    return all.sort((a, b) => a.path.localeCompare(b.path) || (a.field ?? '').localeCompare(b.field ?? ''));
  }

  /**
   * The problems of `workspace` for GET /problems. Throws unauthorized
   * (anonymous) or forbidden without `problems.read` on `problems:*` there.
   */
  read(principal: Principal, workspace: string): ContentProblem[] {
    authorize(principal, problemsAccess(workspace));
    return this.list(workspace);
  }

  private forget(isReread: (path: string) => boolean): void {
    for (const path of [...this.beforeReread.keys()]) if (isReread(path)) this.beforeReread.delete(path);
    for (const [path, problems] of [...this.byPath]) {
      if (!isReread(path)) continue;
      this.byPath.delete(path);
      this.beforeReread.set(path, problems);
    }
  }
}

/** The grant that reading a workspace's problems asks for (docs/permissions.md): `problems.read` on `problems:*` there. */
export function problemsAccess(workspace: string): AccessRequest {
  return { action: 'problems.read', resource: 'problems:*', workspace };
}

// A path is read again when it changed, or when another file of its entry did.
function changedFiles(paths: readonly string[]): (path: string) => boolean {
  const changed = new Set(paths);
  const entryKeys = new Set(paths.map(entryKeyOf).filter((key) => key !== undefined));
  return (path) => {
    const key = entryKeyOf(path);
    return changed.has(path) || (key !== undefined && entryKeys.has(key));
  };
}

// `{ws}/entries/{type}/{slug}` for any file of an entry (its own or a translation).
function entryKeyOf(path: string): string | undefined {
  const entryPath = parseEntryPath(path);
  return entryPath?.file ? `${entriesDir(entryPath.workspace, entryPath.type)}/${entryPath.file.slug}` : undefined;
}
