// Workspaces: the top-level folders of the content repo, each described by
// `{ws}/workspace.yaml` (label, archived flag, type order). Held in memory so
// no request reads the disk; every change is one commit. What lives inside a
// workspace (types, entries, media) belongs to the other domain folders.
import { AppError, notFound } from '../../errors/app-error.ts';
import { authorize, can } from '../auth/authorize.ts';
import { ALL_WORKSPACES, type AccessRequest } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import type { FileChange } from '../../storage/content-repo.ts';
import type { ChangeAuthor, ChangeTold, ContentReader, ContentTransaction, ContentWriter } from '../content/content-writer.ts';
import type { ContentIndex } from '../content/content-index.ts';
import { problemsAccess } from '../content/problem-register.ts';
import { announcedIn, wholesalePublicationEvents, type Announcements } from '../model/events.ts';
import { WORKSPACE_SLUG, readWorkspaceYaml, workspaceFilePath, workspaceToYaml, type Workspace } from '../model/workspace-file.ts';

/** Body of POST /admin/api/workspaces. */
export interface CreateWorkspaceInput {
  slug: string;
  label: string;
}

/** Body of PUT /admin/api/workspaces/{ws}. */
export interface UpdateWorkspaceInput {
  label?: string;
  archived?: boolean;
}

/** What the registry reads: HEAD's files, or a commit's for reads at a ref (domain/history/ref-reads.ts). */
export type WorkspaceFiles = Pick<ContentReader, 'readFile' | 'listFolders'>;

/**
 * What archiving a workspace or bringing it back needs to tell the
 * publication events of its entries (docs/operations.md "Publication
 * events"): the entries, and the scheduler's announcements.
 */
export interface WorkspacePublication {
  content: Pick<ContentIndex, 'entries'>;
  announcements?: Announcements;
}

/** The workspace every installation has; it can never be archived. */
export const BUILT_IN_WORKSPACE = 'default';

const MAX_LABEL = 100;

/** Workspace registry: in-memory reads, one commit per change. */
export class WorkspaceService {
  private readonly repo: WorkspaceFiles;
  private readonly writer: ContentWriter;
  private readonly bySlug = new Map<string, Workspace>();
  // Archived although their file does not say (readWorkspaceYaml()'s archivedInDoubt), until a good file is read or written.
  private readonly archivedInDoubt = new Set<string>();
  private readonly protectedSlugs: Set<string>;
  private readonly publication: WorkspacePublication | undefined;

  private constructor(repo: WorkspaceFiles, writer: ContentWriter, protectedSlugs: string[], publication: WorkspacePublication | undefined) {
    this.repo = repo;
    this.writer = writer;
    this.protectedSlugs = new Set([BUILT_IN_WORKSPACE, ...protectedSlugs]);
    this.publication = publication;
  }

  /**
   * Reads every `{ws}/workspace.yaml` of the content repo. `protectedSlugs`
   * (the configured default workspace) can never be archived, like `default`.
   * A folder with the file is a workspace even when the file is bad: bad
   * settings take their defaults, except that an unreadable `archived`
   * counts as archived (readWorkspaceYaml(); the content index reports
   * them). With `publication`, archiving a workspace or bringing it back
   * tells its entries' publication events. Throws what the repo throws.
   */
  static async load(repo: WorkspaceFiles, writer: ContentWriter, protectedSlugs: string[] = [], publication?: WorkspacePublication): Promise<WorkspaceService> {
    const service = new WorkspaceService(repo, writer, protectedSlugs, publication);
    // Workspaces are the top-level folders; walking every entry file to find them would cost start-up time.
    for (const slug of await repo.listFolders('')) await service.reload(slug);
    return service;
  }

  /** Active workspaces, by slug. */
  list(): Workspace[] {
    return this.listAll().filter((workspace) => !workspace.archived);
  }

  /** True for `default` and the configured default workspace, which can never be archived. */
  isProtected(slug: string): boolean {
    return this.protectedSlugs.has(slug);
  }

  /** All workspaces, archived ones included, by slug. */
  listAll(): Workspace[] {
    return [...this.bySlug.values()].sort((a, b) => a.slug.localeCompare(b.slug));
  }

  /**
   * The workspaces an admin screen lists: active ones for every signed-in
   * user, archived ones too when asked. Throws unauthenticated (401) without
   * a user, forbidden (403) without `workspaces.manage` when archived ones are asked for.
   */
  listFor(principal: Principal, includeArchived: boolean): Workspace[] {
    if (principal.kind === 'anonymous') throw new AppError('unauthenticated', 'Sign in to the admin interface first.');
    if (!includeArchived) return this.list();
    authorize(principal, { action: 'workspaces.manage', resource: 'workspaces:*', workspace: ALL_WORKSPACES });
    return this.listAll();
  }

  /** The workspace with this slug, archived or not, if it exists. */
  find(slug: string): Workspace | undefined {
    return this.bySlug.get(slug);
  }

  /** The active workspace with this slug. Throws not_found (404) for an unknown or archived one. */
  get(slug: string): Workspace {
    const workspace = this.bySlug.get(slug);
    if (!workspace || workspace.archived) throw notFound(`No workspace "${slug}".`);
    return workspace;
  }

  /**
   * The workspace whose skipped files `principal` asks for (GET /problems):
   * an active one, or an archived one when `principal` may read its
   * problems, so that a file that archives it in doubt (an `archived` the
   * server could not read at start) can be found from outside. Throws
   * not_found (404) otherwise, as get() does.
   */
  getForProblems(principal: Principal, slug: string): Workspace {
    const workspace = this.bySlug.get(slug);
    if (workspace?.archived && can(principal, problemsAccess(slug))) return workspace;
    return this.get(slug);
  }

  /**
   * The workspace whose admin dashboard `principal` asks for: an active one,
   * or an archived one when `principal` may manage it (and so bring it
   * back), so that the admin app can show why it is archived. Throws
   * not_found (404) otherwise, as get() does.
   */
  getForManagers(principal: Principal, slug: string): Workspace {
    const workspace = this.bySlug.get(slug);
    if (workspace?.archived && can(principal, manageAccess(slug))) return workspace;
    return this.get(slug);
  }

  /**
   * True when the workspace is archived although its workspace.yaml does
   * not say whether it is (a bad or misspelt `archived`, a file that is not
   * a mapping): the server keeps the last value it read or, with none,
   * counts it archived (docs/cli.md). False for unknown workspaces.
   */
  isArchivedInDoubt(slug: string): boolean {
    return this.archivedInDoubt.has(slug);
  }

  /**
   * Returns the workspace, creating it (one commit by the system) when
   * missing. Used at first start for the default workspace and by setup.
   * Throws validation_failed (422) for a bad slug, or what the repo throws.
   */
  async ensure(slug: string, label: string): Promise<Workspace> {
    checkSlug(slug);
    const existing = this.bySlug.get(slug);
    if (existing) return existing;
    return this.writer.transaction(async (tx) => {
      const again = this.bySlug.get(slug);
      if (again) return again;
      return this.write(tx, 'system', newWorkspace(slug, checkLabel(label)), `Create workspace ${slug}`);
    });
  }

  /**
   * Creates a workspace. Throws unauthorized (401), forbidden (403) without
   * `workspaces.manage`, validation_failed (422), conflict (409) when the slug exists (archived too).
   */
  async create(principal: Principal, input: CreateWorkspaceInput): Promise<Workspace> {
    authorize(principal, { action: 'workspaces.manage', resource: `workspaces:${input.slug}`, workspace: input.slug });
    checkSlug(input.slug);
    const label = checkLabel(input.label);
    return this.writer.transaction(async (tx) => {
      if (this.bySlug.has(input.slug)) throw new AppError('conflict', `A workspace "${input.slug}" already exists.`);
      return this.write(tx, principal, newWorkspace(input.slug, label), `Create workspace ${input.slug}`);
    });
  }

  /**
   * Changes the label or the archived flag (the slug is immutable). Throws
   * unauthorized (401), forbidden (403), not_found (404), validation_failed (422)
   * when archiving `default` or the configured default workspace.
   */
  async update(principal: Principal, slug: string, input: UpdateWorkspaceInput): Promise<Workspace> {
    authorize(principal, manageAccess(slug));
    const label = input.label === undefined ? undefined : checkLabel(input.label);
    return this.writer.transaction(async (tx) => {
      const current = this.bySlug.get(slug);
      if (!current) throw notFound(`No workspace "${slug}".`);
      if (input.archived === true && this.protectedSlugs.has(slug)) {
        throw new AppError('validation_failed', `The workspace "${slug}" is the default workspace and cannot be archived.`, { fields: { archived: 'The default workspace cannot be archived.' } });
      }
      const next: Workspace = { ...current, label: label ?? current.label, archived: input.archived ?? current.archived };
      if (next.label === current.label && next.archived === current.archived) return current;
      const verb = next.archived === current.archived ? 'Update' : next.archived ? 'Archive' : 'Restore';
      const told = next.archived === current.archived ? undefined : this.publicationEvents(slug, next.archived);
      return this.write(tx, principal, next, `${verb} workspace ${slug}`, told);
    });
  }

  /** Archives a workspace; its files stay in the repo. Throws like update(). */
  archive(principal: Principal, slug: string): Promise<Workspace> {
    return this.update(principal, slug, { archived: true });
  }

  /**
   * Saves the order of types in a workspace (PATCH content-types/order); the
   * caller has checked permissions. Joins the caller's transaction when it
   * holds one. Throws not_found (404) for an unknown workspace.
   */
  async setTypeOrder(slug: string, names: string[], by: ChangeAuthor = 'system'): Promise<void> {
    await this.writer.transaction(async (tx) => {
      const current = this.get(slug);
      await this.write(tx, by, { ...current, type_order: [...names] }, `Reorder types in ${slug}`);
    });
  }

  /**
   * The change to `{slug}/workspace.yaml` that drops `typeName` from the type
   * order, and what applies it once committed; undefined when the order does
   * not name it. For the commit that deletes the type, so the file never
   * names a type that is gone (which GET /problems would list).
   */
  typeOrderWithout(slug: string, typeName: string): { change: FileChange; apply: () => void } | undefined {
    const current = this.bySlug.get(slug);
    if (!current?.type_order.includes(typeName)) return undefined;
    const next: Workspace = { ...current, type_order: current.type_order.filter((name) => name !== typeName), updated_at: new Date().toISOString() };
    return { change: { path: workspaceFilePath(slug), content: workspaceToYaml(next) }, apply: () => this.remember(next) };
  }

  /**
   * Re-reads `{slug}/workspace.yaml` (from `files`, an external commit's;
   * HEAD's by default); a deleted file
   * forgets the workspace. A bad setting keeps its last good value, so a
   * broken commit neither hides nor publishes the workspace's content; with
   * none known (at start, a new workspace) a bad `archived` counts as
   * archived (docs/cli.md, "The same list from a running server").
   */
  async reload(slug: string, files: Pick<WorkspaceFiles, 'readFile'> = this.repo): Promise<void> {
    if (!WORKSPACE_SLUG.test(slug)) return;
    const text = await files.readFile(workspaceFilePath(slug));
    if (text === undefined) {
      this.bySlug.delete(slug);
      this.archivedInDoubt.delete(slug);
      return;
    }
    const read = readWorkspaceYaml(slug, text, this.bySlug.get(slug));
    this.remember(read.workspace, read.workspace.archived && read.archivedInDoubt);
  }

  // A file the server writes says what it means: never in doubt.
  private remember(workspace: Workspace, inDoubt = false): void {
    this.bySlug.set(workspace.slug, workspace);
    if (inDoubt) this.archivedInDoubt.add(workspace.slug);
    else this.archivedInDoubt.delete(workspace.slug);
  }

  // An archived workspace answers 404 to every reader of the content API: its
  // public entries leave the site (content.unpublished) and come back with it
  // (content.published), told with the commit that archives or restores it,
  // and the workspace change with them, told even when no entry was public.
  private publicationEvents(slug: string, archiving: boolean): ChangeTold {
    const workspaces = [{ workspace: slug, change: archiving ? 'archived' as const : 'restored' as const }];
    if (!this.publication) return { events: [], workspaces };
    const { content, announcements } = this.publication;
    const entries = content.entries(slug);
    return { events: wholesalePublicationEvents(entries, archiving, Date.now(), announcedIn(announcements, slug)).map((event) => ({ ...event, workspace: slug })), workspaces };
  }

  private async write(tx: ContentTransaction, by: ChangeAuthor, workspace: Workspace, message: string, told?: ChangeTold): Promise<Workspace> {
    const now = new Date().toISOString();
    const next: Workspace = { ...workspace, updated_at: now };
    await tx.commit({
      by,
      message,
      changes: [{ path: workspaceFilePath(workspace.slug), content: workspaceToYaml(next) }],
      trailers: { Workspace: workspace.slug },
      apply: () => this.remember(next),
      ...told,
    });
    return next;
  }
}

/** The grant that changing a workspace asks for (docs/permissions.md), and seeing its dashboard while it is archived: `workspaces.manage` on `workspaces:{ws}`. */
export function manageAccess(slug: string): AccessRequest {
  return { action: 'workspaces.manage', resource: `workspaces:${slug}`, workspace: slug };
}

function newWorkspace(slug: string, label: string): Workspace {
  const now = new Date().toISOString();
  return { slug, label, archived: false, type_order: [], created_at: now, updated_at: now };
}

function checkSlug(slug: string): void {
  if (!WORKSPACE_SLUG.test(slug)) {
    throw new AppError('validation_failed', `"${slug.slice(0, 80)}" is not a valid workspace slug.`, { fields: { slug: 'Use 1 to 64 lowercase letters, digits and hyphens.' } });
  }
}

function checkLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed === '' || trimmed.length > MAX_LABEL) {
    throw new AppError('validation_failed', 'The workspace label is not valid.', { fields: { label: `Use 1 to ${MAX_LABEL} characters.` } });
  }
  return trimmed;
}
