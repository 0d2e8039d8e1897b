// A branch move whose working tree could not follow (a file in the way, a
// full disk: WorkingTreeBehind of git-cli/branch-moves.ts) has still moved
// the branch. The commits are taken in all the same, so reads show what the
// branch says instead of the commits before it until the next start.
import type { Logger } from '../../lib/logger.ts';
import { WorkingTreeBehind } from '../../storage/git-cli/git-peer.ts';

/** A catch handler for a branch move: logs WorkingTreeBehind for the operator and rethrows anything else (the branch did not move then). */
export function unlessWorkingTreeBehind(logger: Logger): (error: unknown) => void {
  return (error) => {
    if (!(error instanceof WorkingTreeBehind)) throw error;
    logger.error(
      'the branch moved but the content folder’s working tree could not follow; the server serves the new commits, and git status in the content folder lists the files left behind (git checkout -- <file> brings one along once nothing is in its way)',
      { from: error.from, to: error.to, error: error.cause },
    );
  };
}
