// Reading a backup archive back: the checked ZIP (zip-reader.ts), its
// manifest, the content lines, the state documents and the counts inspect
// shows. Everything read here is untrusted; each piece is checked before use.
import { StringDecoder } from 'node:string_decoder';
import { isAppError } from '../../errors/app-error.ts';
import { MalformedObjectStream } from '../../storage/content-repo.ts';
import { relativePathProblem } from '../../storage/safe-path.ts';
import {
  classifyArchiveName,
  CONTENT_FILE,
  countContentFile,
  emptyCounts,
  HISTORY_FILE,
  MANIFEST_FILE,
  MAX_CONTENT_LINE,
  parseManifest,
  partOfContentPath,
  STATE_FILES,
  unreadable,
  type BackupCounts,
  type BackupManifest,
  type BackupPart,
  type StateFileKey,
} from './backup-format.ts';
import { CheckedZip, type ZipLimits } from './zip-reader.ts';
import type { ContentReader } from '../content/content-writer.ts';

/** An archive that passed every check of its directory and manifest. */
export interface OpenedBackup {
  zip: CheckedZip;
  manifest: BackupManifest;
}

/** One content repo file from `content.jsonl`. */
export interface ContentFile {
  path: string;
  text: string;
  part: BackupPart;
}

/**
 * Opens and checks an archive: the ZIP directory (zip-reader.ts), the
 * manifest, and that every file belongs to a part the manifest names.
 * Throws validation_failed (fields.backup) otherwise; the caller closes it.
 */
export async function openBackup(file: string, limits: ZipLimits): Promise<OpenedBackup> {
  const zip = await CheckedZip.open(file, limits, (name) => classifyArchiveName(name) !== undefined);
  try {
    if (!zip.has(MANIFEST_FILE)) throw unreadable('It has no manifest.json.');
    const manifest = parseManifest(await zip.text(MANIFEST_FILE));
    const parts = new Set(manifest.parts);
    for (const { name } of zip.files()) {
      const kind = classifyArchiveName(name);
      const needs: BackupPart[] =
        kind?.kind === 'content' ? ['content_types', 'entries', 'media'] : kind?.kind === 'history' ? ['entries'] : kind?.kind === 'media' ? ['media'] : kind?.kind === 'state' ? [kind.key === 'webhooks' ? 'webhooks' : 'users'] : [];
      if (needs.length > 0 && !needs.some((part) => parts.has(part))) throw unreadable(`The file "${name}" belongs to a part the manifest does not name.`);
    }
    return { zip, manifest };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/**
 * The content repo files of the archive, one at a time. Throws
 * validation_failed for a malformed line or a path outside the parts.
 */
export async function* contentFiles(backup: OpenedBackup): AsyncGenerator<ContentFile> {
  if (!backup.zip.has(CONTENT_FILE)) return;
  let pending = '';
  const decoder = new StringDecoder('utf8');
  const parse = (line: string): ContentFile | undefined => {
    if (line.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw unreadable('A line of content.jsonl is not JSON.');
    }
    const { path, text } = (typeof value === 'object' && value !== null ? value : {}) as { path?: unknown; text?: unknown };
    if (typeof path !== 'string' || typeof text !== 'string') throw unreadable('A line of content.jsonl lacks its path or text.');
    const part = relativePathProblem(path) === undefined ? partOfContentPath(path) : undefined;
    if (part === undefined || !backup.manifest.parts.includes(part)) throw unreadable(`The content path ${JSON.stringify(path.slice(0, 200))} does not belong in this backup.`);
    return { path, text, part };
  };
  try {
    for await (const chunk of await backup.zip.stream(CONTENT_FILE)) {
      const text = decoder.write(Buffer.from(chunk as Uint8Array));
      // Only a chunk with a line break splits: re-splitting a long line at every chunk is quadratic.
      const end = text.lastIndexOf('\n');
      const lines = end < 0 ? [] : (pending + text.slice(0, end)).split('\n');
      pending = end < 0 ? pending + text : text.slice(end + 1);
      if (pending.length > MAX_CONTENT_LINE) throw unreadable('A line of content.jsonl is too long.');
      for (const line of lines) {
        const file = parse(line);
        if (file) yield file;
      }
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw unreadable('content.jsonl is damaged.');
  }
  const last = parse(pending + decoder.end());
  if (last) yield last;
}

/** A state document of the archive as an array of records, or undefined when absent. Throws validation_failed when it is not an array of objects with string ids. */
export async function stateRecords(backup: OpenedBackup, key: StateFileKey): Promise<Record<string, unknown>[] | undefined> {
  const name = STATE_FILES[key];
  if (!backup.zip.has(name)) return undefined;
  const text = await backup.zip.text(name);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unreadable(`${name} is not JSON.`);
  }
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'object' || item === null || typeof (item as { id?: unknown }).id !== 'string')) {
    throw unreadable(`${name} is not a list of records with ids.`);
  }
  return value as Record<string, unknown>[];
}

/**
 * Checks the history file without storing anything and returns its commit
 * count (0 without one). Throws validation_failed when it is malformed.
 */
export async function checkHistory(backup: OpenedBackup, repo: Pick<ContentReader, 'importObjects'>, maxObjectBytes: number): Promise<number> {
  if (!backup.zip.has(HISTORY_FILE)) return 0;
  try {
    return (await repo.importObjects(await backup.zip.stream(HISTORY_FILE), { maxObjectBytes, dryRun: true })).commits;
  } catch (error) {
    if (error instanceof MalformedObjectStream) throw unreadable(error.message);
    if (isAppError(error)) throw error;
    throw unreadable('The history file is damaged.');
  }
}

/** Counts what the archive really holds (API.md inspect), reading every part once. */
export async function countBackup(backup: OpenedBackup, repo: Pick<ContentReader, 'importObjects'>, maxObjectBytes: number): Promise<BackupCounts> {
  const counts = emptyCounts();
  for await (const file of contentFiles(backup)) countContentFile(file.path, counts);
  counts.revisions = await checkHistory(backup, repo, maxObjectBytes);
  counts.media = backup.zip.files().filter(({ name }) => classifyArchiveName(name)?.kind === 'media').length;
  counts.webhooks = (await stateRecords(backup, 'webhooks'))?.length ?? 0;
  counts.users = (await stateRecords(backup, 'users'))?.length ?? 0;
  counts.roles = (await stateRecords(backup, 'roles'))?.length ?? 0;
  counts.tokens = (await stateRecords(backup, 'tokens'))?.length ?? 0;
  return counts;
}
