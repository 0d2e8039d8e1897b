// The update feed (CMS_UPDATE_FEED): a URL answering `{ version, url,
// sha256, notes }`. Reading and checking it, and comparing versions. The
// feed is outside input: every field is checked before it is used.
import { isAppError, validationFailed } from '../../errors/app-error.ts';

/** A release the feed announces. */
export interface FeedRelease {
  version: string;
  /** Absolute http(s) URL of the release archive (a ZIP). */
  url: string;
  /** Lowercase hex SHA-256 of the archive. */
  sha256: string;
  notes: string;
}

/** Versions: `1.2.3`, optionally with a `-pre.1` or `+build` suffix; used in folder names too. */
export const VERSION = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:[-+][0-9A-Za-z.-]{1,40})?$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;
const MAX_FEED_BYTES = 64 * 1024;
const MAX_NOTES = 10_000;

/**
 * Fetches and checks the feed. Throws validation_failed (field `feed`) when
 * it cannot be reached in time, does not answer 200, or is not a valid feed.
 */
export async function readFeed(feedUrl: string, options: { fetch: typeof fetch; timeoutMs: number }): Promise<FeedRelease> {
  let text: string;
  try {
    const response = await options.fetch(feedUrl, { headers: { accept: 'application/json' }, redirect: 'follow', signal: AbortSignal.timeout(options.timeoutMs) });
    if (response.status !== 200) throw feedProblem(`The update feed answered ${response.status}.`);
    text = await response.text();
  } catch (error) {
    if (isAppError(error)) throw error;
    throw feedProblem('The update feed could not be reached.');
  }
  if (text.length > MAX_FEED_BYTES) throw feedProblem('The update feed is too large.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw feedProblem('The update feed is not JSON.');
  }
  return checkRelease(value, feedUrl);
}

/** Checks a parsed feed; a relative `url` is resolved against the feed's URL. Throws validation_failed (field `feed`). */
export function checkRelease(value: unknown, feedUrl: string): FeedRelease {
  const feed = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof feed.version !== 'string' || !VERSION.test(feed.version)) throw feedProblem('The update feed has no valid "version" (like 1.2.3).');
  if (typeof feed.sha256 !== 'string' || !SHA256.test(feed.sha256)) throw feedProblem('The update feed has no valid "sha256" (64 hex digits).');
  if (feed.notes !== undefined && typeof feed.notes !== 'string') throw feedProblem('The update feed "notes" must be text.');
  let url: URL;
  try {
    url = new URL(typeof feed.url === 'string' ? feed.url : '', feedUrl);
  } catch {
    throw feedProblem('The update feed has no valid "url".');
  }
  if (typeof feed.url !== 'string' || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw feedProblem('The update feed "url" must be an http(s) URL.');
  return { version: feed.version, url: url.href, sha256: feed.sha256.toLowerCase(), notes: (feed.notes ?? '').slice(0, MAX_NOTES) };
}

/** Compares two versions by major, minor and patch, then a release before its pre-releases; -1, 0 or 1. */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const [core, pre] = version.split(/\+/)[0].split(/-(.*)/s);
    return { numbers: core.split('.').map(Number), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let i = 0; i < 3; i += 1) {
    const difference = (left.numbers[i] ?? 0) - (right.numbers[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  return left.pre < right.pre ? -1 : 1;
}

function feedProblem(message: string): Error {
  return validationFailed({ feed: message }, message);
}
