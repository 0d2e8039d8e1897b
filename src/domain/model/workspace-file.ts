// The workspace file format: `{ws}/workspace.yaml` holds a workspace's label,
// archived flag and type order; the folder name is its slug. Rules about who
// may change a workspace live in domain/workspaces/.
import { groupBy } from '../../lib/group-by.ts';
import { didYouMean, misspeltKey } from './misspelt-keys.ts';
import { readYaml, writeYaml } from './yaml-text.ts';

/** A workspace as the admin API shows it. */
export interface Workspace {
  slug: string;
  label: string;
  archived: boolean;
  type_order: string[];
  created_at: string;
  updated_at: string;
}

/** The slug rule, shared with type names: lowercase letters, digits, hyphens. */
export const WORKSPACE_SLUG = /^[a-z0-9-]{1,64}$/;

/** The repo path of a workspace's description file. */
export function workspaceFilePath(slug: string): string {
  return `${slug}/workspace.yaml`;
}

/** Changed files by the workspace folder they are in, in their order; files at the root of the repo belong to no workspace and are left out. */
export function groupByWorkspace<T extends { path: string }>(changes: Iterable<T>): Map<string, T[]> {
  return groupBy(changes, ({ path }) => {
    const slash = path.indexOf('/');
    return slash === -1 ? undefined : path.slice(0, slash);
  });
}

/** The YAML text of `{ws}/workspace.yaml` (the slug is the folder name, not stored). */
export function workspaceToYaml(workspace: Workspace): string {
  const { slug: _slug, type_order, ...rest } = workspace;
  return writeYaml({ ...rest, types: type_order });
}

/** A setting of `{ws}/workspace.yaml` that cannot be used: the key to blame when there is one, and a full sentence. */
export interface WorkspaceFileProblem {
  field?: string;
  message: string;
}

/** The keys a workspace file holds (workspaceToYaml() writes them). */
const KEYS = ['label', 'archived', 'types', 'created_at', 'updated_at'];

/** What readWorkspaceYaml() makes of a file. */
export interface WorkspaceFileReading {
  workspace: Workspace;
  problems: WorkspaceFileProblem[];
  /**
   * True when the file does not say whether the workspace is archived (a
   * bad `archived`, a misspelt one such as `archive`, a file that is not a
   * YAML mapping), so `workspace.archived` is the fallback's.
   */
  archivedInDoubt: boolean;
}

/** The settings of a workspace whose file gives none: a new workspace's. */
function defaultWorkspace(slug: string): Workspace {
  return { slug, label: slug, archived: false, type_order: [], created_at: '', updated_at: '' };
}

/**
 * What a bad setting reads as when no good value of it is known (a server
 * that starts on the file, a workspace first seen in a broken commit): the
 * defaults, but archived, since the file may have meant to archive the
 * workspace, and in doubt its content is not published (docs/cli.md).
 */
function inDoubtWorkspace(slug: string): Workspace {
  return { ...defaultWorkspace(slug), archived: true };
}

/**
 * Reads `{ws}/workspace.yaml` (hand-edited files included). A key that is
 * missing takes its default (label: the slug; not archived; no type order);
 * a key whose value breaks its rule, and every key of a file that is not a
 * YAML mapping, keeps its value from `fallback` (the last good settings;
 * when none are known, the defaults but archived: inDoubtWorkspace()) and
 * is reported. Unknown keys are reported (naming the known key they are
 * likely a misspelling of) and ignored, except that a misspelt `archived`
 * (`archive: true`) in a file without `archived` counts as a bad
 * `archived`: a missing one would publish the workspace (docs/cli.md).
 * Throws nothing.
 */
export function readWorkspaceYaml(slug: string, text: string, fallback: Workspace = inDoubtWorkspace(slug)): WorkspaceFileReading {
  let parsed: unknown;
  try {
    parsed = readYaml(text);
  } catch (error) {
    // The parser's first line, without the colon that introduces its excerpt of the file.
    const reason = (error instanceof Error ? error.message.split('\n', 1)[0] : String(error)).replace(/:$/, '');
    return { workspace: { ...fallback, slug }, problems: [{ message: `The workspace file is not valid YAML (${reason}).` }], archivedInDoubt: true };
  }
  if (parsed === null || parsed === undefined) parsed = {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { workspace: { ...fallback, slug }, problems: [{ message: 'The workspace file must be a YAML mapping of label, archived and types.' }], archivedInDoubt: true };
  }
  const raw = parsed as Record<string, unknown>;
  const defaults = defaultWorkspace(slug);
  const problems: WorkspaceFileProblem[] = [];
  // A missing key takes the default; a bad one keeps the fallback and is reported.
  function setting<K extends keyof Workspace>(key: string, field: K, read: (value: unknown) => Workspace[K] | undefined, rule: string): Workspace[K] {
    if (!Object.hasOwn(raw, key) || raw[key] === null) return defaults[field];
    const value = read(raw[key]);
    if (value !== undefined) return value;
    problems.push({ field: key, message: rule });
    return fallback[field];
  }
  const stamp = (value: unknown) => (typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : undefined);
  const workspace: Workspace = {
    slug,
    label: setting('label', 'label', (value) => (typeof value === 'string' && value.trim() !== '' ? value : undefined), 'Must be a non-empty text.'),
    archived: setting('archived', 'archived', (value) => (typeof value === 'boolean' ? value : undefined), 'Must be true or false.'),
    type_order: setting('types', 'type_order', (value) => (Array.isArray(value) && value.every((name) => typeof name === 'string') ? [...value] : undefined), 'Must be a list of content type names.'),
    created_at: setting('created_at', 'created_at', stamp, 'Must be a date and time.'),
    updated_at: setting('updated_at', 'updated_at', stamp, 'Must be a date and time.'),
  };
  let archivedInDoubt = problems.some((problem) => problem.field === 'archived');
  const hasArchived = Object.hasOwn(raw, 'archived') && raw.archived !== null;
  for (const key of Object.keys(raw)) {
    if (KEYS.includes(key)) continue;
    const meant = misspeltKey(key, KEYS);
    problems.push({ field: key, message: didYouMean(`Unknown property "${key}"`, meant) });
    // Read as missing, a misspelt archived would publish what the file may have meant to archive.
    if (meant === 'archived' && !hasArchived && !archivedInDoubt) {
      archivedInDoubt = true;
      workspace.archived = fallback.archived;
    }
  }
  return { workspace, problems, archivedInDoubt };
}
