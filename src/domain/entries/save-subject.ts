// The commit subject of a single-entry save (create or update, public and
// admin API alike). It names what the save did to who can see the entry, so
// that `git log` and the admin app's versions list say "Publish" where an
// editor published, not "Update". The admin app turns these subjects into
// words (src/admin-ui/screens/versions/version-words.ts); docs/architecture.md
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
  const { was: wasPublic, is: isPublic } = publicVisibility(before, after, now, announced);
  if (!before) {
    if (isPublic) return `Create and publish ${name}`;
    return after.status === 'scheduled' ? `Create and schedule ${name}` : `Create ${name}`;
  }
  if (isPublic && !wasPublic) return `Publish ${name}`;
  // Taking a published entry back to a future schedule also takes it off the site: that is the news.
  if (wasPublic && !isPublic) return `Unpublish ${name}`;
  if (!isPublic && isScheduleChange(before, after)) return `Schedule ${name}`;
  return `Update ${name}`;
}

// Scheduled from another status, or moved to another date.
function isScheduleChange(before: StoredEntry, after: StoredEntry): boolean {
  if (after.status !== 'scheduled') return false;
  return before.status !== 'scheduled' || before.published_at !== after.published_at;
}
