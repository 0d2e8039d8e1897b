// Path guards for everything storage writes or reads: relative paths that
// come from requests, entry slugs, file names or git trees are checked here
// before they reach the file system. Nothing here touches the disk.
import path from 'node:path';
import { AppError } from '../errors/app-error.ts';

// C0/C1 controls, DEL and the bidi/zero-width marks that make a name display
// as something other than what is stored.
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;
const LONE_SURROGATE = /\p{Cs}/u;
const WINDOWS_DRIVE = /^[a-zA-Z]:/;
const MAX_SEGMENT_BYTES = 255;
const MAX_SAFE_SEGMENT_CHARS = 200;
// ASCII letters, digits, `_`, `-` and `.` (nearly every name in a repository):
// such a name passes every check after the dot segments' (ASCII is its own
// NFKC form), so it skips them; a start checks a hundred thousand paths.
const PLAIN_SEGMENT = /^[\w.-]{1,255}$/;

/**
 * Resolves a posix path relative to `root` and returns the absolute path,
 * guaranteed to lie inside `root` (or be `root` itself for `''`). Use it for
 * every path that did not come from a constant. Throws `invalid_request` for
 * absolute paths, `.`/`..`/empty segments, NUL and other control characters,
 * backslashes, unicode look-alikes of `/`, `\` or `..`, and over-long names.
 */
export function resolveInside(root: string, relative: string): string {
  const base = path.resolve(root);
  if (relative === '') return base;
  const problem = relativePathProblem(relative);
  if (problem !== undefined) throw invalidPath(relative, problem);
  const resolved = path.resolve(base, relative);
  if (!resolved.startsWith(base + path.sep)) throw invalidPath(relative, 'it resolves outside its folder');
  return resolved;
}

/**
 * Checks a repo-relative posix path without resolving it and returns why it is
 * unsafe, or undefined when it is fine. resolveInside() uses it; callers that
 * only need a verdict (validating git tree paths) use it directly.
 */
export function relativePathProblem(relative: string): string | undefined {
  if (typeof relative !== 'string' || relative.length === 0) return 'it is empty';
  if (relative.startsWith('/') || WINDOWS_DRIVE.test(relative)) return 'it is absolute';
  if (relative.includes('\\')) return 'it contains a backslash';
  if (relative.includes('\0')) return 'it contains a NUL character';
  for (const segment of relative.split('/')) {
    const problem = segmentProblem(segment);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * True when `name` is safe as a single file or folder name chosen by a user
 * (state file names, workspace folders, media file names): 1–200 characters,
 * no separators, controls, leading dot, trailing dot or space, or look-alikes.
 */
export function isSafeSegment(name: string): boolean {
  if (typeof name !== 'string' || name.length === 0) return false;
  if ([...name].length > MAX_SAFE_SEGMENT_CHARS) return false;
  if (segmentProblem(name) !== undefined) return false;
  if (name.includes('/')) return false;
  const folded = name.normalize('NFKC');
  if (name.startsWith('.') || folded.startsWith('.')) return false;
  return !/[. ]$/.test(name) && !/\s/.test(name.charAt(0));
}

function segmentProblem(segment: string): string | undefined {
  if (segment.length === 0) return 'it has an empty segment';
  if (segment === '.' || segment === '..') return 'it has a "." or ".." segment';
  if (PLAIN_SEGMENT.test(segment)) return undefined;
  if (UNSAFE_CHARS.test(segment)) return 'it contains a control character';
  if (LONE_SURROGATE.test(segment)) return 'it is not well-formed unicode';
  if (segment.includes('\\')) return 'it contains a backslash';
  if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) return 'a segment is longer than 255 bytes';
  // Some file systems and tools fold compatibility characters (fullwidth
  // solidus, one/two dot leaders), so their folded form must be safe too.
  const folded = segment.normalize('NFKC');
  if (folded === '.' || folded === '..' || folded.includes('/') || folded.includes('\\')) {
    return 'it contains a unicode look-alike of a path separator or dot segment';
  }
  return undefined;
}

function invalidPath(relative: string, problem: string): AppError {
  const shown = typeof relative === 'string' ? JSON.stringify(relative.slice(0, 200)) : 'value';
  return new AppError('invalid_request', `The path ${shown} is not allowed: ${problem}.`);
}
