// What differs between a saved version of an entry and the entry as it is
// now, field by field, in the order of the type's fields. Long texts are
// compared line by line (lineDiff) so an editor sees the sentence that changed.
import type { ContentType, Entry } from '../../api/types.ts';

/** One field whose value differs. */
export interface FieldDifference {
  field: string;
  label: string;
  then: unknown;
  now: unknown;
  /** Compare as lines of text (markdown, html, long text) rather than as whole values. */
  isText: boolean;
}

/** One line of a text comparison. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

const TEXT_FIELD_TYPES = new Set(['markdown', 'html', 'textarea', 'text']);
// Beyond this many lines a side, the table of common lines would not fit in memory comfortably; whole texts are shown instead.
const MAX_DIFF_LINES = 2000;

/** The fields whose value then differs from now: title, slug, status, publish date, then the type's own fields. */
export function differences(type: ContentType, then: Entry, now: Entry): FieldDifference[] {
  const found: FieldDifference[] = [];
  const compare = (field: string, label: string, before: unknown, after: unknown, isText: boolean) => {
    if (!sameValue(before, after)) found.push({ field, label, then: before, now: after, isText });
  };
  compare('title', 'Title', then.title, now.title, false);
  compare('slug', 'URL key', then.slug, now.slug, false);
  compare('status', 'Status', then.status, now.status, false);
  compare('published_at', 'Publish date', then.published_at, now.published_at, false);
  for (const [name, field] of Object.entries(type.fields)) {
    compare(name, field.label || name, then.data[name], now.data[name], TEXT_FIELD_TYPES.has(field.type));
  }
  return found;
}

/** The lines of `before` and `after` as kept, removed and added (a longest-common-subsequence diff); undefined when the texts are too long to compare. */
export function lineDiff(before: string, after: string): DiffLine[] | undefined {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) return undefined;
  // common[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i] });
      i += 1;
      j += 1;
    } else if (i < a.length && (j === b.length || common[i + 1][j] >= common[i][j + 1])) {
      lines.push({ kind: 'removed', text: a[i] });
      i += 1;
    } else {
      lines.push({ kind: 'added', text: b[j] });
      j += 1;
    }
  }
  return lines;
}

/** A value as an editor reads it: text as it is, lists joined, nothing as "(empty)". */
export function displayValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(empty)';
  if (Array.isArray(value)) return value.length === 0 ? '(empty)' : value.map(displayValue).join(', ');
  if (typeof value === 'object') return JSON.stringify(value, null, 2);
  return String(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  const empty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty(a) && empty(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}
