import { lstat } from 'node:fs/promises';
import { isNotFound } from './errno.ts';

/** Whether anything (a file, a folder, a link) is at `file`. Throws file system errors other than not-found. */
export async function pathExists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}
