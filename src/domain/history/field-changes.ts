// Field-by-field differences between two versions of an entry, for the
// admin UI's revision diff. Shared fields are named as in responses (`title`,
// `status`, …), custom root values `data.{field}`, and each locale variant's
// values `translations.{locale}.title` and `translations.{locale}.data.{field}`.
import type { StoredEntry, Translation } from '../model/entry.ts';

/** One changed value; `null` stands for "absent". */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

// Timestamps and the editor change with every save and would drown the diff.
const SHARED_FIELDS = ['slug', 'title', 'status', 'published_at', 'author_id'] as const;

/** What changed from `before` to `after` (either may be undefined: created or removed), in a stable order. */
export function diffEntries(before: StoredEntry | undefined, after: StoredEntry | undefined): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of SHARED_FIELDS) push(changes, field, before?.[field], after?.[field]);
  diffValues(changes, 'data.', before?.data ?? {}, after?.data ?? {});
  const locales = [...new Set([...Object.keys(before?.translations ?? {}), ...Object.keys(after?.translations ?? {})])].sort();
  for (const locale of locales) diffTranslation(changes, `translations.${locale}.`, before?.translations[locale], after?.translations[locale]);
  return changes;
}

function diffTranslation(changes: FieldChange[], prefix: string, before: Translation | undefined, after: Translation | undefined): void {
  push(changes, `${prefix}title`, before?.title, after?.title);
  diffValues(changes, `${prefix}data.`, before?.data ?? {}, after?.data ?? {});
}

function diffValues(changes: FieldChange[], prefix: string, before: Record<string, unknown>, after: Record<string, unknown>): void {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const key of keys) push(changes, prefix + key, before[key], after[key]);
}

function push(changes: FieldChange[], field: string, before: unknown, after: unknown): void {
  const left = before === undefined ? null : before;
  const right = after === undefined ? null : after;
  if (stableJson(left) !== stableJson(right)) changes.push({ field, before: left, after: right });
}

// JSON with sorted object keys, so that `json` field values compare by content.
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
