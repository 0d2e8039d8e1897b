// What feeds the activity log, each as a small adapter that services.ts (or
// the HTTP layer, for denied tokens) plugs into its source: domain events,
// sign-in attempts, files skipped by the content index, denied token use.
import type { LoginAttempt } from '../auth/login-service.ts';
import type { ProblemReporter } from '../content/content-index.ts';
import { formatProblem } from '../content/file-rules.ts';
import type { DomainEvent, EventBus, EventType } from '../model/events.ts';
import type { ActivityInput, ActivityLog } from './activity-log.ts';

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
// The entries a record of many names (a workspace archived) lists in its details.
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

/** Records every domain event (every write, and what outside commits changed), one line per entry and change, one per workspace archived or brought back. */
export function recordDomainEvents(events: EventBus, log: ActivityLog): void {
  events.onGroup((group) => {
    for (const record of describeEvents(group)) void log.record(record);
  });
}

/**
 * The activity records of the events one change told together: one per
 * event, except that an entry's content.published or content.unpublished
 * joins the write's own event of the same entry (WITH_PUBLICATION), whose
 * record then lists both in `details.events`.
 */
export function describeEvents(group: readonly DomainEvent[]): ActivityInput[] {
  const writes = new Map<string, DomainEvent>();
  for (const event of group) if (WITH_PUBLICATION[event.type]) writes.set(entryKey(event), event);
  const joined = new Map<DomainEvent, Publication>();
  const records: (DomainEvent | DomainEvent[])[] = [];
  const moves = new Map<string, DomainEvent[]>();
  for (const event of group) {
    const publication = isPublication(event.type) ? event.type : undefined;
    const write = publication && writes.get(entryKey(event));
    if (publication && write && !joined.has(write) && WITH_PUBLICATION[write.type]?.[publication]) joined.set(write, publication);
    else if (event.withWorkspace) addToMove(moves, records, event);
    else records.push(event);
  }
  return records.map((record) => (Array.isArray(record) ? describeWorkspaceMove(record) : describeEvent(record, joined.get(record))));
}

// The entries one workspace move took off the site or brought back, kept in
// `records` at the place of the first, so the move is one line.
function addToMove(moves: Map<string, DomainEvent[]>, records: (DomainEvent | DomainEvent[])[], event: DomainEvent): void {
  const key = `${event.workspace}\u0000${event.withWorkspace}\u0000${event.type}`;
  const move = moves.get(key);
  if (move) {
    move.push(event);
    return;
  }
  const started = [event];
  moves.set(key, started);
  records.push(started);
}

/**
 * The one activity record of the publication events of a workspace's
 * entries that left the site with it (archived) or came back with it
 * (brought back): the workspace, how many, and the first MAX_LISTED entries
 * (`type/slug`) in `details.entries`.
 */
export function describeWorkspaceMove(events: readonly DomainEvent[]): ActivityInput {
  const [first] = events;
  const count = events.length;
  const counted = `${count} ${count === 1 ? 'entry' : 'entries'}`;
  const message = first.withWorkspace === 'archived'
    ? `Archived the workspace "${first.workspace}": ${counted} left the site.`
    : `Brought back the workspace "${first.workspace}": ${counted} back on the site.`;
  const entries = events.slice(0, MAX_LISTED).map((event) => `${event.data.type}/${event.data.slug ?? event.data.id}`);
  const details = { workspace: first.workspace, change: first.withWorkspace, count, entries };
  return { type: first.type, message, user_id: first.actor ?? null, workspace: first.workspace, details };
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
