// Whether this node can write and read ZIP archives (the health report's
// `zip`), asked of the folder that owns archiver and yauzl. They are
// imported in a child process (lib/child-probe.ts): in the server they load
// only with the first backup (~0.15 s of CPU for archiver, and memory held
// from then on).
import { succeedsInChild } from '../../lib/child-probe.ts';

/** Whether archiver (writing) and yauzl (reading) both load; false when either is missing or fails to load. */
export function canZip(): Promise<boolean> {
  return succeedsInChild("await Promise.all([import('archiver'), import('yauzl')]);");
}
