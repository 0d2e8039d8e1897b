// Updates (SPEC admin table: /update…): check the feed for a newer release,
// download it into a staging folder and verify its SHA-256, and unpack it
// beside the running release. The running process is never replaced: an
// installed release takes effect when the operator switches to it and
// restarts (docs/operations.md). The feed format is update-feed.ts.
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, isAppError, validationFailed } from '../../errors/app-error.ts';
import type { FileFolder } from '../../storage/file-folder.ts';
import type { StateStore } from '../../storage/state-store.ts';
import { authorize } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import { CheckedZip } from '../backups/zip-reader.ts';
import { compareVersions, readFeed, type FeedRelease } from './update-feed.ts';
import { sha256Of } from '../../lib/sha256.ts';

/** Where the update process stands. */
export type UpdateState = 'not_configured' | 'unknown' | 'up_to_date' | 'available' | 'downloaded' | 'installed';

/** What is remembered between requests (state document `update`). */
interface UpdateRecord {
  latest: (FeedRelease & { checked_at: string }) | null;
  staged: { version: string; file: string; sha256: string; size: number; downloaded_at: string } | null;
  installed: { version: string; path: string; installed_at: string } | null;
}

/** GET /admin/api/update. */
export interface UpdateStatus {
  configured: boolean;
  state: UpdateState;
  current_version: string;
  latest_version: string | null;
  latest: { version: string; notes: string; url: string; sha256: string; checked_at: string } | null;
  staged: { version: string; size: number; sha256: string; downloaded_at: string } | null;
  installed: { version: string; path: string; installed_at: string } | null;
  restart_required: boolean;
  message: string;
}

/** What UpdateService needs; services.ts builds it from config. */
export interface UpdateServiceOptions {
  feedUrl: string | undefined;
  currentVersion: string;
  state: Pick<StateStore, 'read' | 'write'>;
  /** Downloaded archives. */
  staging: FileFolder;
  /** Opens (creating on first use) the folder releases are unpacked into, one folder per version. */
  releases: () => Promise<FileFolder>;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

const DOCUMENT = 'update';
const MAX_RELEASE_BYTES = 1024 * 1024 * 1024;
// A release with its dependencies can hold many small files.
const RELEASE_LIMITS = { maxFiles: 200_000, maxBytes: 4 * 1024 * 1024 * 1024 };
const EMPTY: UpdateRecord = { latest: null, staged: null, installed: null };

/** The update checks; created once by services.ts. */
export class UpdateService {
  private busy = false;

  constructor(private readonly options: UpdateServiceOptions) {}

  /** The update status. Any signed-in user may read it; throws nothing of its own. */
  async status(): Promise<UpdateStatus> {
    return this.describe(await this.load());
  }

  /**
   * Reads the feed and remembers the release it announces. Without a feed
   * configured, answers that updates are not configured. Throws forbidden
   * without `updates.check` and validation_failed (field `feed`) for a feed that fails.
   */
  async check(principal: Principal): Promise<UpdateStatus> {
    this.authorize(principal, 'updates.check');
    const feedUrl = this.options.feedUrl;
    if (feedUrl === undefined) return this.describe(await this.load());
    const release = await readFeed(feedUrl, { fetch: this.options.fetch ?? fetch, timeoutMs: this.options.timeoutMs ?? 10_000 });
    const record = { ...(await this.load()), latest: { ...release, checked_at: this.nowIso() } };
    await this.options.state.write(DOCUMENT, record);
    return this.describe(record);
  }

  /**
   * Downloads the newer release the last check found into the staging
   * folder and verifies its SHA-256. Throws forbidden, conflict (not
   * configured, nothing newer, busy), validation_failed (field `sha256` on a
   * mismatch, `url` when the download fails); a failed download leaves nothing staged.
   */
  async download(principal: Principal): Promise<UpdateStatus> {
    this.authorize(principal, 'updates.download');
    return this.exclusive(async () => {
      const record = await this.load();
      const latest = this.newerRelease(record);
      const file = `release-${latest.version}.zip`;
      const draft = this.options.staging.createDraft();
      let hash: string;
      let size: number;
      try {
        ({ hash, size } = await this.fetchInto(latest.url, draft.stream));
        if (hash !== latest.sha256) throw validationFailed({ sha256: `The download's SHA-256 is ${hash}, not ${latest.sha256} as the feed says.` }, 'The downloaded release does not match its checksum.');
        await this.options.staging.remove(file);
        await draft.publish(file);
      } catch (error) {
        await draft.discard();
        throw error;
      }
      if (record.staged && record.staged.file !== file) await this.options.staging.remove(record.staged.file);
      const next: UpdateRecord = { ...record, staged: { version: latest.version, file, sha256: hash, size, downloaded_at: this.nowIso() } };
      await this.options.state.write(DOCUMENT, next);
      return this.describe(next);
    });
  }

  /**
   * Unpacks the staged release into `{releases}/{version}` after checking its
   * SHA-256 again and treating the archive as hostile; reports that a restart
   * is required. Throws forbidden, conflict (nothing staged, already
   * installed, busy), validation_failed (checksum, unsafe archive).
   */
  async install(principal: Principal): Promise<UpdateStatus> {
    this.authorize(principal, 'updates.install');
    return this.exclusive(async () => {
      const record = await this.load();
      const staged = record.staged;
      if (staged === null || (await this.options.staging.stat(staged.file)) === undefined) throw new AppError('conflict', 'No release is downloaded yet: POST /admin/api/update/download first.');
      const releases = await this.options.releases();
      if (await releases.hasEntry(staged.version)) throw new AppError('conflict', `Release ${staged.version} is already unpacked in the releases folder.`);
      const stream = await this.options.staging.openRead(staged.file);
      const hash = stream === undefined ? '' : await sha256Of(stream);
      if (hash !== staged.sha256) throw validationFailed({ sha256: 'The staged release changed since it was downloaded.' }, 'The staged release does not match its checksum.');
      await this.unpack(this.options.staging.pathOf(staged.file), releases, staged.version);
      const next: UpdateRecord = { ...record, installed: { version: staged.version, path: releases.pathOf(staged.version), installed_at: this.nowIso() } };
      await this.options.state.write(DOCUMENT, next);
      return this.describe(next);
    });
  }

  private async unpack(file: string, releases: FileFolder, version: string): Promise<void> {
    let zip: CheckedZip;
    try {
      zip = await CheckedZip.open(file, RELEASE_LIMITS, () => true);
    } catch (error) {
      throw asReleaseProblem(error);
    }
    const draft = await releases.createFolderDraft();
    try {
      for (const { name } of zip.files()) await draft.writeFile(name, await zip.stream(name));
      await draft.publish(version);
    } catch (error) {
      await draft.discard();
      throw asReleaseProblem(error);
    } finally {
      zip.close();
    }
  }

  // Streams the URL into `output`, hashing on the way and stopping past the size limit.
  private async fetchInto(url: string, output: NodeJS.WritableStream): Promise<{ hash: string; size: number }> {
    const failed = (reason: string) => validationFailed({ url: reason }, 'The release could not be downloaded.');
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, { redirect: 'follow', signal: AbortSignal.timeout(this.options.timeoutMs ?? 10 * 60_000) });
    } catch {
      throw failed('The release URL could not be reached.');
    }
    if (response.status !== 200 || response.body === null) throw failed(`The release URL answered ${response.status}.`);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > MAX_RELEASE_BYTES) return done(failed(`The release is larger than ${MAX_RELEASE_BYTES} bytes.`));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.from(chunksOf(response.body)), meter, output);
    } catch (error) {
      if (isAppError(error)) throw error;
      throw failed('The download broke off.');
    }
    return { hash: hash.digest('hex'), size };
  }

  private newerRelease(record: UpdateRecord): FeedRelease {
    if (this.options.feedUrl === undefined) throw new AppError('conflict', 'Updates are not configured: set CMS_UPDATE_FEED to the URL of an update feed.');
    if (record.latest === null) throw new AppError('conflict', 'No update is known yet: POST /admin/api/update/check first.');
    if (compareVersions(record.latest.version, this.options.currentVersion) <= 0) throw new AppError('conflict', `Version ${this.options.currentVersion} is up to date.`);
    return record.latest;
  }

  private describe(record: UpdateRecord): UpdateStatus {
    const current = this.options.currentVersion;
    const configured = this.options.feedUrl !== undefined;
    const latest = record.latest;
    const newer = latest !== null && compareVersions(latest.version, current) > 0;
    const staged = record.staged !== null && newer && record.staged.version === latest.version ? record.staged : null;
    const installed = record.installed !== null && compareVersions(record.installed.version, current) > 0 ? record.installed : null;
    const state: UpdateState = !configured ? 'not_configured' : installed ? 'installed' : staged ? 'downloaded' : newer ? 'available' : latest ? 'up_to_date' : 'unknown';
    return {
      configured,
      state,
      current_version: current,
      latest_version: latest?.version ?? null,
      latest: latest && { version: latest.version, notes: latest.notes, url: latest.url, sha256: latest.sha256, checked_at: latest.checked_at },
      staged: staged && { version: staged.version, size: staged.size, sha256: staged.sha256, downloaded_at: staged.downloaded_at },
      installed,
      restart_required: installed !== null,
      message: MESSAGES[state](latest?.version ?? '', installed?.path ?? ''),
    };
  }

  private async load(): Promise<UpdateRecord> {
    return { ...EMPTY, ...(await this.options.state.read<Partial<UpdateRecord>>(DOCUMENT, {})) };
  }

  private async exclusive<T>(run: () => Promise<T>): Promise<T> {
    if (this.busy) throw new AppError('conflict', 'An update step is running; try again when it is done.');
    this.busy = true;
    try {
      return await run();
    } finally {
      this.busy = false;
    }
  }

  private authorize(principal: Principal, action: string): void {
    authorize(principal, { action, resource: 'updates:*', workspace: ALL_WORKSPACES });
  }

  private nowIso(): string {
    return new Date((this.options.now ?? Date.now)()).toISOString();
  }
}

const MESSAGES: Record<UpdateState, (version: string, path: string) => string> = {
  not_configured: () => 'Updates are not configured: set CMS_UPDATE_FEED to the URL of an update feed.',
  unknown: () => 'No update check has run yet.',
  up_to_date: () => 'This is the newest version.',
  available: (version) => `Version ${version} is available.`,
  downloaded: (version) => `Version ${version} is downloaded and verified; install it next.`,
  installed: (version, path) => `Version ${version} is unpacked in ${path}; switch to it and restart the server to finish.`,
};

// A fetch body as an async iterable; cancelled when the reader stops early.
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

// Archive problems are reported against the release, not a backup.
function asReleaseProblem(error: unknown): unknown {
  if (isAppError(error) && error.code === 'validation_failed') {
    return validationFailed({ release: Object.values(error.fields ?? {})[0] ?? error.message }, 'The release archive cannot be installed.');
  }
  return error;
}
