// The activity log: what happened on this server, for administrators. Every
// write, sign-in, denied token, unreadable file from an outside commit and
// failed webhook delivery becomes one record, appended as a JSON line to the
// state folder's `activity.jsonl` (rotated by size). Who feeds it is wired in
// activity-feeds.ts and services.ts; nothing here knows HTTP.
import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors/app-error.ts';
import type { StateStore } from '../../storage/state-store.ts';
import { authorize } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';

/** How serious a record is; `GET /activity?level=` filters by it. */
export const ACTIVITY_LEVELS = ['info', 'warning', 'error'] as const;
/** One of ACTIVITY_LEVELS. */
export type ActivityLevel = (typeof ACTIVITY_LEVELS)[number];

/** One line of the activity log, as the admin API returns it. */
export interface ActivityRecord {
  id: string;
  /** ISO time. */
  time: string;
  level: ActivityLevel;
  /** `content.updated`, `auth.login`, `auth.login_failed`, `token.denied`, `content.file_skipped`, `webhook.failed`, … */
  type: string;
  message: string;
  /** The acting user id (or `token:{id}`), null when nobody in particular acted. */
  user_id: string | null;
  workspace: string | null;
  details: Record<string, unknown>;
}

/** What a caller records; id and time are added here. */
export interface ActivityInput {
  level?: ActivityLevel;
  type: string;
  message: string;
  user_id?: string | null;
  workspace?: string | null;
  details?: Record<string, unknown>;
}

/** Filters and paging of GET /admin/api/activity. `type` matches exactly or by area (`content` matches `content.updated`), the record's type or one in `details.events`. */
export interface ActivityQuery {
  level?: ActivityLevel;
  type?: string;
  workspace?: string;
  /** Who acted: a user id or `token:{id}`. */
  actor?: string;
  /** The content type an entry or schema record is about (`details.type`). */
  contentType?: string;
  /** ISO times: records at or after `from` and before `until`. */
  from?: string;
  until?: string;
  limit?: number;
  offset?: number;
}

/** A page of records, newest first. */
export interface ActivityPage {
  records: ActivityRecord[];
  total: number;
  limit: number;
  offset: number;
}

/** The part of the state store the log uses. */
export type LineStore = Pick<StateStore, 'appendLine' | 'readLines'>;

/** Default and largest page size of activity lists. */
export const ACTIVITY_PAGE = { default: 50, max: 500 } as const;

const LOG_NAME = 'activity';

/** The append-only activity log. */
export class ActivityLog {
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: LineStore,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Appends a record; resolves when it is written. Never rejects: a failed
   * write is reported through `onError`, because logging must not fail the
   * action it describes. Webhook delivery reports failures here with type `webhook.failed`.
   */
  record(input: ActivityInput): Promise<void> {
    const record: ActivityRecord = {
      id: randomUUID(),
      time: new Date(this.now()).toISOString(),
      level: input.level ?? 'info',
      type: input.type,
      message: input.message,
      user_id: input.user_id ?? null,
      workspace: input.workspace ?? null,
      details: input.details ?? {},
    };
    const written = this.store.appendLine(LOG_NAME, JSON.stringify(record)).catch(this.onError);
    this.pending = this.pending.then(() => written);
    return written;
  }

  /** Resolves when every record asked for so far is written (used at shutdown). */
  flush(): Promise<void> {
    return this.pending;
  }

  /**
   * Records matching the query, newest first. Needs activity.read on
   * `activity:*` (a global area). Throws unauthorized, forbidden, invalid_request (bad paging).
   */
  async list(principal: Principal, query: ActivityQuery = {}): Promise<ActivityPage> {
    authorize(principal, { action: 'activity.read', resource: 'activity:*', workspace: ALL_WORKSPACES });
    const limit = query.limit ?? ACTIVITY_PAGE.default;
    const offset = query.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > ACTIVITY_PAGE.max) throw new AppError('invalid_request', `The limit must be between 1 and ${ACTIVITY_PAGE.max}.`);
    if (!Number.isInteger(offset) || offset < 0) throw new AppError('invalid_request', 'The offset must be 0 or more.');
    const matching = (await this.readAll()).filter((record) => matches(record, query));
    return { records: matching.slice(offset, offset + limit), total: matching.length, limit, offset };
  }

  /** The newest `limit` records, unchecked: for callers that have checked activity.read themselves (the dashboard). */
  async recent(limit: number): Promise<ActivityRecord[]> {
    return (await this.readAll()).slice(0, limit);
  }

  private async readAll(): Promise<ActivityRecord[]> {
    // Records asked for before this read are in it: their appends may still be queued.
    await this.pending;
    const records: ActivityRecord[] = [];
    for (const line of await this.store.readLines(LOG_NAME)) {
      const record = parseRecord(line);
      if (record) records.push(record);
    }
    return records.reverse();
  }
}

function matches(record: ActivityRecord, query: ActivityQuery): boolean {
  if (query.level !== undefined && record.level !== query.level) return false;
  if (query.workspace !== undefined && record.workspace !== query.workspace) return false;
  if (query.type !== undefined && !typesOf(record).some((type) => type === query.type || type.startsWith(`${query.type}.`))) return false;
  if (query.actor !== undefined && record.user_id !== query.actor) return false;
  if (query.contentType !== undefined && record.details.type !== query.contentType) return false;
  if (query.from !== undefined && record.time < query.from) return false;
  if (query.until !== undefined && record.time >= query.until) return false;
  return true;
}

// A record of two events told together (activity-feeds.ts: a delete that unpublished) lists both in `details.events`; a filter by either finds it.
function typesOf(record: ActivityRecord): string[] {
  const { events } = record.details;
  return Array.isArray(events) ? [record.type, ...events.filter((type): type is string => typeof type === 'string')] : [record.type];
}

// A line cut short by a crash, or edited by hand, is skipped rather than failing the list.
function parseRecord(line: string): ActivityRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Partial<ActivityRecord>;
    if (typeof record.time !== 'string' || typeof record.type !== 'string' || typeof record.message !== 'string') return undefined;
    if (!(ACTIVITY_LEVELS as readonly string[]).includes(String(record.level))) return undefined;
    return { id: String(record.id ?? ''), time: record.time, level: record.level as ActivityLevel, type: record.type, message: record.message, user_id: record.user_id ?? null, workspace: record.workspace ?? null, details: record.details ?? {} };
  } catch {
    return undefined;
  }
}
