// What feeds the activity log, each as a small adapter that services.ts (or
// the HTTP layer, for denied tokens) plugs into its source: domain events,
// sign-in attempts, files skipped by the content index, denied token use.
import type { LoginAttempt } from '../auth/login-service.ts';
import type { ProblemReporter } from '../content/content-index.ts';
import { formatProblem } from '../content/file-rules.ts';
import type { DomainEvent, EventBus, EventType, WorkspaceChange } from '../model/events.ts';
import type { ActivityInput, ActivityLog } from './activity-log.ts';
import { counted } from '../../lib/counted.ts';

/** The activity type of a file that could not be read (entry, type or media metadata) and was skipped. */
export const SKIPPED_FILE_ACTIVITY = 'content.file_skipped';

const VERBS: Record<EventType, string> = {
  'content.created': 'Created',
  'content.updated': 'Updated',
  'content.published': 'Published',
  'content.unpublished': 'Unpublished',
  'content.deleted': 'Moved to the trash:',
  'content.restored': 'Restored from the trash:',
  'content.purged': 'Deleted for good:',
  'schema.created': 'Created the content type',
  'schema.updated': 'Updated the content type',
  'schema.deleted': 'Deleted the content type',
  'media.uploaded': 'Uploaded',
  'media.updated': 'Updated the file',
  'media.deleted': 'Deleted the file',
  'git.conflict': 'Kept local commits that conflict with the upstream on the branch',
};

// Usernames and paths come from clients; a record keeps a bounded piece.
const MAX_TEXT = 200;
// The entries a record of many names (a workspace archived or removed) lists in its details.
const MAX_LISTED = 50;

type Publication = 'content.published' | 'content.unpublished';

// A write that also puts an entry on the site or takes it off tells two
// events (webhooks subscribe to either), but it is one thing that happened:
// the log says it in one line. These are the pairs a write tells.
const WITH_PUBLICATION: Partial<Record<EventType, Partial<Record<Publication, string>>>> = {
  'content.created': { 'content.published': 'Created and published' },
  'content.updated': { 'content.published': 'Updated and published', 'content.unpublished': 'Updated and unpublished' },
  'content.deleted': { 'content.unpublished': 'Unpublished and moved to the trash:' },
  'content.restored': { 'content.published': 'Restored from the trash and published:' },
};

/**
 * Records every domain event (every write, and what outside commits
 * changed), one line per entry and change, one per workspace archived,
 * brought back or removed, none for a backup restore's (which records its
 * own line).
 */
export function recordDomainEvents(events: EventBus, log: ActivityLog): void {
  events.onGroup((group, workspaces) => {
    for (const record of describeEvents(group, workspaces)) void log.record(record);
  });
}

/** A workspace change and the events it told (DomainEvent.withWorkspace). */
interface WorkspaceLine {
  change: WorkspaceChange;
  events: DomainEvent[];
}

/**
 * The activity records of the events one change told together: one per
 * event, except that an entry's content.published or content.unpublished
 * joins the write's own event of the same entry (WITH_PUBLICATION), whose
 * record then lists both in `details.events`; the events of a workspace
 * change are one record in the place of the first (describeWorkspaceChange),
 * and a change of `workspaces` that told none is one at the end. A backup
 * restore's events (`fromBackup`) have none.
 */
export function describeEvents(group: readonly DomainEvent[], workspaces: readonly WorkspaceChange[] = []): ActivityInput[] {
  const told = group.filter((event) => event.fromBackup === undefined);
  const writes = new Map<string, DomainEvent>();
  for (const event of told) if (WITH_PUBLICATION[event.type] && !event.withWorkspace) writes.set(entryKey(event), event);
  const joined = new Map<DomainEvent, Publication>();
  const records: (DomainEvent | WorkspaceLine)[] = [];
  const lines = new Map<string, WorkspaceLine>();
  for (const event of told) {
    const publication = isPublication(event.type) ? event.type : undefined;
    const write = publication && writes.get(entryKey(event));
    if (event.withWorkspace) lineOf(lines, records, { workspace: event.workspace, change: event.withWorkspace, actor: event.actor }).events.push(event);
    else if (publication && write && !joined.has(write) && WITH_PUBLICATION[write.type]?.[publication]) joined.set(write, publication);
    else records.push(event);
  }
  for (const change of workspaces) lineOf(lines, records, change);
  return records.map((record) => ('events' in record ? describeWorkspaceChange(record.change, record.events) : describeEvent(record, joined.get(record))));
}

// The line of one workspace change, kept in `records` at the place it was first met.
function lineOf(lines: Map<string, WorkspaceLine>, records: (DomainEvent | WorkspaceLine)[], change: WorkspaceChange): WorkspaceLine {
  const key = `${change.workspace}\u0000${change.change}`;
  const known = lines.get(key);
  if (known) return known;
  const line: WorkspaceLine = { change, events: [] };
  lines.set(key, line);
  records.push(line);
  return line;
}

/**
 * The one activity record of a workspace change and its events: archived
 * (content.unpublished: the entries that left the site with it), brought
 * back (content.published: those back on the site) or removed by a commit
 * (content.deleted: its types and entries deleted, public ones unpublished).
 * Its details name the workspace, the change, the `count` of entries, and
 * the first MAX_LISTED entries (`type/slug`) in `entries`; a removal also the
 * number of `types` and, in `events`, the event types told.
 */
export function describeWorkspaceChange(change: WorkspaceChange, events: readonly DomainEvent[]): ActivityInput {
  const { workspace } = change;
  const entryEvents = change.change === 'removed' ? events.filter((event) => event.type === 'content.deleted') : events;
  const count = entryEvents.length;
  const entries = entryEvents.slice(0, MAX_LISTED).map((event) => `${event.data.type}/${event.data.slug ?? event.data.id}`);
  const details: Record<string, unknown> = { workspace, change: change.change, count, entries };
  const base = { user_id: change.actor ?? null, workspace, details };
  if (change.change === 'archived') return { ...base, type: 'content.unpublished', message: `Archived the workspace "${workspace}": ${counted(count, 'entry', 'entries')} left the site.` };
  if (change.change === 'restored') return { ...base, type: 'content.published', message: `Brought back the workspace "${workspace}": ${counted(count, 'entry', 'entries')} back on the site.` };
  const types = events.filter((event) => event.type === 'schema.deleted').length;
  Object.assign(details, { types, events: [...new Set(events.map((event) => event.type))] });
  const message = `The workspace "${workspace}" was removed by a commit: ${counted(types, 'type', 'types')} and ${counted(count, 'entry', 'entries')} went.`;
  return { ...base, type: 'content.deleted', message };
}

/** The activity record of a domain event: `content.updated` → "Updated posts/hello-world."; with `publication`, the event it joins (describeEvents). */
export function describeEvent(event: DomainEvent, publication?: Publication): ActivityInput {
  if (event.type === 'git.conflict') {
    const message = `${VERBS[event.type]} ${event.data.branch}; the server now holds the upstream's content.`;
    return { level: 'warning', type: event.type, message, user_id: null, workspace: null, details: { ...event.data } };
  }
  const { type: typeName, slug, id, filename, previous_slug: previousSlug } = event.data;
  const subject = event.type.startsWith('content.') ? `${typeName}/${slug ?? id}` : event.type.startsWith('schema.') ? `"${typeName}"` : `"${filename}"`;
  const verb = (publication && WITH_PUBLICATION[event.type]?.[publication]) ?? VERBS[event.type];
  const message = event.type === 'content.updated' && previousSlug ? `Renamed ${typeName}/${previousSlug} to ${slug}${publication ? ` and ${VERBS[publication].toLowerCase()} it` : ''}.` : `${verb} ${subject}.`;
  const details = publication ? { ...event.data, events: [event.type, publication] } : { ...event.data };
  return { type: event.type, message, user_id: event.actor ?? null, workspace: event.workspace, details };
}

function isPublication(type: EventType): type is Publication {
  return type === 'content.published' || type === 'content.unpublished';
}

function entryKey(event: DomainEvent): string {
  return `${event.workspace}\u0000${event.data.type}\u0000${event.data.id}`;
}

/** A LoginService `onAttempt` hook that records sign-ins (info) and failed or throttled attempts (warning). */
export function recordLoginAttempts(log: ActivityLog): (attempt: LoginAttempt) => void {
  return (attempt) => {
    const username = attempt.username.slice(0, MAX_TEXT);
    const details = { username, address: attempt.address };
    if (attempt.outcome === 'success') {
      void log.record({ type: 'auth.login', message: `"${username}" signed in.`, user_id: attempt.userId ?? null, details });
    } else {
      const why = attempt.outcome === 'rate_limited' ? 'too many failed attempts' : 'wrong username or password';
      void log.record({ level: 'warning', type: 'auth.login_failed', message: `A sign-in as "${username}" was refused: ${why}.`, details: { ...details, reason: attempt.outcome } });
    }
  };
}

/**
 * Wraps the content index's problem reporter so that every file it skips
 * (broken front matter, invalid values, duplicate ids — usually from commits
 * made outside the server) is also recorded, once per path and reason.
 */
export function recordSkippedFiles(log: ActivityLog, next: ProblemReporter): ProblemReporter {
  const seen = new Set<string>();
  return (problem) => {
    next(problem);
    const key = `${problem.workspace}\u0000${formatProblem(problem)}`;
    if (seen.has(key)) return;
    seen.add(key);
    const reason = problem.field === undefined ? problem.message : `${problem.field}: ${problem.message}`;
    void log.record({ level: 'error', type: SKIPPED_FILE_ACTIVITY, message: `Skipped ${formatProblem(problem)}`, workspace: problem.workspace, details: { workspace: problem.workspace, path: problem.path, reason } });
  };
}

/** A request that used an API token and was refused. */
export interface DeniedTokenUse {
  /** The token id when the token was recognised, or the id part of a malformed or unknown one. */
  tokenId: string | null;
  method: string;
  path: string;
  /** `unauthorized` (token unknown, revoked, expired, malformed) or `forbidden` (grant missing). */
  code: string;
  workspace?: string;
}

/** Records a refused token request (warning). */
export function recordDeniedToken(log: ActivityLog, denied: DeniedTokenUse): void {
  const who = denied.tokenId ? `token ${denied.tokenId}` : 'an unreadable token';
  const why = denied.code === 'forbidden' ? 'it lacks the permission' : 'it is not valid';
  void log.record({
    level: 'warning',
    type: 'token.denied',
    message: `A request with ${who} was refused because ${why}: ${denied.method} ${denied.path.slice(0, MAX_TEXT)}.`,
    user_id: denied.tokenId && denied.code === 'forbidden' ? `token:${denied.tokenId}` : null,
    workspace: denied.workspace ?? null,
    details: { token_id: denied.tokenId, method: denied.method, path: denied.path.slice(0, MAX_TEXT), code: denied.code },
  });
}
