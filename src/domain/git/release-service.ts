// Content releases (API.md "Changes feed and reads at a ref"): a release is
// an annotated git tag on HEAD, made by the acting user or token with a note,
// so a site generator can build `?ref=<release>` and get the same content
// every time, and a clone of the content repo carries the releases too. Tags
// that developers made with plain git are releases as well.
import { AppError, notFound, validationFailed, type FieldErrors } from '../../errors/app-error.ts';
import { refNameProblem } from '../../storage/content-repo.ts';
import type { GitPeer, TagRecord } from '../../storage/git-cli/git-peer.ts';
import { authorize } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import { actorIdOf, gitAuthorOf, type Principal } from '../auth/principal.ts';
import type { ContentReader, ContentWriter } from '../content/content-writer.ts';
import { gitUnavailable } from './git-http-service.ts';

/** A release as the admin API lists it. */
export interface Release {
  name: string;
  /** The commit the release tags. */
  commit: string;
  note: string | null;
  /** `id` from the tag's `Actor` trailer (null for a tag made with plain git), `name` the tagger's. */
  actor: { id: string | null; name: string | null };
  created_at: string;
}

/** Body of POST /admin/api/releases. */
export interface CreateReleaseInput {
  name: string;
  note?: string;
}

/** What releases are made with (services.ts). */
export interface ReleaseDeps {
  /** The git CLI; without it releases answer git_unavailable. */
  peer: GitPeer | undefined;
  repo: ContentReader;
  writer: ContentWriter;
}

/** The longest note; a release note is a paragraph or two, not a changelog file. */
export const MAX_NOTE_LENGTH = 10_000;
// Only hex digits: `?ref=` would read such a name as an abbreviated commit id first in some tools.
const LOOKS_LIKE_COMMIT = /^[0-9a-fA-F]{4,40}$/;
// A note is text: line breaks and tabs, no other control characters.
const NOTE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Lists, creates and deletes releases; created once by services.ts. */
export class ReleaseService {
  constructor(private readonly deps: ReleaseDeps) {}

  /** Every release, newest first. Needs releases.read. Throws unauthorized, forbidden, git_unavailable. */
  async list(principal: Principal): Promise<Release[]> {
    check(principal, 'releases.read', '*');
    return (await this.peer().tags.list()).map(presentTag);
  }

  /**
   * Tags HEAD as a release named `input.name` with the actor as tagger and
   * the note as the tag's message. Runs under the write lock, so the tag
   * names the commit that was HEAD when no write was in flight. Needs
   * releases.create. Throws unauthorized, forbidden, validation_failed (a
   * name git refuses or one of hex digits only, a note too long or with
   * control characters), conflict (the name exists), git_unavailable.
   */
  async create(principal: Principal, input: CreateReleaseInput): Promise<Release> {
    check(principal, 'releases.create', input.name);
    const note = checkInput(input);
    const tags = this.peer().tags;
    await this.deps.writer.transaction(async () => {
      const commit = await this.deps.repo.head();
      const message = note === undefined ? releaseSubject(input.name) : `${releaseSubject(input.name)}\n\n${note}`;
      const created = await tags.create({ name: input.name, commit, message, trailers: { Actor: actorIdOf(principal) ?? 'anonymous' }, tagger: gitAuthorOf(principal) });
      if (!created) throw new AppError('conflict', `A release or tag named "${input.name}" already exists.`);
    });
    // Read back outside the lock: writes need not wait for the listing.
    const release = (await tags.list()).find((tag) => tag.name === input.name);
    if (release === undefined) throw new AppError('internal_error', `The release "${input.name}" was created but cannot be read back.`);
    return presentTag(release);
  }

  /** Deletes a release (its tag; the commit stays). Needs releases.delete. Throws unauthorized, forbidden, not_found, git_unavailable. */
  async remove(principal: Principal, name: string): Promise<void> {
    check(principal, 'releases.delete', name);
    if (refNameProblem(name) !== undefined) throw notFound(`No release "${name.slice(0, 100)}".`);
    const tags = this.peer().tags;
    await this.deps.writer.transaction(async () => {
      if (!(await tags.remove(name))) throw notFound(`No release "${name.slice(0, 100)}".`);
    });
  }

  private peer(): GitPeer {
    if (this.deps.peer === undefined) throw gitUnavailable();
    return this.deps.peer;
  }
}

function check(principal: Principal, action: string, name: string): void {
  authorize(principal, { action, resource: `releases:${name}`, workspace: ALL_WORKSPACES });
}

function releaseSubject(name: string): string {
  return `Release ${name}`;
}

// Returns the note to store (trimmed; undefined when blank). Throws validation_failed.
function checkInput(input: CreateReleaseInput): string | undefined {
  const errors: FieldErrors = {};
  const problem = refNameProblem(input.name);
  if (problem !== undefined) errors.name = problem;
  else if (input.name === 'HEAD' || LOOKS_LIKE_COMMIT.test(input.name)) errors.name = 'A release name cannot be HEAD or only hex digits, which read as a commit id.';
  const note = input.note?.replace(/\r\n?/g, '\n').trim();
  if (note !== undefined && note.length > MAX_NOTE_LENGTH) errors.note = `A release note may be at most ${MAX_NOTE_LENGTH} characters long.`;
  else if (note !== undefined && NOTE_CONTROL.test(note)) errors.note = 'A release note cannot contain control characters other than line breaks and tabs.';
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  return note === '' ? undefined : note;
}

// The server writes `Release <name>`, a blank line and the note; a tag made with plain git has only its message.
function presentTag(tag: TagRecord): Release {
  const subject = releaseSubject(tag.name);
  let note = tag.message;
  if (note === subject) note = null;
  else if (note?.startsWith(`${subject}\n\n`)) note = note.slice(subject.length + 2);
  return { name: tag.name, commit: tag.commit, note: note === '' ? null : note, actor: { id: tag.trailers.Actor ?? null, name: tag.tagger?.name ?? null }, created_at: tag.created_at };
}
