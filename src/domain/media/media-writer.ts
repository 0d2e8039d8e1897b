// Every media write ends here: one set of metadata changes becomes exactly one
// commit, then the in-memory library is updated and the events are emitted.
// Binaries are moved by the callers around this step (see media-service.ts).
import type { ContentRepo, FileChange } from '../../storage/content-repo.ts';
import { actorIdOf, gitAuthorOf, type Principal } from '../auth/principal.ts';
import type { EventBus, EventType } from '../model/events.ts';
import type { MediaLibrary } from './media-library.ts';
import { categoriesPath, categoriesToYaml, mediaRecordPath, recordToYaml, type MediaRecord } from './media-record.ts';

/** What one media write changes, committed together. */
export interface MediaChangeSet {
  /** The commit subject, e.g. `Upload media photo.jpg`. */
  message: string;
  /** Records to write (new or changed). */
  put?: MediaRecord[];
  /** File names whose records are deleted. */
  remove?: string[];
  /** The new stored category list, when it changes. */
  categories?: string[];
  /** Further files of the same commit (entries whose media references change). */
  extra?: FileChange[];
  /** Events to emit after the commit; media events carry `{ filename }`. */
  events: { type: EventType; data: Record<string, string> }[];
}

/** Commits media change sets; call apply() inside the repo's write queue. */
export class MediaWriter {
  constructor(
    private readonly repo: ContentRepo,
    private readonly library: MediaLibrary,
    private readonly events: EventBus,
    private readonly now: () => number,
  ) {}

  /**
   * Writes the change set as one commit authored by the principal, then
   * updates the library and emits the events. Throws what commitChanges throws
   * (conflict, invalid_request); nothing is changed in memory then.
   */
  async apply(principal: Principal, workspace: string, set: MediaChangeSet): Promise<void> {
    const changes: FileChange[] = [];
    for (const filename of set.remove ?? []) changes.push({ path: mediaRecordPath(workspace, filename), content: null });
    for (const record of set.put ?? []) changes.push({ path: mediaRecordPath(workspace, record.filename), content: recordToYaml(record) });
    if (set.categories) changes.push({ path: categoriesPath(workspace), content: categoriesToYaml(set.categories) });
    changes.push(...(set.extra ?? []));
    const files = [...new Set([...(set.remove ?? []), ...(set.put ?? []).map((record) => record.filename)])];
    await this.repo.commitChanges({
      changes: dedupe(changes),
      message: set.message,
      author: gitAuthorOf(principal),
      trailers: { Workspace: workspace, Media: summarize(files), Actor: actorIdOf(principal) ?? 'anonymous' },
    });
    this.library.remove(workspace, set.remove ?? []);
    this.library.put(workspace, set.put ?? []);
    if (set.categories) this.library.setCategories(workspace, set.categories);
    const occurredAt = new Date(this.now()).toISOString();
    for (const event of set.events) {
      this.events.emit({ type: event.type, workspace, occurredAt, actor: actorIdOf(principal), data: event.data });
    }
  }
}

// A later change to the same path wins (a rename that puts back a removed name).
function dedupe(changes: FileChange[]): FileChange[] {
  return [...new Map(changes.map((change) => [change.path, change])).values()];
}

function summarize(files: string[]): string {
  if (files.length <= 3) return files.join(', ');
  return `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
}
