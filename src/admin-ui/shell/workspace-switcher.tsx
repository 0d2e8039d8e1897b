// The workspace switcher at the top of the sidebar: every request after a
// switch carries the new workspace (X-Service-Workspace), and the app goes
// to that workspace's start page. The list is read again after a switch and
// after each change saved on the workspaces screen (a rename, an archive).
import { useEffect, useId, useState } from 'preact/hooks';
import { listWorkspaces } from '../api/workspaces.ts';
import type { Workspace } from '../api/types.ts';
import { useSession, useSignedIn } from '../session/session.tsx';
import { useWorkspacesGeneration } from '../session/workspace-changes.ts';

/** A labelled select of the active workspaces. */
export function WorkspaceSwitcher() {
  const { workspace } = useSignedIn();
  const session = useSession();
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const generation = useWorkspacesGeneration();
  const id = useId();

  useEffect(() => {
    // Only the newest answer counts: two changes in a row must not end on the older list.
    let newest = true;
    void listWorkspaces().then((list) => {
      if (!newest) return;
      setWorkspaces(list);
      // The workspace in use was archived (meanwhile, or just now): fall back to the first one.
      if (list.length > 0 && !list.some((item) => item.slug === workspace)) void session.switchWorkspace(list[0].slug);
    });
    return () => {
      newest = false;
    };
  }, [workspace, generation]);

  return (
    <div class="workspace-switcher">
      <label for={id}>Workspace</label>
      <select id={id} class="input" value={workspace} onChange={(event) => void session.switchWorkspace(event.currentTarget.value)}>
        {workspaces.length === 0 && <option value={workspace}>{workspace}</option>}
        {workspaces.map((item) => (
          <option key={item.slug} value={item.slug}>
            {item.label || item.slug}
          </option>
        ))}
      </select>
    </div>
  );
}
