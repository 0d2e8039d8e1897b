// The words and rules for an entry's status, shared by the list and the
// editor: editors see "Scheduled", never the raw value.
import type { EntryStatus } from '../api/types.ts';

/** Every status with its label, in the order the editor offers them. */
export const STATUS_LABELS: Record<EntryStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  scheduled: 'Scheduled',
  protected: 'Protected',
  archived: 'Archived',
};

/** The statuses, in order. */
export const STATUSES = Object.keys(STATUS_LABELS) as EntryStatus[];

/** What each status means, for the editor's hint. */
export const STATUS_HINTS: Record<EntryStatus, string> = {
  draft: 'Only people signed in here can see it.',
  published: 'Everyone can see it.',
  scheduled: 'Everyone can see it from the publish date on.',
  protected: 'Only readers with access can see it.',
  archived: 'Kept, but hidden from everyone outside the admin.',
};
