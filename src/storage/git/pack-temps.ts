// The temp files git leaves in objects/pack when it is stopped midway:
// pack-objects writes `tmp_pack_XXXXXX` (and `tmp_idx_`, `tmp_rev_`, …)
// without removing them on a signal, and git repack's `.tmp-<pid>-pack-*`
// stay when it is killed. git gc prunes them once they are older than its
// prune expiry. The server removes those of its own background run when it
// stops it (packing.ts), and old ones at start; never one a process still
// has open, nor a young one, which may be a running git's (a developer's
// `git gc`, a fetch, a push being received).
import path from 'node:path';
import { filesNotOpen, filesOpenInTree, realFolder } from '../../lib/process-tree.ts';
import { removeQuietly, staleFiles } from '../atomic-write.ts';

const GIT_PACK_TEMP = /^(tmp_(pack|idx|rev|mtimes|bitmap)_[A-Za-z0-9]{6}|\.tmp-\d+-pack-.*)$/;
// git writes a temp pack as it goes and renames it within moments of the
// last write: one untouched this long belongs to no running git.
const STALE_AGE_MS = 60 * 60 * 1000;

/** The git temp files in `packDir` that `pid` or a process under it has open (through /proc; none elsewhere). */
export function packTempsOpenIn(pid: number, packDir: string): string[] {
  const folder = realFolder(packDir);
  return filesOpenInTree(pid).filter((file) => path.dirname(file) === folder && GIT_PACK_TEMP.test(path.basename(file)));
}

/** Removes files, each only if still there; never throws. */
export function removePackTemps(files: string[]): void {
  for (const file of files) removeQuietly(file);
}

/** Removes git's temp files in `packDir` last written over an hour ago that no process (that /proc lets us see) has open. */
export function removeStaleGitPackTemps(packDir: string, now = Date.now()): void {
  removePackTemps(filesNotOpen(staleFiles(packDir, (name) => GIT_PACK_TEMP.test(name), STALE_AGE_MS, now)));
}
