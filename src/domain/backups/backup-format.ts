// The layout of a backup archive: which parts exist, how the archive and its
// files are named, and the manifest. Every name an archive may hold is listed
// here; anything else makes an archive unacceptable.
import { validationFailed } from '../../errors/app-error.ts';
import { isSafeSegment } from '../../storage/safe-path.ts';
import { parseEntryPath } from '../model/entry-paths.ts';
import { TYPE_FILE } from '../model/type-files.ts';
import { WORKSPACE_SLUG } from '../model/workspace-file.ts';

/** The parts a backup can hold (API.md "Backups"). */
export const BACKUP_PARTS = ['content_types', 'entries', 'media', 'webhooks', 'users'] as const;
/** One of BACKUP_PARTS. */
export type BackupPart = (typeof BACKUP_PARTS)[number];

/** What a backup holds when the request names no parts (API.md: all but users). */
export const DEFAULT_PARTS: readonly BackupPart[] = ['content_types', 'entries', 'media', 'webhooks'];

/** Counts shown by inspect (API.md "Backups"). */
export interface BackupCounts {
  content_types: number;
  entries: number;
  revisions: number;
  media: number;
  users: number;
  roles: number;
  tokens: number;
  webhooks: number;
}

/** `manifest.json`, the first file of every archive. */
export interface BackupManifest {
  format: typeof FORMAT;
  format_version: number;
  name: string;
  created_at: string;
  /** The server version that wrote the archive. */
  version: string;
  parts: BackupPart[];
  /** The content repo's HEAD when the backup was made (the history's tip), or null without history. */
  head: string | null;
  /** Whether password and token hashes (and webhook secrets) are inside. */
  include_secrets: boolean;
  counts: BackupCounts;
  /** Files of the repository the archive does not hold, and why (a file too large for a content line). */
  left_out?: { path: string; reason: string }[];
}

/** The `format` value of every manifest; an archive with another is not a backup of ours. */
export const FORMAT = 'git-cms-backup';
/** The manifest format version this server writes and reads. */
export const FORMAT_VERSION = 1;
/** The archive entry holding the manifest, written last. */
export const MANIFEST_FILE = 'manifest.json';
/** The content repo's files of the chosen parts, one JSON object per line: `{ path, text }` or `{ path, base64 }`. */
export const CONTENT_FILE = 'content.jsonl';
/** The longest line of content.jsonl a reader accepts (characters); the writer leaves a longer file out. */
export const MAX_CONTENT_LINE = 64 * 1024 * 1024;
/** Every git object reachable from `head` (entries part). */
export const HISTORY_FILE = 'history/objects.bin';
/** Archive entries of the state documents a backup can carry. */
export const STATE_FILES = { webhooks: 'state/webhooks.json', users: 'state/users.json', roles: 'state/roles.json', tokens: 'state/tokens.json' } as const;
/** A key of STATE_FILES. */
export type StateFileKey = keyof typeof STATE_FILES;

/** Archive names: `backup-YYYYMMDD-HHMMSS.zip`. */
export const BACKUP_NAME = /^backup-\d{8}-\d{6}\.zip$/;

/** The archive name for a time (UTC). */
export function backupNameAt(time: number): string {
  const iso = new Date(time).toISOString();
  return `backup-${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}.zip`;
}

/** What one name inside an archive is. */
export type ArchiveFile =
  | { kind: 'manifest' | 'content' | 'history' }
  | { kind: 'media'; workspace: string; filename: string }
  | { kind: 'state'; key: StateFileKey }
  | { kind: 'folder' };

/** Classifies a name inside an archive, or returns undefined for a name no backup holds. */
export function classifyArchiveName(name: string): ArchiveFile | undefined {
  if (name === MANIFEST_FILE) return { kind: 'manifest' };
  if (name === CONTENT_FILE) return { kind: 'content' };
  if (name === HISTORY_FILE) return { kind: 'history' };
  if (['media/', 'state/', 'history/'].includes(name)) return { kind: 'folder' };
  for (const [key, file] of Object.entries(STATE_FILES)) if (name === file) return { kind: 'state', key: key as StateFileKey };
  const media = /^media\/([^/]+)\/([^/]*)$/.exec(name);
  if (media && WORKSPACE_SLUG.test(media[1])) {
    if (media[2] === '') return { kind: 'folder' };
    if (isSafeSegment(media[2])) return { kind: 'media', workspace: media[1], filename: media[2] };
  }
  return undefined;
}

/** The archive name of a media file. */
export function mediaArchiveName(workspace: string, filename: string): string {
  return `media/${workspace}/${filename}`;
}

/**
 * Which part a content repo file belongs to: workspace files and types to
 * content_types, entries and trash to entries, media metadata to media;
 * undefined for anything else (README, unknown folders).
 */
export function partOfContentPath(path: string): BackupPart | undefined {
  const [workspace, folder, ...rest] = path.split('/');
  if (!WORKSPACE_SLUG.test(workspace ?? '')) return undefined;
  if (folder === 'workspace.yaml' && rest.length === 0) return 'content_types';
  if (rest.length === 0) return undefined;
  if (folder === 'types') return 'content_types';
  if (folder === 'entries' || folder === 'trash') return 'entries';
  if (folder === 'media') return 'media';
  return undefined;
}

/**
 * Adds a content repo file to the counts: a type file, or an entry (its
 * default-locale file). Entry files are read as the loader reads them
 * (parseEntryPath), so a translation, a stray name or a file in a subfolder
 * of a type's folder is no entry, and a backup counts what the server serves.
 */
export function countContentFile(path: string, counts: BackupCounts): void {
  const [, folder, name, deeper] = path.split('/');
  if (folder === 'types' && deeper === undefined && TYPE_FILE.test(name ?? '')) counts.content_types += 1;
  const entry = parseEntryPath(path)?.file;
  if (entry !== undefined && entry.locale === undefined) counts.entries += 1;
}

/** Checks a requested part list. Throws validation_failed naming the first unknown part (field `parts`). */
export function parseParts(parts: readonly string[]): BackupPart[] {
  const unknown = parts.find((part) => !(BACKUP_PARTS as readonly string[]).includes(part));
  if (unknown !== undefined) {
    throw validationFailed({ parts: `Unknown part "${unknown.slice(0, 50)}"; use ${BACKUP_PARTS.join(', ')}.` }, 'The backup parts are not valid.');
  }
  if (parts.length === 0) throw validationFailed({ parts: 'Name at least one part.' }, 'The backup parts are not valid.');
  return BACKUP_PARTS.filter((part) => parts.includes(part));
}

/** Parses and checks `manifest.json`. Throws validation_failed (field `backup`) when it is not a manifest this server can read. */
export function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unreadable('The manifest is not JSON.');
  }
  if (typeof value !== 'object' || value === null) throw unreadable('The manifest is not an object.');
  const manifest = value as Partial<BackupManifest>;
  if (manifest.format !== FORMAT) throw unreadable('The archive is not a backup of this server.');
  if (manifest.format_version !== FORMAT_VERSION) throw unreadable(`The backup format version ${String(manifest.format_version)} is not supported.`);
  if (!Array.isArray(manifest.parts) || manifest.parts.some((part) => !(BACKUP_PARTS as readonly unknown[]).includes(part))) {
    throw unreadable('The manifest names an unknown part.');
  }
  if (manifest.head !== null && (typeof manifest.head !== 'string' || !/^[0-9a-f]{40}$/.test(manifest.head))) throw unreadable('The manifest head is not a commit id.');
  if (typeof manifest.created_at !== 'string' || Number.isNaN(Date.parse(manifest.created_at))) throw unreadable('The manifest has no creation time.');
  return {
    format: FORMAT,
    format_version: FORMAT_VERSION,
    name: typeof manifest.name === 'string' ? manifest.name : '',
    created_at: manifest.created_at,
    version: typeof manifest.version === 'string' ? manifest.version : 'unknown',
    parts: manifest.parts,
    head: manifest.head ?? null,
    include_secrets: manifest.include_secrets === true,
    counts: checkedCounts(manifest.counts),
  };
}

// Counts are informational; anything but a whole number reads as 0.
function checkedCounts(value: unknown): BackupCounts {
  const counts = emptyCounts();
  if (typeof value !== 'object' || value === null) return counts;
  for (const key of Object.keys(counts) as (keyof BackupCounts)[]) {
    const count = (value as Record<string, unknown>)[key];
    if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 0) counts[key] = count;
  }
  return counts;
}

/** Counts of zero, filled in as parts are read. */
export function emptyCounts(): BackupCounts {
  return { content_types: 0, entries: 0, revisions: 0, media: 0, users: 0, roles: 0, tokens: 0, webhooks: 0 };
}

/** The 422 for an archive that cannot be used; `fields.backup` says why. */
export function unreadable(reason: string): Error {
  return validationFailed({ backup: reason }, `The backup cannot be used: ${reason}`);
}
