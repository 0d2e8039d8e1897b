// A workspace row's State: Active or Archived, and for a workspace archived
// in doubt (its workspace.yaml does not say whether it is archived, so the
// server keeps it hidden; docs/cli.md) why, from the problems of that file
// that its dashboard lists to those who may manage workspaces.
import { useEffect, useState } from 'preact/hooks';
import { getDashboard, type Dashboard } from '../../api/operations.ts';
import type { Workspace } from '../../api/types.ts';
import './workspace-state.css';

export function WorkspaceState({ workspace }: { workspace: Workspace }) {
  const [dashboard, setDashboard] = useState<Dashboard>();
  useEffect(() => {
    setDashboard(undefined);
    if (!workspace.archived) return undefined;
    const reading = new AbortController();
    // Without an answer (a network failure) the row still says Archived.
    getDashboard(workspace.slug, reading.signal).then(setDashboard, () => undefined);
    return () => reading.abort();
  }, [workspace.slug, workspace.archived, workspace.updated_at]);
  if (!workspace.archived) return <span>Active</span>;
  if (!dashboard?.archived_in_doubt) return <span>Archived</span>;
  const reasonId = `archived-why-${workspace.slug}`;
  return (
    <div class="workspace-state">
      <span aria-describedby={reasonId}>Archived in doubt</span>
      <div id={reasonId} class="field__hint">
        <p class="workspace-state__why">Its file workspace.yaml does not say whether it is archived, so its content stays hidden until the file is fixed or the workspace is brought back.</p>
        <ul class="workspace-state__problems">
          {dashboard.workspace_file_problems.map((problem) => (
            <li key={`${problem.field ?? ''}:${problem.message}`} class="break">
              <code>{problem.path}</code>: {problem.reason}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
