// What a saved version did, who did it, in words for editors. The API gives
// each version its commit message, and the server writes its own commits
// with fixed subjects (src/domain: entries/save-subject, entry-service,
// trash-service, revision-service, the publish scheduler, type-service,
// media-rename, backup-restore; docs/architecture.md "Commit subjects" lists
// them); this is the one place that knows those subjects.
// Commits made with plain git carry a developer's own message: that is shown
// as it is (its first line), under "Changed with git". A server subject not
// known here reads "Changed", with the subject beside it.
import type { Revision } from '../../api/revisions.ts';

/** One version in words: what happened, by whom, and the commit's own text where it says more. */
export interface VersionWords {
  what: string;
  who: string;
  /** The message's first line, for commits whose subject is not one of the server's. */
  note?: string;
}

/** The date and time of the listed version whose id starts with `shortId`, formatted; undefined when it is not listed. */
export type WhenOf = (shortId: string) => string | undefined;

/** What a rule knows besides the subject: the dates of listed versions, and whether the server itself made the commit. */
interface Context {
  whenOf: WhenOf;
  isAutomatic: boolean;
}

type Rule = [RegExp, (match: RegExpMatchArray, context: Context) => string];

const others = (count: string) => (Number(count) === 2 ? '1 other entry' : `${Number(count) - 1} other entries`);

// The server's subjects, `{type}/{slug}` standing for the entry. Bulk writes
// name a count (`Update 3 entries in posts`, or `Publish`, `Unpublish`,
// `Schedule` when every entry's went that way) and one commit for them all.
const RULES: Rule[] = [
  [/^Create \S+\/\S+$/, () => 'Created'],
  [/^Create and publish \S+\/\S+$/, () => 'Created and published'],
  [/^Create and schedule \S+\/\S+$/, () => 'Created and scheduled'],
  [/^Update \S+\/\S+$/, () => 'Updated'],
  // An editor's save and the scheduler both write `Publish {type}/{slug}`; the scheduler commits as the server itself.
  [/^Publish \S+\/\S+$/, (_, { isAutomatic }) => (isAutomatic ? 'Published at its scheduled time' : 'Published')],
  [/^Unpublish \S+\/\S+$/, () => 'Unpublished'],
  [/^Schedule \S+\/\S+$/, () => 'Scheduled'],
  [/^Delete \S+\/\S+$/, () => 'Moved to the trash'],
  [/^Update 1 entry in \S+$/, () => 'Updated'],
  [/^Update (\d+) entries in \S+$/, ([, count]) => `Updated with ${others(count)}`],
  [/^Publish 1 entry in \S+$/, () => 'Published'],
  [/^Publish (\d+) entries in \S+$/, ([, count]) => `Published with ${others(count)}`],
  [/^Unpublish 1 entry in \S+$/, () => 'Unpublished'],
  [/^Unpublish (\d+) entries in \S+$/, ([, count]) => `Unpublished with ${others(count)}`],
  [/^Schedule 1 entry in \S+$/, () => 'Scheduled'],
  [/^Schedule (\d+) entries in \S+$/, ([, count]) => `Scheduled with ${others(count)}`],
  [/^Delete 1 entry from \S+$/, () => 'Moved to the trash'],
  [/^Delete (\d+) entries from \S+$/, ([, count]) => `Moved to the trash with ${others(count)}`],
  [/^Delete (\S+) translation of \S+\/\S+$/, ([, locale]) => `Deleted the ${locale} translation`],
  [/^Restore \S+\/\S+ from trash$/, () => 'Restored from the trash'],
  [/^Restore \S+\/\S+ to revision ([0-9a-f]{7,40})$/, ([, id], { whenOf }) => {
    const when = whenOf(id);
    return when ? `Restored the version of ${when}` : 'Restored an earlier version';
  }],
  [/^Publish \d+ scheduled entries$/, () => 'Published at its scheduled time'],
  [/^Update type \S+: \S+ becomes the single page$/, () => 'Became the single page'],
  [/^Update type \S+$/, () => 'Changed with its content type'],
  [/^Rename media (.+) to (.+)$/, ([, from, to]) => `File ${from} renamed to ${to}`],
  [/^Restore backup \S+$/, () => 'Restored from a backup'],
];

/** The words for one version; `whenOf` dates the version a restore went back to. */
export function versionWords(revision: Pick<Revision, 'message' | 'author_id' | 'author_name'>, whenOf: WhenOf): VersionWords {
  const subject = revision.message.split('\n', 1)[0].trim();
  if (revision.author_id === null) return { what: 'Changed with git', who: revision.author_name, note: subject || undefined };
  // The publish scheduler commits as the server itself (`Actor: system`).
  const isAutomatic = revision.author_id === 'system';
  const who = isAutomatic ? 'Automatically' : revision.author_name;
  for (const [pattern, words] of RULES) {
    const match = subject.match(pattern);
    if (match) return { what: words(match, { whenOf, isAutomatic }), who };
  }
  return { what: 'Changed', who, note: subject || undefined };
}
