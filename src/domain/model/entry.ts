// The entry model: what the index holds for one entry (all locales) and what a
// read resolves it to for one locale.

/** The statuses an entry can have (SPEC "Entry"). */
export const ENTRY_STATUSES = ['draft', 'published', 'scheduled', 'protected', 'archived'] as const;
/** One of ENTRY_STATUSES. */
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** Title and custom field values of one locale variant ({slug}.{locale}.md). */
export interface Translation {
  title: string;
  data: Record<string, unknown>;
}

/** What every view of an entry has: the fields shared by all locales, plus the title. */
export interface EntryBase {
  id: string;
  slug: string;
  type: string;
  status: EntryStatus;
  title: string;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  author_id?: string;
  updated_by?: string;
}

/**
 * An entry as stored: shared fields, root values (the root file {slug}.md) and
 * every saved translation, including ones whose locale the type no longer lists.
 */
export interface StoredEntry extends EntryBase {
  /** Root custom field values, including values of fields since removed from the schema. */
  data: Record<string, unknown>;
  translations: Record<string, Translation>;
}

/** An entry resolved for one locale, in the response shape (before presenting media URLs). */
export interface ResolvedEntry extends EntryBase {
  data: Record<string, unknown>;
  /** Localized types only: the locale whose values were served (the requested one, or the fallback when it has no translation). */
  locale?: string;
  /** Localized types only: the type's locales this entry has saved values in, in the type's order (for hreflang and the admin's locale pills). */
  translations?: string[];
}

/**
 * Whether anonymous readers may see the entry at `now`: published, or
 * scheduled with a publish date that has passed (API.md: decided at read time).
 */
export function isPubliclyVisible(entry: Pick<StoredEntry, 'status' | 'published_at'>, now: number): boolean {
  if (entry.status === 'published') return true;
  if (entry.status !== 'scheduled' || !entry.published_at) return false;
  return Date.parse(entry.published_at) <= now;
}

/** Whether an entry was and is public around one write (isPubliclyVisible of both sides). */
export interface PublicVisibility {
  was: boolean;
  is: boolean;
}

/**
 * Whether the going public of an entry that is public has been announced:
 * false only for a scheduled entry whose date passed since the publish
 * scheduler last looked and that no write announced either (Announcements,
 * events.ts). Without one, every public entry counts as announced.
 */
export type AnnouncedCheck = (entry: StoredEntry) => boolean;

/**
 * Public visibility before and after a write, both judged at `now`, the time
 * of the write, as the files' `draft` flag is: a scheduled entry whose date
 * has passed is public at once. `was` also asks `announced`: a scheduled
 * entry whose date passed moments ago, before the scheduler's next look, was
 * public but nobody was told, so the write that keeps it public is the one
 * that publishes it. The commit subject (save-subject.ts) and the
 * publication events (events.ts) both read this, so they never disagree.
 * `before` is undefined for a create (or a trash restore), `after` for a
 * delete.
 */
export function publicVisibility(before: StoredEntry | undefined, after: StoredEntry | undefined, now: number, announced: AnnouncedCheck = () => true): PublicVisibility {
  return { was: before !== undefined && isPubliclyVisible(before, now) && announced(before), is: after !== undefined && isPubliclyVisible(after, now) };
}
