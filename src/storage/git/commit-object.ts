// Commit objects: encoding and decoding git's text format, author identities
// and the trailer block (`Key: value` lines after a blank line) that names the
// workspace, type, entry and actor of every commit the server writes.
import { AppError } from '../../errors/app-error.ts';

/** An author or committer line: name, email and time with its zone offset. */
export interface Identity {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  seconds: number;
  /** Minutes east of UTC, as git records it (+0200 → 120). */
  offsetMinutes: number;
}

/** A decoded commit object. */
export interface CommitObject {
  tree: string;
  parents: string[];
  author: Identity;
  committer: Identity;
  /** The full message, trailers included, ending in a newline. */
  message: string;
}

const TRAILER_KEY = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
const TRAILER_LINE = /^([A-Za-z0-9][A-Za-z0-9-]*): ?(.*)$/;
const IDENT = /^(.*?) ?<([^<>]*)> (\d+) ([+-])(\d{2})(\d{2})$/;
// Characters git refuses or strips in names and emails.
const IDENT_CRUD = /[<>\r\n\0]/g;

/** Serializes a commit object body in git's canonical header order. */
export function encodeCommit(commit: CommitObject): Buffer {
  const lines = [`tree ${commit.tree}`];
  for (const parent of commit.parents) lines.push(`parent ${parent}`);
  lines.push(`author ${formatIdentity(commit.author)}`, `committer ${formatIdentity(commit.committer)}`);
  return Buffer.from(`${lines.join('\n')}\n\n${commit.message}`, 'utf8');
}

/** Parses a commit object body; unknown headers (gpgsig, encoding, …) are skipped. Throws on a malformed commit. */
export function decodeCommit(body: Buffer, oid: string): CommitObject {
  const text = body.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = (split < 0 ? text : text.slice(0, split)).split('\n');
  const commit: Partial<CommitObject> & { parents: string[] } = { parents: [] };
  for (const line of headers) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') commit.tree = value;
    else if (key === 'parent') commit.parents.push(value);
    else if (key === 'author') commit.author = parseIdentity(value);
    else if (key === 'committer') commit.committer = parseIdentity(value);
  }
  const { tree, author, committer } = commit;
  if (tree === undefined || author === undefined || committer === undefined) {
    throw new Error(`The git commit ${oid} is malformed.`);
  }
  return { tree, parents: commit.parents, author, committer, message: split < 0 ? '' : text.slice(split + 2) };
}

/**
 * Builds a commit message: the text, then the trailers as `Key: value` lines
 * after a blank line. Throws `invalid_request` for an empty message or a
 * trailer key that git would not read as a trailer; newlines in values become spaces.
 */
export function composeMessage(message: string, trailers: Record<string, string> = {}): string {
  const text = message.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
  if (text.trim() === '') throw new AppError('invalid_request', 'A commit needs a message.');
  const lines: string[] = [];
  for (const [key, raw] of Object.entries(trailers)) {
    if (!TRAILER_KEY.test(key)) throw new AppError('invalid_request', `The commit trailer key "${key}" is not valid.`);
    const value = raw.replace(/[\r\n]+/g, ' ').trim();
    if (value !== '') lines.push(`${key}: ${value}`);
  }
  return lines.length === 0 ? `${text}\n` : `${text}\n\n${lines.join('\n')}\n`;
}

/**
 * Splits a commit message into its text and its trailers: the last paragraph
 * counts as trailers when it is not the first one and every line is `Key: value`.
 */
export function splitTrailers(raw: string): { message: string; trailers: Record<string, string> } {
  const text = raw.replace(/\s+$/, '');
  const paragraphs = text.split(/\n[ \t]*\n/);
  const last = paragraphs.length > 1 ? paragraphs[paragraphs.length - 1].split('\n') : [];
  if (last.length === 0 || !last.every((line) => TRAILER_LINE.test(line))) return { message: text, trailers: {} };
  const trailers: Record<string, string> = {};
  for (const line of last) {
    const match = TRAILER_LINE.exec(line);
    if (match !== null) trailers[match[1]] = match[2].trim();
  }
  return { message: text.slice(0, text.length - paragraphs[paragraphs.length - 1].length).replace(/\s+$/, ''), trailers };
}

/** An identity for "now" in the server's time zone, with characters git rejects removed. */
export function identityNow(name: string, email: string, now: Date = new Date()): Identity {
  const cleanName = name.replace(IDENT_CRUD, '').trim();
  return {
    name: cleanName === '' ? 'Unknown' : cleanName,
    email: email.replace(IDENT_CRUD, '').trim(),
    seconds: Math.floor(now.getTime() / 1000),
    offsetMinutes: -now.getTimezoneOffset(),
  };
}

/** An identity as git writes it in commits and reflogs: `Name <email> 1700000000 +0100`. */
export function formatIdentity(identity: Identity): string {
  const offset = Math.abs(identity.offsetMinutes);
  const sign = identity.offsetMinutes < 0 ? '-' : '+';
  const zone = `${sign}${String(Math.floor(offset / 60)).padStart(2, '0')}${String(offset % 60).padStart(2, '0')}`;
  return `${identity.name} <${identity.email}> ${identity.seconds} ${zone}`;
}

function parseIdentity(value: string): Identity {
  const match = IDENT.exec(value);
  if (match === null) return { name: value, email: '', seconds: 0, offsetMinutes: 0 };
  const offset = Number(match[5]) * 60 + Number(match[6]);
  return { name: match[1], email: match[2], seconds: Number(match[3]), offsetMinutes: match[4] === '-' ? -offset : offset };
}

/** A commit as callers see it: message without trailers, trailers parsed, author and time. */
export interface CommitInfo {
  oid: string;
  /** Subject and body, trailers removed. */
  message: string;
  authorName: string;
  authorEmail: string;
  /** Author time, ISO 8601 in UTC. */
  timestamp: string;
  trailers: Record<string, string>;
  parents: string[];
}

/** Turns a decoded commit into the CommitInfo that content-repo returns. */
export function describeCommit(oid: string, commit: CommitObject): CommitInfo {
  const { message, trailers } = splitTrailers(commit.message);
  return {
    oid,
    message,
    authorName: commit.author.name,
    authorEmail: commit.author.email,
    timestamp: new Date(commit.author.seconds * 1000).toISOString(),
    trailers,
    parents: commit.parents,
  };
}
