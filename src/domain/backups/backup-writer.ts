// What goes into a new backup archive: the content repo's files of the chosen
// parts as they are at one commit (so writes during the backup never mix in),
// the git history for the entries part, media binaries, and state documents
// with hashes and secrets left out unless configured otherwise.
import { Readable, type Writable } from 'node:stream';
import type { RoleRecord, UserRecord } from '../auth/account-store.ts';
import type { TokenRecord } from '../auth/token-service.ts';
import type { WebhookRecord } from '../webhooks/webhook-service.ts';
import {
  CONTENT_FILE,
  countContentFile,
  emptyCounts,
  FORMAT,
  FORMAT_VERSION,
  HISTORY_FILE,
  MANIFEST_FILE,
  MAX_CONTENT_LINE,
  mediaArchiveName,
  partOfContentPath,
  STATE_FILES,
  type BackupCounts,
  type BackupManifest,
  type BackupPart,
} from './backup-format.ts';
import type { ZipSource } from './zip-writer.ts';
import type { ContentReader } from '../content/content-writer.ts';

/** Media binaries as the backup reads and restores them (media-store.ts provides them). */
export interface MediaFiles {
  open(kind: 'file', workspace: string, filename: string): Promise<{ stream(): Readable; close(): Promise<void> } | undefined>;
  exists(kind: 'file', workspace: string, filename: string): Promise<boolean>;
  read(kind: 'file', workspace: string, filename: string): Promise<Uint8Array | undefined>;
  createStaged(maxBytes: number): { id: string; stream: Writable };
  readStaged(id: string): Promise<Uint8Array>;
  placeStaged(id: string, workspace: string, filename: string): Promise<void>;
  discardStaged(id: string): Promise<void>;
  prepareFolder(workspace: string): Promise<boolean>;
  removeEmptyFolder(kind: 'file', workspace: string): Promise<void>;
  remove(kind: 'file' | 'thumb', workspace: string, filename: string): Promise<void>;
}

/** The state documents a backup copies. */
export interface StateRecords {
  users(): readonly UserRecord[];
  roles(): readonly RoleRecord[];
  tokens(): readonly TokenRecord[];
  webhooks(): readonly WebhookRecord[];
}

/** Everything one backup is written from. */
export interface BackupSnapshot {
  name: string;
  createdAt: string;
  version: string;
  parts: readonly BackupPart[];
  includeSecrets: boolean;
  repo: Pick<ContentReader, 'head' | 'listFilesAt' | 'readAt' | 'exportObjects'>;
  media: MediaFiles | undefined;
  state: StateRecords;
}

const MEDIA_RECORD = /^([a-z0-9-]{1,64})\/media\/([^/]+)\.yaml$/;
const CATEGORIES_RECORD = '_categories';

/**
 * The archive's entries in order, ending with the manifest (whose counts are
 * known only then). Reads the repository at the HEAD it starts from.
 */
export async function* backupSources(snapshot: BackupSnapshot): AsyncGenerator<ZipSource> {
  const counts = emptyCounts();
  const head = await snapshot.repo.head();
  const wanted = new Set(snapshot.parts);
  const files = (await snapshot.repo.listFilesAt(head)).filter((path) => {
    const part = partOfContentPath(path);
    return part !== undefined && wanted.has(part);
  });
  for (const path of files) countContentFile(path, counts);
  const leftOut: BackupManifest['left_out'] = [];
  if (files.length > 0) yield { name: CONTENT_FILE, open: async () => contentLines(snapshot.repo, head, files, leftOut) };
  let history: Promise<{ commits: number }> | undefined;
  if (wanted.has('entries')) {
    yield {
      name: HISTORY_FILE,
      open: async () => {
        const exported = snapshot.repo.exportObjects(head);
        history = exported.stats;
        return exported.stream;
      },
    };
  }
  if (wanted.has('media') && snapshot.media) yield* mediaSources(snapshot.media, files, counts);
  yield* stateSources(snapshot, counts);
  const manifest: BackupManifest = {
    format: FORMAT,
    format_version: FORMAT_VERSION,
    name: snapshot.name,
    created_at: snapshot.createdAt,
    version: snapshot.version,
    parts: [...snapshot.parts],
    head: wanted.has('entries') ? head : null,
    include_secrets: snapshot.includeSecrets,
    counts,
    left_out: leftOut,
  };
  yield {
    name: MANIFEST_FILE,
    open: async () => {
      if (history) counts.revisions = (await history).commits;
      return `${JSON.stringify(manifest, null, 2)}\n`;
    },
  };
}

// One JSON line per file; produced lazily so only one file is in memory at a
// time. A file whose line would be longer than a reader accepts is left out
// and listed, so the archive stays one this server can restore.
function contentLines(repo: BackupSnapshot['repo'], head: string, files: string[], leftOut: NonNullable<BackupManifest['left_out']>): Readable {
  return Readable.from(
    (async function* () {
      for (const path of files) {
        const text = await repo.readAt(head, path);
        if (text === undefined) continue;
        const line = JSON.stringify({ path, text });
        if (line.length > MAX_CONTENT_LINE) leftOut.push({ path, reason: `It is larger than a backup holds (${MAX_CONTENT_LINE} characters).` });
        else yield `${line}\n`;
      }
    })(),
  );
}

async function* mediaSources(media: MediaFiles, files: string[], counts: BackupCounts): AsyncGenerator<ZipSource> {
  for (const path of files) {
    const match = MEDIA_RECORD.exec(path);
    if (!match || match[2] === CATEGORIES_RECORD) continue;
    const [, workspace, filename] = match;
    yield {
      name: mediaArchiveName(workspace, filename),
      open: async () => {
        // A binary deleted since the snapshot is left out; its metadata still restores.
        const opened = await media.open('file', workspace, filename).catch(() => undefined);
        if (opened === undefined) return undefined;
        counts.media += 1;
        return opened.stream();
      },
    };
  }
}

async function* stateSources(snapshot: BackupSnapshot, counts: BackupCounts): AsyncGenerator<ZipSource> {
  const { state, includeSecrets } = snapshot;
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  if (snapshot.parts.includes('webhooks')) {
    const hooks = state.webhooks().map((hook) => (includeSecrets ? hook : { ...hook, secret: null }));
    counts.webhooks = hooks.length;
    yield { name: STATE_FILES.webhooks, open: async () => json(hooks) };
  }
  if (snapshot.parts.includes('users')) {
    const users = state.users().map((user) => (includeSecrets ? user : { ...user, password_hash: '' }));
    const tokens = state.tokens().map((token) => (includeSecrets ? token : { ...token, hash: '' }));
    counts.users = users.length;
    counts.roles = state.roles().length;
    counts.tokens = tokens.length;
    yield { name: STATE_FILES.users, open: async () => json(users) };
    yield { name: STATE_FILES.roles, open: async () => json(state.roles()) };
    yield { name: STATE_FILES.tokens, open: async () => json(tokens) };
  }
}
