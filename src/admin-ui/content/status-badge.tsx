// An entry's status as a small coloured label.
import type { EntryStatus } from '../api/types.ts';
import { STATUS_LABELS } from './entry-status.ts';
import './content.css';

/** "Published", "Draft", …; scheduled entries show their date too. */
export function StatusBadge({ status, publishedAt }: { status: EntryStatus; publishedAt?: string | null }) {
  const when = status === 'scheduled' && publishedAt ? ` for ${formatDateTime(publishedAt)}` : '';
  return <span class={`status-badge status-badge--${status}`}>{STATUS_LABELS[status]}{when}</span>;
}

/** A date and time in the reader's locale and time zone. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
