// Where the project's own files are, whether the server runs from the
// TypeScript sources (src/) or from the compiled output (dist/server/).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest folder at or above `moduleUrl`'s folder that holds a
 * package.json: the project root from any module of src/ or dist/server/.
 * Throws a plain Error when there is none (a broken install).
 */
export function findPackageRoot(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${fileURLToPath(moduleUrl)}.`);
    dir = parent;
  }
  return dir;
}
