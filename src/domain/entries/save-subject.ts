// The commit subject of a single-entry save (create or update, public and
// admin API alike), and the verb of a bulk update's. It names what the save
// did to who can see the entry, so that `git log` and the admin app's
// versions list say "Publish" where an editor published, not "Update". The
// admin app turns these subjects into words
// (src/admin-ui/screens/versions/version-words.ts); docs/architecture.md
// "Commit subjects" lists them all.
import { publicVisibility, type AnnouncedCheck, type StoredEntry } from '../model/entry.ts';

/**
 * `Create`, `Create and publish`, `Create and schedule`, `Update`, `Publish`,
 * `Unpublish` or `Schedule`, then `{type}/{slug}`. Visibility is judged at
 * `now`, the time of the write, as the files' `draft` flag is: a scheduled
 * entry whose date has passed is public at once, so saving one publishes.
 * `before` is undefined for a create; `announced` as for publicVisibility.
 */
export function saveSubject(before: StoredEntry | undefined, after: StoredEntry, now: number, announced?: AnnouncedCheck): string {
  const name = `${after.type}/${after.slug}`;
  if (!before) {
    if (publicVisibility(before, after, now, announced).is) return `Create and publish ${name}`;
    return after.status === 'scheduled' ? `Create and schedule ${name}` : `Create ${name}`;
  }
  return `${updateVerb(before, after, now, announced)} ${name}`;
}

/** What an update did to who can see an entry. */
export type UpdateVerb = 'Publish' | 'Unpublish' | 'Schedule' | 'Update';

/**
 * The verb of a bulk update's subject (`Publish 3 entries in posts`): the
 * one every entry's update says (as saveSubject would), or `Update` when
 * they differ, since one commit can name only one. Judged as saveSubject.
 */
export function bulkUpdateVerb(changes: readonly { before: StoredEntry; after: StoredEntry }[], now: number, announced?: AnnouncedCheck): UpdateVerb {
  const verbs = new Set(changes.map(({ before, after }) => updateVerb(before, after, now, announced)));
  const [only] = verbs;
  return verbs.size === 1 ? only : 'Update';
}

function updateVerb(before: StoredEntry, after: StoredEntry, now: number, announced?: AnnouncedCheck): UpdateVerb {
  const { was: wasPublic, is: isPublic } = publicVisibility(before, after, now, announced);
  if (isPublic && !wasPublic) return 'Publish';
  // Taking a published entry back to a future schedule also takes it off the site: that is the news.
  if (wasPublic && !isPublic) return 'Unpublish';
  if (!isPublic && isScheduleChange(before, after)) return 'Schedule';
  return 'Update';
}

// Scheduled from another status, or moved to another date.
function isScheduleChange(before: StoredEntry, after: StoredEntry): boolean {
  if (after.status !== 'scheduled') return false;
  return before.status !== 'scheduled' || before.published_at !== after.published_at;
}
