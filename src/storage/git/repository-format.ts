// The start-up check of an existing content repository: the server writes
// git's files itself, so a repository whose layout it does not write (a
// linked worktree's `.git` file, SHA-256 object names, reftable refs, a
// partial clone, any other repository extension) or that it cannot write
// (read-only) is refused with a message naming the problem, never written wrongly.
import { constants } from 'node:fs';
import { access, lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { StartupError } from '../../errors/startup-error.ts';
import { errnoCode, isNotFound } from '../../lib/errno.ts';

/** What the server must honour in a repository it can write. */
export interface RepositoryFormat {
  /** extensions.preciousObjects: git must never delete objects, so the server does not repack. */
  preciousObjects: boolean;
  /** core.logAllRefUpdates (true unless set to false): create missing reflogs. */
  logAllRefUpdates: boolean;
}

// Extensions that change nothing the server writes.
const HARMLESS_EXTENSIONS = new Set(['noop', 'noop-v1', 'worktreeconfig']);
const FALSE_VALUES = new Set(['false', 'no', 'off', '0']);

/**
 * Checks the repository in `root` (which has a `.git`). Throws StartupError
 * naming the problem when the server cannot write it safely.
 */
export async function checkRepositoryFormat(root: string): Promise<RepositoryFormat> {
  const gitdir = path.join(root, '.git');
  if (!(await lstat(gitdir)).isDirectory()) {
    throw new StartupError(
      `${gitdir} is a file, not a folder: the content repository is a linked worktree or a submodule. The server needs a repository of its own; clone it into a folder of its own.`,
    );
  }
  const config = parseGitConfig(await readFile(path.join(gitdir, 'config'), 'utf8').catch(ignoreMissing));
  const format = { preciousObjects: false, logAllRefUpdates: !FALSE_VALUES.has(config.get('core.logallrefupdates') ?? '') };
  const version = Number(config.get('core.repositoryformatversion') ?? '0');
  if (version > 1 || !Number.isInteger(version)) throw refused(root, `it uses repository format version ${config.get('core.repositoryformatversion')}`);
  if (version === 1) {
    for (const [key, value] of config) {
      if (!key.startsWith('extensions.')) continue;
      const name = key.slice('extensions.'.length);
      if (name === 'objectformat' && value.toLowerCase() !== 'sha1') throw refused(root, `its objects are named with ${value} (extensions.objectFormat), the server writes SHA-1 names only`);
      else if (name === 'refstorage' && value.toLowerCase() !== 'files') throw refused(root, `its refs are stored as ${value} (extensions.refStorage), the server writes ref files only`);
      else if (name === 'preciousobjects') format.preciousObjects = !FALSE_VALUES.has(value.toLowerCase());
      else if (!HARMLESS_EXTENSIONS.has(name) && name !== 'objectformat' && name !== 'refstorage') throw refused(root, `it uses the repository extension extensions.${name}, which the server does not support`);
    }
  }
  await assertWritable(root, ['.', '.git', '.git/objects', '.git/refs/heads']);
  return format;
}

function refused(root: string, problem: string): StartupError {
  return new StartupError(`The content repository ${root} cannot be used: ${problem}.`);
}

async function assertWritable(root: string, folders: string[]): Promise<void> {
  for (const folder of folders) {
    try {
      await access(path.join(root, folder), constants.W_OK);
    } catch (error) {
      if (isNotFound(error)) continue;
      throw new StartupError(`The content repository ${root} is read-only (${errnoCode(error) ?? 'no access'} on ${path.join(root, folder)}); the server needs write access to it.`, { cause: error });
    }
  }
}

/**
 * Reads the keys of a git config file that have no subsection, as
 * `section.key` in lowercase (the last value wins, as in git). A key without
 * `=` is true. Includes are not followed.
 */
export function parseGitConfig(text: string): Map<string, string> {
  const values = new Map<string, string>();
  let section: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*("(?:[^"\\]|\\.)*")?\s*\]$/.exec(line);
    if (header !== null) {
      section = header[2] === undefined ? header[1].toLowerCase() : undefined;
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (section !== undefined && entry !== null) values.set(`${section}.${entry[1].toLowerCase()}`, entry[2] === undefined ? 'true' : configValue(entry[2]));
  }
  return values;
}

// A value without its comment and quotes, escapes resolved.
function configValue(raw: string): string {
  let value = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i];
    if (char === '\\' && i + 1 < raw.length) {
      const next = raw[++i];
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else if (char === '"') {
      quoted = !quoted;
    } else if ((char === '#' || char === ';') && !quoted) {
      break;
    } else {
      value += char;
    }
  }
  return value.trim();
}

function ignoreMissing(error: unknown): string {
  if (isNotFound(error)) return '';
  throw error;
}
