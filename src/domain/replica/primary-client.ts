// A replica's line to its primary's replication endpoint: the long poll,
// the replicated state and media originals, with the replica's token
// (CMS_GIT_UPSTREAM_TOKEN, which needs `replication.read` and `git.pull`).
// Any failure to get an answer is primary_unavailable; the token never
// appears in an error.
import { Readable } from 'node:stream';
import { AppError } from '../../errors/app-error.ts';
import { parseReplicatedState, type ReplicatedState } from './replicated-state.ts';
import type { ReplicationPoint } from './replication-source.ts';

/** Where the primary is and how to authenticate to it. */
export interface PrimaryClientOptions {
  /** The primary's base URL (CMS_PRIMARY_URL), without a trailing slash. */
  baseUrl: string;
  token: string | undefined;
  fetch?: typeof fetch;
}

/** The replication prefix on the primary. */
export const REPLICATION_PATH = '/replication/v1';
const REQUEST_TIMEOUT_MS = 15_000;

/** Calls the primary's replication endpoint. */
export class PrimaryClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: PrimaryClientOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  /** Waits up to `waitMs` for the primary to move away from `since`; answers where it is. Throws primary_unavailable. */
  async changes(since: Partial<ReplicationPoint>, waitMs: number, signal: AbortSignal): Promise<ReplicationPoint> {
    const query = new URLSearchParams({ wait: String(waitMs), ...(since.head ? { head: since.head } : {}), ...(since.state ? { state: since.state } : {}) });
    const body = await this.json(`/changes?${query}`, AbortSignal.any([signal, AbortSignal.timeout(waitMs + REQUEST_TIMEOUT_MS)]));
    const { head, state } = (body ?? {}) as Record<string, unknown>;
    if (typeof head !== 'string' || typeof state !== 'string') throw unavailable('The primary answered the replication poll with something else.');
    return { head, state };
  }

  /** The primary's replicated state. Throws primary_unavailable. */
  async state(): Promise<ReplicatedState> {
    const snapshot = parseReplicatedState(await this.json('/state', AbortSignal.timeout(REQUEST_TIMEOUT_MS)));
    if (!snapshot) throw unavailable('The primary answered the replicated state with something else.');
    return snapshot;
  }

  /** A media original's bytes, or undefined when the primary has no such file. Throws primary_unavailable. */
  async media(workspace: string, filename: string): Promise<Readable | undefined> {
    const response = await this.send(`/media/${encodeURIComponent(workspace)}/${encodeURIComponent(filename)}`, AbortSignal.timeout(REQUEST_TIMEOUT_MS));
    if (response.status === 404) return undefined;
    if (!response.ok || !response.body) throw unavailable(`The primary answered ${response.status} for a media file.`);
    return Readable.from(response.body);
  }

  private async json(path: string, signal: AbortSignal): Promise<unknown> {
    const response = await this.send(path, signal);
    if (!response.ok) throw unavailable(`The primary answered ${response.status} to ${REPLICATION_PATH}${path.split('?')[0]}${response.status === 401 || response.status === 403 ? ' (the replica\'s token needs replication.read and git.pull)' : ''}.`);
    const body = (await response.json()) as { data?: unknown };
    return body.data;
  }

  private async send(path: string, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    try {
      return await this.fetch(`${this.options.baseUrl}${REPLICATION_PATH}${path}`, { headers, signal });
    } catch (error) {
      throw unavailable('The primary cannot be reached.', error);
    }
  }
}

function unavailable(message: string, cause?: unknown): AppError {
  return new AppError('primary_unavailable', message, { cause });
}
