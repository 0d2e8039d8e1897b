// The shape of a workspace in admin responses.
import type { Workspace } from '../../domain/model/workspace-file.ts';

/**
 * A workspace as the admin API returns it: the domain's record, plus
 * `protected` (it can never be archived) so the app does not offer what the
 * server would refuse.
 */
export type WorkspaceView = Workspace & { protected: boolean };

/** Shapes a workspace for responses; `isProtected` is the service's rule (WorkspaceService.isProtected). */
export function presentWorkspace(workspace: Workspace, isProtected: boolean): WorkspaceView {
  return {
    slug: workspace.slug,
    label: workspace.label,
    archived: workspace.archived,
    protected: isProtected,
    type_order: [...workspace.type_order],
    created_at: workspace.created_at,
    updated_at: workspace.updated_at,
  };
}
