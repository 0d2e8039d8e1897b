// Entry versions for ETag and If-Match: one short content hash per stored
// entry object, computed once.
import { createHash } from 'node:crypto';
import type { StoredEntry } from './entry.ts';

const versions = new WeakMap<StoredEntry, string>();

/**
 * A short hash of everything stored for an entry: the value of its ETag and
 * what If-Match is compared against. Stored entries are never mutated, so the
 * hash is computed once per object.
 */
export function entryVersion(entry: StoredEntry): string {
  let version = versions.get(entry);
  if (!version) {
    version = createHash('sha1').update(JSON.stringify(entry)).digest('base64url').slice(0, 20);
    versions.set(entry, version);
  }
  return version;
}
