// What the grants editor needs besides the grants: the action catalogue, the
// workspace's content types and the workspaces, loaded together.
import { useEffect, useState } from 'preact/hooks';
import { listContentTypes } from '../../api/content-types.ts';
import { listGrantActions, type ActionGroup } from '../../api/people.ts';
import type { ContentType, Workspace } from '../../api/types.ts';
import { listWorkspaces } from '../../api/workspaces.ts';

export interface GrantContext {
  catalogue: ActionGroup[];
  types: ContentType[];
  workspaces: Workspace[];
}

/** The context, or undefined while it loads; parts that cannot be read are left empty. */
export function useGrantContext(): GrantContext | undefined {
  const [context, setContext] = useState<GrantContext>();
  useEffect(() => {
    void Promise.all([listGrantActions(), listContentTypes().catch(() => []), listWorkspaces().catch(() => [])]).then(
      ([catalogue, types, workspaces]) => setContext({ catalogue, types, workspaces }),
      () => setContext({ catalogue: [], types: [], workspaces: [] }),
    );
  }, []);
  return context;
}
