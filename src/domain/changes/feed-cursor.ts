// The opaque cursor of the changes feed: it pins the commit and the moment the
// first page was computed at, so later pages are cut from the same answer
// while new commits land, and names the last item handed out.
import { AppError } from '../../errors/app-error.ts';

/** What a cursor carries: the request's since, the pinned head and time, and the key of the last item given. */
export interface FeedCursor {
  since: string | null;
  head: string;
  now: number;
  after: string;
}

const OID = /^[0-9a-f]{40}$/;

/** The cursor as a URL-safe string. */
export function encodeCursor(cursor: FeedCursor): string {
  return Buffer.from(JSON.stringify([cursor.since, cursor.head, cursor.now, cursor.after]), 'utf8').toString('base64url');
}

/** Reads a cursor given back by a client. Throws invalid_request for anything encodeCursor() did not write. */
export function decodeCursor(text: string): FeedCursor {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parts) || parts.length !== 4) throw invalidCursor();
  const [since, head, now, after] = parts as unknown[];
  const isSince = since === null || (typeof since === 'string' && OID.test(since));
  if (!isSince || typeof head !== 'string' || !OID.test(head) || typeof now !== 'number' || !Number.isFinite(now) || typeof after !== 'string') throw invalidCursor();
  return { since: since as string | null, head, now, after };
}

/** The invalid_request for a cursor that is not one of this feed's, or one given with another `since`. */
export function invalidCursor(): AppError {
  const message = 'The query parameter "cursor" is not a cursor of this query; start again without it.';
  return new AppError('invalid_request', message, { fields: { cursor: message } });
}
