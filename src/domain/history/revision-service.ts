// Revisions of an entry (API.md "Revisions (git)"): every commit that touched
// its files is a revision, listed newest first; one revision can be shown as
// the entry it was plus a field-by-field diff against its predecessor, and
// restored as a new commit. History itself is read in entry-history.ts.
import { AppError, notFound, validationFailed, type FieldErrors } from '../../errors/app-error.ts';
import type { CommitInfo } from '../../storage/content-repo.ts';
import { authorize } from '../auth/authorize.ts';
import { actorIdOf, type Principal } from '../auth/principal.ts';
import type { ContentIndex, IndexedType } from '../content/content-index.ts';
import type { ContentReader, ContentWriter } from '../content/content-writer.ts';
import { entryRequest } from '../auth/content-access.ts';
import { checkReferences } from '../entries/entry-changes.ts';
import { entryVersion } from '../model/entry-version.ts';
import { commitEntryChange, entryEvents, entryFileChanges } from '../entries/entry-writes.ts';
import type { ResolvedEntry, StoredEntry } from '../model/entry.ts';
import { validateFieldValues } from '../model/field-values.ts';
import { announcedIn, keptPublic, publicationEvents, type Announcements } from '../model/events.ts';
import { resolveEntry } from '../locales/resolve.ts';
import { entryAt, entryCommits, type EntryRef } from './entry-history.ts';
import { diffEntries, type FieldChange } from './field-changes.ts';

/** A revision as the admin API lists it. */
export interface Revision {
  /** The commit id (40 hex characters). */
  id: string;
  created_at: string;
  /** The server's `Actor` trailer; null for commits made with plain git. */
  author_id: string | null;
  author_name: string;
  message: string;
  /** True for the newest revision, which is what the entry is now. */
  current: boolean;
}

/** One revision in full: the entry as it was (null when that commit removed it) and what changed. */
export interface RevisionDetail {
  revision: Revision;
  entry: ResolvedEntry | null;
  changes: FieldChange[];
}

const REVISION_ID = /^[0-9a-f]{40}$/;

/** Revision list, detail and restore over the content repo's history. */
export class RevisionService {
  constructor(
    private readonly repo: ContentReader,
    private readonly writer: ContentWriter,
    private readonly content: ContentIndex,
    private readonly now: () => number = Date.now,
    /** The publish scheduler's, so a restore of an entry that came due moments ago announces it (events.ts). */
    private readonly announcements?: Announcements,
  ) {}

  /** The entry's revisions, newest first, paged. Throws not_found, unauthorized, forbidden (content.read on the entry). */
  async list(principal: Principal, workspace: string, typeName: string, identifier: string, page: { limit?: number; offset?: number } = {}): Promise<{ revisions: Revision[]; total: number }> {
    const ref = this.readableRef(principal, workspace, typeName, identifier);
    const commits = await entryCommits(this.repo, ref);
    const offset = page.offset ?? 0;
    const slice = commits.slice(offset, page.limit === undefined ? undefined : offset + page.limit);
    return { revisions: slice.map((commit) => presentRevision(commit, commit.oid === commits[0]?.oid)), total: commits.length };
  }

  /**
   * One revision: the entry as it was after that commit (resolved for
   * `locale`) and the changes against the revision before it. Throws
   * invalid_request (not a 40-character hex id), not_found (unknown entry, or
   * a commit that did not touch it), unauthorized, forbidden.
   */
  async get(principal: Principal, workspace: string, typeName: string, identifier: string, revisionId: string, locale?: string): Promise<RevisionDetail> {
    const ref = this.readableRef(principal, workspace, typeName, identifier);
    const { commits, position } = await this.findRevision(ref, revisionId);
    const [after, before] = await Promise.all([this.readEntry(ref, commits[position]), position + 1 < commits.length ? this.readEntry(ref, commits[position + 1]) : undefined]);
    return {
      revision: presentRevision(commits[position], position === 0),
      entry: after ? resolveEntry(after, ref.type, locale) : null,
      changes: diffEntries(before, after),
    };
  }

  /**
   * Writes the revision's title, status, publish date and values of every
   * locale as a new commit (the slug stays, so links keep working) and
   * returns the entry. Needs content.update, plus content.publish when the
   * result is published. Throws invalid_request, not_found, unauthorized,
   * forbidden, validation_failed (the revision has no entry, or its values
   * no longer fit the type).
   */
  async restore(principal: Principal, workspace: string, typeName: string, identifier: string, revisionId: string): Promise<{ entry: ResolvedEntry; version: string }> {
    const ref = this.readableRef(principal, workspace, typeName, identifier);
    const { commits, position } = await this.findRevision(ref, revisionId);
    const old = await this.readEntry(ref, commits[position]);
    if (!old) throw validationFailed({ revision: 'The entry has no content at this revision.' });
    return this.writer.transaction(async (tx) => {
      const indexed = this.content.getType(workspace, typeName);
      const current = indexed.index.get(ref.entry.id);
      if (!current) throw notFound('Content entry not found.');
      const now = this.now();
      const next = restoredEntry(current, old, actorIdOf(principal), new Date(now).toISOString());
      authorize(principal, entryRequest(workspace, current, 'content.update', { status: next.status }));
      if (next.status === 'published') authorize(principal, entryRequest(workspace, current, 'content.publish', { status: next.status }));
      assertFits(indexed, next);
      const message = `Restore ${typeName}/${current.slug} to revision ${commits[position].oid.slice(0, 7)}`;
      const announced = announcedIn(this.announcements, workspace);
      const kept = keptPublic(current, next, now, announced);
      await commitEntryChange(tx, principal, {
        workspace,
        type: typeName,
        ids: [current.id],
        message,
        changes: entryFileChanges(workspace, indexed.type, current, next),
        apply: () => indexed.index.upsert(next),
        events: entryEvents(workspace, next, ['content.updated', ...publicationEvents(current, next, now, announced)]),
      });
      if (kept) this.announcements?.keptPublic(workspace, next);
      return { entry: resolveEntry(next, indexed.type, undefined), version: entryVersion(next) };
    });
  }

  private readableRef(principal: Principal, workspace: string, typeName: string, identifier: string): EntryRef {
    const { type, index } = this.content.getType(workspace, typeName);
    const entry = index.get(identifier) ?? index.getBySlug(identifier);
    if (!entry) throw notFound('Content entry not found.');
    authorize(principal, entryRequest(workspace, entry, 'content.read'));
    return { workspace, type, entry };
  }

  private async findRevision(ref: EntryRef, revisionId: string): Promise<{ commits: CommitInfo[]; position: number }> {
    const oid = revisionId.toLowerCase();
    if (!REVISION_ID.test(oid)) throw new AppError('invalid_request', 'A revision id is a full commit id: 40 hexadecimal characters.');
    const commits = await entryCommits(this.repo, ref);
    const position = commits.findIndex((commit) => commit.oid === oid);
    if (position === -1) throw notFound(`No revision "${oid}" of the entry "${ref.entry.slug}".`);
    return { commits, position };
  }

  private async readEntry(ref: EntryRef, commit: CommitInfo): Promise<StoredEntry | undefined> {
    try {
      return await entryAt(this.repo, ref, commit);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw validationFailed({ revision: `The entry's files at this revision cannot be read: ${reason}` });
    }
  }
}

function presentRevision(commit: CommitInfo, current: boolean): Revision {
  const actor = commit.trailers.Actor;
  return {
    id: commit.oid,
    created_at: commit.timestamp,
    author_id: actor === undefined || actor === 'anonymous' ? null : actor,
    author_name: commit.authorName,
    message: commit.message.trim(),
    current,
  };
}

// The content of the revision on the entry as it is now: id, slug, creation
// and author stay; the restore is a new edit by the acting user.
function restoredEntry(current: StoredEntry, old: StoredEntry, actor: string | undefined, now: string): StoredEntry {
  const next: StoredEntry = {
    ...current,
    title: old.title,
    status: old.status,
    published_at: old.published_at,
    data: structuredClone(old.data),
    translations: structuredClone(old.translations),
    updated_at: now,
  };
  if (actor) next.updated_by = actor;
  return next;
}

// A revision written under an older schema must still fit today's type.
function assertFits(indexed: IndexedType, entry: StoredEntry): void {
  const { type } = indexed;
  const errors: FieldErrors = {};
  if (entry.status === 'scheduled' && !entry.published_at) errors.published_at = 'A scheduled entry needs a published_at date.';
  for (const [scope, values] of [['data', entry.data], ...Object.entries(entry.translations).map(([locale, translation]) => [`translations.${locale}`, translation.data] as const)] as const) {
    const current = Object.fromEntries(Object.entries(values).filter(([key]) => Object.hasOwn(type.fields, key)));
    for (const [field, message] of Object.entries(validateFieldValues(current, type.fields, { partial: true }).errors)) errors[`${scope}.${field}`] = message;
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors, `The revision no longer fits the content type "${type.name}".`);
  const unique = Object.entries(type.fields).filter(([, field]) => field.unique && field.type !== 'relation').map(([name]) => name);
  checkReferences(entry, indexed, () => undefined, unique);
}
