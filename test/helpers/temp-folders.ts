// Temp folders the test helpers make that may outlive their test (a data
// root closed with `keepData`, the admin app built once per run): removed
// when the test process exits, so runs leave nothing in TMPDIR.
import { rmSync } from 'node:fs';

const folders = new Set<string>();

/** Removes `dir` when the process exits, unless it is gone by then. */
export function removeAtExit(dir: string): void {
  if (folders.size === 0) process.once('exit', removeAll);
  folders.add(dir);
}

function removeAll(): void {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
}
