// Deciding what a restore writes into the content repo: which workspace,
// type, entry, trash and media files of the archive are written, which
// existing ones are kept (without overwrite), and which files an overwritten
// entry leaves behind. The result is one list of file changes for one commit.
import type { FileChange } from '../../storage/content-repo.ts';
import type { ContentIndex } from '../content/content-index.ts';
import { parseEntryFileName } from '../model/entry-paths.ts';
import { parseFrontMatter } from '../model/front-matter.ts';
import { TYPE_FILE } from '../model/type-files.ts';
import { recordFromYaml } from '../media/media-record.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import type { ContentFile } from './backup-reader.ts';
import type { ContentReader } from '../content/content-writer.ts';

/** What a restore did with one kind of record. */
export interface RestoreTally {
  content_types: number;
  entries: number;
  trash: number;
  media: number;
}

/** The content side of a restore. */
export interface ContentPlan {
  changes: FileChange[];
  restored: RestoreTally;
  kept: RestoreTally;
  skipped: RestoreTally;
  /** Media files whose metadata is written, so their binaries are placed too. */
  media: PlannedMedia[];
  notes: string[];
}

/** A media file whose record a restore writes. */
export interface PlannedMedia {
  workspace: string;
  filename: string;
  /** The SHA-256 its record names, if any. */
  sha256: string | null;
  /** Whether its record makes it public (false for a record the server cannot read: it is not served). */
  public: boolean;
}

/** What planning reads of the current state. */
export interface PlanSources {
  repo: Pick<ContentReader, 'readFile' | 'listFiles'>;
  content: Pick<ContentIndex, 'findType'>;
  workspaces: Pick<WorkspaceService, 'find'>;
}

// One entry's files: `{ws}/entries/{type}/{slug}[.{locale}].md`, or in the
// trash `{ws}/trash/{type}/{id}/{slug}[.{locale}].md` (trash-files.ts).
interface EntryGroup {
  workspace: string;
  folder: 'entries' | 'trash';
  type: string;
  /** The folder holding the files. */
  dir: string;
  slug: string;
  root?: ContentFile;
  files: ContentFile[];
}

const MEDIA_RECORD = /^[^/]+\/media\/([^/]+)\.yaml$/;
const CATEGORIES = '_categories';

/** Zeroed tallies. */
export function emptyTally(): RestoreTally {
  return { content_types: 0, entries: 0, trash: 0, media: 0 };
}

/**
 * Plans the content commit of a restore from the archive's files of the
 * requested parts. Without `overwrite` anything that exists is kept; with
 * it, the archive's version replaces it. Throws nothing of its own.
 */
export async function planContent(files: ContentFile[], sources: PlanSources, overwrite: boolean): Promise<ContentPlan> {
  const plan: ContentPlan = { changes: [], restored: emptyTally(), kept: emptyTally(), skipped: emptyTally(), media: [], notes: [] };
  const changes = new Map<string, string | null>();
  const after = await planTypes(files, sources, overwrite, plan, changes);
  const hasWorkspace = (workspace: string): boolean => after.workspaces.has(workspace) || sources.workspaces.find(workspace) !== undefined;
  const hasType = (workspace: string, type: string): boolean => after.types.has(`${workspace}/${type}`) || sources.content.findType(workspace, type) !== undefined;
  const listed = new Map<string, Promise<string[]>>();
  const filesIn = (dir: string): Promise<string[]> => {
    if (!listed.has(dir)) listed.set(dir, sources.repo.listFiles(dir));
    return listed.get(dir)!;
  };
  for (const group of groupEntries(files)) {
    if (!hasWorkspace(group.workspace) || !hasType(group.workspace, group.type)) {
      plan.skipped[group.folder === 'entries' ? 'entries' : 'trash'] += 1;
      continue;
    }
    await planEntry(group, { plan, changes, filesIn, content: sources.content, overwrite });
  }
  await planMedia(files, sources, overwrite, hasWorkspace, plan, changes);
  if (plan.skipped.entries + plan.skipped.trash > 0) {
    plan.notes.push(`${plan.skipped.entries + plan.skipped.trash} entries were not restored: their workspace or content type does not exist, or their slug belongs to another entry.`);
  }
  plan.changes = [...changes].map(([path, content]) => ({ path, content }));
  return plan;
}

// Workspace and type files; returns the workspaces and types that exist in the archive's part.
async function planTypes(files: ContentFile[], sources: PlanSources, overwrite: boolean, plan: ContentPlan, changes: Map<string, string | null>) {
  const after = { types: new Set<string>(), workspaces: new Set<string>() };
  for (const file of files.filter((item) => item.part === 'content_types')) {
    const [workspace, folder, name] = file.path.split('/');
    const typeName = folder === 'types' && name !== undefined ? TYPE_FILE.exec(name)?.[1] : undefined;
    if (typeName !== undefined) after.types.add(`${workspace}/${typeName}`);
    if (folder === 'workspace.yaml') after.workspaces.add(workspace);
    const exists = (await sources.repo.readFile(file.path)) !== undefined;
    if (exists && !overwrite) {
      if (typeName !== undefined) plan.kept.content_types += 1;
      continue;
    }
    changes.set(file.path, file.text);
    if (typeName !== undefined) plan.restored.content_types += 1;
  }
  return after;
}

// Media metadata files; the binaries of the ones written are placed after the commit.
async function planMedia(files: ContentFile[], sources: PlanSources, overwrite: boolean, hasWorkspace: (workspace: string) => boolean, plan: ContentPlan, changes: Map<string, string | null>): Promise<void> {
  for (const file of files.filter((item) => item.part === 'media')) {
    const [workspace] = file.path.split('/');
    const filename = MEDIA_RECORD.exec(file.path)?.[1];
    if (filename === undefined || !hasWorkspace(workspace)) continue;
    const exists = (await sources.repo.readFile(file.path)) !== undefined;
    if (exists && !overwrite) {
      if (filename !== CATEGORIES) plan.kept.media += 1;
      continue;
    }
    changes.set(file.path, file.text);
    if (filename === CATEGORIES) continue;
    plan.media.push({ workspace, filename, ...recordFacts(filename, file.text) });
    plan.restored.media += 1;
  }
}

// A record the server cannot read names no hash to check its file against,
// and is not public (the server skips it and reports it).
function recordFacts(filename: string, text: string): Pick<PlannedMedia, 'sha256' | 'public'> {
  try {
    const record = recordFromYaml(filename, text);
    return { sha256: record.sha256, public: record.visibility === 'public' };
  } catch {
    return { sha256: null, public: false };
  }
}

interface EntryContext {
  plan: ContentPlan;
  changes: Map<string, string | null>;
  filesIn: (dir: string) => Promise<string[]>;
  content: PlanSources['content'];
  overwrite: boolean;
}

// One entry (root file plus translations) in the entries or trash folder.
async function planEntry(group: EntryGroup, context: EntryContext): Promise<void> {
  const { plan, changes, overwrite } = context;
  const tally = group.folder === 'entries' ? 'entries' : 'trash';
  const id = idOf(group.root);
  if (group.root === undefined || id === undefined) {
    plan.skipped[tally] += 1;
    return;
  }
  const dir = group.dir;
  const present = await context.filesIn(dir);
  const atSlug = (slug: string): string[] =>
    present.filter((path) => {
      const name = path.slice(dir.length + 1);
      return !name.includes('/') && (group.folder === 'trash' || parseEntryFileName(name)?.slug === slug);
    });
  const index = group.folder === 'entries' ? context.content.findType(group.workspace, group.type)?.index : undefined;
  const byId = index?.get(id);
  const bySlug = index?.getBySlug(group.slug);
  const occupied = byId !== undefined || bySlug !== undefined || atSlug(group.slug).length > 0;
  if (occupied && !overwrite) {
    plan.kept[tally] += 1;
    return;
  }
  if (bySlug !== undefined && bySlug.id !== id) {
    plan.skipped[tally] += 1;
    return;
  }
  const written = new Set(group.files.map((file) => file.path));
  const stale = [...atSlug(group.slug), ...(byId !== undefined && byId.slug !== group.slug ? atSlug(byId.slug) : [])];
  for (const path of stale) if (!written.has(path)) changes.set(path, null);
  for (const file of group.files) changes.set(file.path, file.text);
  plan.restored[tally] += 1;
}

function groupEntries(files: ContentFile[]): EntryGroup[] {
  const groups = new Map<string, EntryGroup>();
  for (const file of files) {
    if (file.part !== 'entries') continue;
    const segments = file.path.split('/');
    const [workspace, folder, type] = segments;
    const depth = folder === 'entries' ? 4 : folder === 'trash' ? 5 : 0;
    const parsed = segments.length === depth ? parseEntryFileName(segments[depth - 1]) : undefined;
    if (parsed === undefined || (folder !== 'entries' && folder !== 'trash')) continue;
    const dir = segments.slice(0, depth - 1).join('/');
    const key = folder === 'trash' ? dir : `${dir}/${parsed.slug}`;
    const group = groups.get(key) ?? { workspace, folder, type, dir, slug: parsed.slug, files: [] };
    group.files.push(file);
    if (parsed.locale === undefined) group.root = file;
    groups.set(key, group);
  }
  return [...groups.values()];
}

function idOf(root: ContentFile | undefined): string | undefined {
  if (root === undefined) return undefined;
  try {
    const id = parseFrontMatter(root.text).attributes.id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}
