// Whether a few lines of code run in a fresh Node process started in the
// project's folder: how the health report learns that optional libraries
// load (sharp, archiver, yauzl) without loading them into the server, where
// they would hold ~14 MiB for the rest of its life though most servers
// never make a thumbnail or a backup.
import { execFile } from 'node:child_process';
import { findPackageRoot } from './package-root.ts';

// Loading sharp and encoding an image takes ~0.3 s; a child that hangs is not an answer.
const PROBE_TIMEOUT_MS = 30_000;

/** Runs `source` as an ES module in a new Node process in the project root; true when it exits with 0. Never rejects. */
export function succeedsInChild(source: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '--eval', source], { cwd: findPackageRoot(import.meta.url), timeout: PROBE_TIMEOUT_MS }, (error) => resolve(error === null));
  });
}
