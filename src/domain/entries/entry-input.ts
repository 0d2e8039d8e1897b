// Splits a write body into the reserved keys of API.md ("title", "slug",
// "status", "published_at", "locale") and custom field values, checking the
// reserved ones. Custom values are checked against the type by field-values.ts.
import type { FieldErrors } from '../../errors/app-error.ts';
import { LOCALE_PATTERN } from '../model/content-type.ts';
import { ENTRY_STATUSES, type EntryStatus } from '../model/entry.ts';
import { isValidSlug } from '../model/slug.ts';

/** A write body split into its reserved keys (checked) and custom field values (checked later against the type). */
export interface EntryInput {
  title?: string;
  slug?: string;
  status?: EntryStatus;
  published_at?: string | null;
  locale?: string;
  /** Custom field values as sent (top-level keys merged with a `data` object). */
  values: Record<string, unknown>;
}

const MAX_TITLE_LENGTH = 1000;
const RESERVED = new Set(['title', 'slug', 'status', 'published_at', 'locale', 'data']);
const READ_ONLY = new Set(['id', 'type', 'created_at', 'updated_at', 'author_id', 'updated_by']);

/** Parses a write body; returns the input and per-key messages for reserved keys that are wrong. */
export function parseEntryInput(body: Record<string, unknown>): { input: EntryInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const input: EntryInput = { values: {} };
  for (const [key, value] of Object.entries(body)) {
    if (!RESERVED.has(key) && !READ_ONLY.has(key)) setOwn(input.values, key, value);
  }
  if (body.data !== undefined) {
    if (typeof body.data !== 'object' || body.data === null || Array.isArray(body.data)) errors.data = 'The data field must be an object.';
    else for (const [key, value] of Object.entries(body.data)) setOwn(input.values, key, value);
  }
  if (body.title !== undefined) {
    if (typeof body.title !== 'string') errors.title = 'The title must be a string.';
    else if (body.title.length > MAX_TITLE_LENGTH) errors.title = `The title must be at most ${MAX_TITLE_LENGTH} characters.`;
    else input.title = body.title;
  }
  if (body.slug !== undefined) {
    if (typeof body.slug !== 'string' || !isValidSlug(body.slug)) errors.slug = 'The slug must be lowercase letters, digits and single hyphens.';
    else input.slug = body.slug;
  }
  if (body.status !== undefined) {
    if (typeof body.status !== 'string' || !(ENTRY_STATUSES as readonly string[]).includes(body.status)) {
      errors.status = `The status must be one of: ${ENTRY_STATUSES.join(', ')}.`;
    } else input.status = body.status as EntryStatus;
  }
  if (body.published_at !== undefined) {
    const parsed = parsePublishedAt(body.published_at);
    if (parsed === undefined) errors.published_at = 'The published_at value must be an ISO 8601 date-time or null.';
    else input.published_at = parsed;
  }
  if (body.locale !== undefined) {
    if (typeof body.locale !== 'string' || !LOCALE_PATTERN.test(body.locale)) errors.locale = 'The locale must be a locale code.';
    else input.locale = body.locale;
  }
  return { input, errors };
}

function parsePublishedAt(value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

// Body keys are untrusted: "__proto__" must become an ordinary key (and then
// be rejected as an unknown field), never a prototype change.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
