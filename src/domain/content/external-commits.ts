// Commits made outside the server (plain git in the content folder, or a pull)
// are noticed by polling HEAD and applied to the in-memory index path by path.
import type { Logger } from '../../lib/logger.ts';
import type { ChangedPath, ContentRepo } from '../../storage/content-repo.ts';
import type { WorkspaceService } from '../workspaces/workspace-service.ts';
import type { ContentIndex } from './content-index.ts';

export interface WatchOptions {
  repo: ContentRepo;
  content: ContentIndex;
  workspaces: WorkspaceService;
  logger: Logger;
  intervalMs: number;
}

/** Starts watching; returns the function that stops it. Failures are logged, never thrown. */
export function watchExternalCommits(options: WatchOptions): () => void {
  const { repo, content, workspaces, logger } = options;
  return repo.watchHead(async (from, to) => {
    try {
      const changes = await repo.changedPaths(from, to);
      for (const [workspace, paths] of groupByWorkspace(changes)) {
        if (paths.some((change) => change.path === `${workspace}/workspace.yaml`)) {
          const known = !!workspaces.find(workspace);
          await workspaces.reload(workspace);
          if (!known) await content.loadWorkspace(workspace);
        }
        if (workspaces.find(workspace)) await content.applyExternalChanges(workspace, paths);
      }
      logger.info('indexed an external commit', { commit: to, files: changes.length });
    } catch (error) {
      logger.error('could not index an external commit', { commit: to, error });
    }
  }, options.intervalMs);
}

function groupByWorkspace(changes: ChangedPath[]): Map<string, ChangedPath[]> {
  const groups = new Map<string, ChangedPath[]>();
  for (const change of changes) {
    const workspace = change.path.split('/')[0];
    groups.set(workspace, [...(groups.get(workspace) ?? []), change]);
  }
  return groups;
}
