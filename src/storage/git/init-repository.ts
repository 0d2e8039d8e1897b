// A new, empty repository as `git init` lays it out, on branch main. The
// server writes these few files itself, like every other git file: it needs
// no git CLI to start, and the git library that did this once held ~15 MiB
// of memory for the rest of the process's life.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../../lib/errno.ts';
import { pathExists } from '../../lib/path-exists.ts';

const FOLDERS = ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'info'];
// Git probes the file system's case sensitivity the same way: a folder it made, asked for in capitals.
const CASE_PROBE = 'OBJECTS';

/**
 * Creates the repository's files in `gitdir`. A config already there (an
 * earlier start stopped before HEAD was written) is kept. HEAD comes last:
 * a `.git` without it is initialized again.
 */
export async function initRepository(gitdir: string): Promise<void> {
  for (const folder of FOLDERS) await mkdir(path.join(gitdir, folder), { recursive: true });
  const ignoreCase = await pathExists(path.join(gitdir, CASE_PROBE));
  const native = process.platform !== 'win32';
  const config = ['[core]', '\trepositoryformatversion = 0', `\tfilemode = ${native}`, '\tbare = false', '\tlogallrefupdates = true', `\tsymlinks = ${native}`, `\tignorecase = ${ignoreCase}`, ''];
  await writeFile(path.join(gitdir, 'config'), config.join('\n'), { flag: 'wx' }).catch((error: unknown) => {
    if (errnoCode(error) !== 'EEXIST') throw error;
  });
  await writeFile(path.join(gitdir, 'HEAD'), 'ref: refs/heads/main\n');
}
