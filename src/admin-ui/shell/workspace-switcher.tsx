// The workspace switcher at the top of the sidebar: every request after a
// switch carries the new workspace (X-Service-Workspace), and the app goes
// to that workspace's start page.
import { useEffect, useId, useState } from 'preact/hooks';
import { listWorkspaces } from '../api/workspaces.ts';
import type { Workspace } from '../api/types.ts';
import { useSession, useSignedIn } from '../session/session.tsx';

/** A labelled select of the active workspaces. */
export function WorkspaceSwitcher() {
  const { workspace } = useSignedIn();
  const session = useSession();
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const id = useId();

  useEffect(() => {
    void listWorkspaces().then((list) => {
      setWorkspaces(list);
      // A remembered workspace that was archived meanwhile: fall back to the first one.
      if (list.length > 0 && !list.some((item) => item.slug === workspace)) void session.switchWorkspace(list[0].slug);
    });
  }, [workspace]);

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
