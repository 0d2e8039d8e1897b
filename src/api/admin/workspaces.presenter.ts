// The shape of a workspace in admin responses.
import type { Workspace } from '../../domain/model/workspace-file.ts';

/** A workspace as the admin API returns it: the domain's record, every field public. */
export type WorkspaceView = Workspace;

/** Shapes a workspace for responses. */
export function presentWorkspace(workspace: Workspace): WorkspaceView {
  return {
    slug: workspace.slug,
    label: workspace.label,
    archived: workspace.archived,
    type_order: [...workspace.type_order],
    created_at: workspace.created_at,
    updated_at: workspace.updated_at,
  };
}
