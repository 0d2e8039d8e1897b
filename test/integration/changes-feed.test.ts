// The changes feed's bounds on a real content repo, without HTTP: which commit
// a change is dated at (the walk back from HEAD and its limit), a since that
// is no ancestor of HEAD, and the refusal of a range with too many files.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ANONYMOUS } from '../../src/domain/auth/principal.ts';
import { ChangesFeed, type ChangesFeedOptions } from '../../src/domain/changes/changes-feed.ts';
import { ContentIndex } from '../../src/domain/content/content-index.ts';
import { ContentRepo, type FileChange } from '../../src/storage/content-repo.ts';
import { caughtAppError } from '../helpers/errors.ts';
import { git } from '../helpers/git.ts';

const AUTHOR = { name: 'dev', email: 'dev@example.com' };
const TYPE = { path: 'site/types/posts.yaml', content: 'label: Posts\nfields:\n  body:\n    type: markdown\n' };
const post = (slug: string, title: string): FileChange => ({ path: `site/entries/posts/${slug}.md`, content: `---\nid: ${slug}-id\ntitle: ${title}\nstatus: published\n---\n` });

describe('ChangesFeed on a content repo', () => {
  let dir: string;
  let repo: ContentRepo;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'changes-feed-'));
    repo = await ContentRepo.open(path.join(dir, 'content'), { packing: false });
  });
  afterEach(async () => {
    await repo.close();
    await rm(dir, { recursive: true, force: true });
  });

  const commit = async (changes: FileChange[], message: string) => (await repo.serialize(() => repo.commitChanges({ changes, message, author: AUTHOR }))).oid;
  // Since-queries read git alone; the index only adds entries that changed without a commit, and here there are none.
  // The test repo has no workspace.yaml: the registry is told the workspace is active.
  const ACTIVE = { find: (slug: string) => ({ slug, label: slug, archived: false, type_order: [], created_at: '', updated_at: '' }) };
  const feedOf = (options: ChangesFeedOptions) => new ChangesFeed(repo, { indexedHead: undefined }, new ContentIndex(repo, () => undefined), ACTIVE, options);
  const read = (feed: ChangesFeed, since: string) => feed.read(ANONYMOUS, 'site', { since, limit: 100 });

  it('dates each change at the newest commit that touched it, walking back from HEAD', async () => {
    const start = await commit([TYPE], 'Add posts');
    const first = await commit([post('a', 'A'), post('b', 'B')], 'Add a and b');
    const second = await commit([post('a', 'A again')], 'Edit a');
    await commit([{ path: 'elsewhere.md', content: 'x' }], 'Touch another folder');
    const page = await read(feedOf({}), start);
    expect(page.items.map(({ slug, commit: oid }) => [slug, oid])).to.deep.equal([
      ['a', second],
      ['b', first],
    ]);
  });

  it('answers a since that is no ancestor of HEAD with the difference of the two trees, dated at HEAD past the walk limit', async () => {
    await commit([TYPE], 'Add posts');
    const withA = await commit([post('a', 'A')], 'Add a');
    // A commit outside HEAD's history holding the same files, as a history rewrite leaves behind.
    const tree = (await git(repo.dir, ['rev-parse', `${withA}^{tree}`])).trim();
    const orphan = (await git(repo.dir, ['-c', 'user.name=dev', '-c', 'user.email=dev@example.com', 'commit-tree', tree, '-m', 'Rewritten'])).trim();
    await commit([post('b', 'B')], 'Add b');
    const head = await commit([post('c', 'C')], 'Add c');

    const walked = await read(feedOf({}), orphan);
    expect(walked.items.map(({ slug, change }) => `${slug} ${change}`)).to.deep.equal(['b created', 'c created']);
    const bounded = await read(feedOf({ limits: { maxCommits: 1 } }), orphan);
    expect(bounded.items.map(({ slug, commit: oid }) => `${slug} ${oid}`)).to.deep.equal([`b ${head}`, `c ${head}`]);
    expect(bounded.meta.head).to.equal(head);
  });

  it('refuses a range with more changed files than it reads, with conflict', async () => {
    const start = await commit([TYPE], 'Add posts');
    await commit([post('a', 'A'), post('b', 'B'), post('c', 'C')], 'Add three');
    const error = await caughtAppError(read(feedOf({ limits: { maxFiles: 2 } }), start));
    expect(error.code).to.equal('conflict');
    expect((await read(feedOf({ limits: { maxFiles: 3 } }), start)).items).to.have.length(3);
  });
});
