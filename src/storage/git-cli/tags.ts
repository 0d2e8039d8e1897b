// Tags of the content repo through the git CLI: listing them with their
// tagger and message, creating annotated tags and deleting tags. git keeps
// refs/tags in loose files and packed-refs and knows both; the caller holds
// the repository's write lock around create and delete so a tag never races
// a commit (domain/git/release-service.ts).
import { composeMessage, splitTrailers } from '../git/commit-object.ts';
import type { GitRunner } from './git-runner.ts';

/** A tag as git holds it; `tagger` and `message` are null for a lightweight tag. */
export interface TagRecord {
  name: string;
  /** The commit the tag points to (annotated tags peeled). */
  commit: string;
  /** The message without its trailer block. */
  message: string | null;
  trailers: Record<string, string>;
  tagger: { name: string; email: string } | null;
  /** The tag's time (the tagger's, else the commit's), ISO 8601. */
  created_at: string;
}

/** An annotated tag to create. */
export interface NewTag {
  name: string;
  /** The commit to tag. */
  commit: string;
  message: string;
  /** Appended as `Key: value` lines after a blank line, as on commits. */
  trailers: Record<string, string>;
  tagger: { name: string; email: string };
}

const FIELDS = ['%(refname:strip=2)', '%(objecttype)', '%(objectname)', '%(*objectname)', '%(taggername)', '%(taggeremail)', '%(taggerdate:iso-strict)', '%(creatordate:iso-strict)', '%(contents)'];
// %00 between fields and %01 after each record: a tag message holds newlines but never these.
const FORMAT = `${FIELDS.join('%00')}%01`;

/** The tags of one repository. */
export class Tags {
  constructor(
    private readonly runner: GitRunner,
    private readonly gitdir: string,
  ) {}

  /** Every tag that points to a commit, newest first. Throws GitCommandError. */
  async list(): Promise<TagRecord[]> {
    const { stdout } = await this.runner.run(['--git-dir', this.gitdir, 'for-each-ref', '--sort=-creatordate', `--format=${FORMAT}`, 'refs/tags']);
    const tags: TagRecord[] = [];
    for (const record of stdout.toString('utf8').split('\u0001')) {
      const [name, type, object, peeled, taggerName, taggerEmail, taggerDate, creatorDate, contents] = record.replace(/^\n/, '').split('\u0000');
      if (contents === undefined) continue;
      const commit = type === 'tag' ? peeled : object;
      // A tag of a tree or a blob names no version of the content.
      if (type !== 'commit' && !(type === 'tag' && commit !== '')) continue;
      const isAnnotated = type === 'tag';
      const { message, trailers } = isAnnotated ? splitTrailers(contents) : { message: null, trailers: {} };
      tags.push({
        name,
        commit,
        message,
        trailers,
        tagger: isAnnotated ? { name: taggerName, email: taggerEmail.replace(/^<|>$/g, '') } : null,
        created_at: new Date(taggerDate || creatorDate).toISOString(),
      });
    }
    return tags;
  }

  /** Creates an annotated tag; false when a tag of that name exists already. Throws GitCommandError for other failures. */
  async create(tag: NewTag): Promise<boolean> {
    const env = { GIT_COMMITTER_NAME: tag.tagger.name, GIT_COMMITTER_EMAIL: tag.tagger.email };
    const input = composeMessage(tag.message, tag.trailers);
    // `--cleanup=verbatim`: the note is kept as written (lines starting with # too).
    if (await this.exists(tag.name)) return false;
    await this.runner.run(['--git-dir', this.gitdir, 'tag', '--annotate', '--cleanup=verbatim', '--file=-', tag.name, tag.commit], { input, env });
    return true;
  }

  /** Deletes a tag (loose or packed); false when there is none of that name. Throws GitCommandError. */
  async remove(name: string): Promise<boolean> {
    if (!(await this.exists(name))) return false;
    await this.runner.run(['--git-dir', this.gitdir, 'update-ref', '-d', `refs/tags/${name}`]);
    return true;
  }

  private async exists(name: string): Promise<boolean> {
    const { code } = await this.runner.run(['--git-dir', this.gitdir, 'show-ref', '--verify', '--quiet', `refs/tags/${name}`], { okCodes: [1] });
    return code === 0;
  }
}
