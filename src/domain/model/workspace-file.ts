// The workspace file format: `{ws}/workspace.yaml` holds a workspace's label,
// archived flag and type order; the folder name is its slug. Rules about who
// may change a workspace live in domain/workspaces/.
import YAML from 'yaml';

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

/** The YAML text of `{ws}/workspace.yaml` (the slug is the folder name, not stored). */
export function workspaceToYaml(workspace: Workspace): string {
  const { slug: _slug, type_order, ...rest } = workspace;
  return YAML.stringify({ ...rest, types: type_order }, { lineWidth: 0 });
}

/**
 * Parses `{ws}/workspace.yaml`. Hand-edited files are accepted leniently:
 * missing keys get defaults, wrong types are ignored; undefined for a file
 * that is not a YAML mapping (the workspace is then skipped).
 */
export function parseWorkspaceYaml(slug: string, text: string): Workspace | undefined {
  let parsed: unknown;
  try {
    parsed = YAML.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || parsed === undefined) parsed = {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const raw = parsed as Record<string, unknown>;
  const types = Array.isArray(raw.types) ? raw.types.filter((name): name is string => typeof name === 'string') : [];
  const stamp = (value: unknown) => (typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : '');
  return {
    slug,
    label: typeof raw.label === 'string' && raw.label.trim() !== '' ? raw.label : slug,
    archived: raw.archived === true,
    type_order: types,
    created_at: stamp(raw.created_at),
    updated_at: stamp(raw.updated_at),
  };
}
