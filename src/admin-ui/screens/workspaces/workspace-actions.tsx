// A workspace row's buttons: rename, and archive or bring back. The default
// workspaces (`protected` in the API's answer) can never be archived, so
// their Archive is disabled with the reason shown beside it, not refused
// after a confirmation.
import type { Workspace } from '../../api/types.ts';
import { Button } from '../../ui/button.tsx';
import { UnavailableButton } from '../../ui/unavailable-button.tsx';

export interface WorkspaceActionsProps {
  workspace: Workspace;
  onRename: () => void;
  onArchive: () => void;
  onBringBack: () => void;
}

export function WorkspaceActions({ workspace, onRename, onArchive, onBringBack }: WorkspaceActionsProps) {
  return (
    <span class="row-actions">
      <Button onClick={onRename} aria-label={`Rename ${workspace.label}`}>
        Rename
      </Button>
      {workspace.archived ? (
        <Button onClick={onBringBack} aria-label={`Bring back ${workspace.label}`}>
          Bring back
        </Button>
      ) : (
        <UnavailableButton variant="danger" onClick={onArchive} aria-label={`Archive ${workspace.label}`} unavailable={workspace.protected ? 'The default workspace is always active.' : undefined}>
          Archive
        </UnavailableButton>
      )}
    </span>
  );
}
