import { expect } from 'chai';
import { link, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import type { CommitRequest, FileChange } from '../../src/storage/content-repo.ts';
import { caughtAppError } from '../helpers/errors.ts';
import { commitByHand, commitCount, EXTERNAL_AUTHOR, git, headOid, serverIndexSettled } from '../helpers/git.ts';

const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const POSTS = 'blog/entries/posts';

async function expectCleanRepo(dir: string): Promise<void> {
  expect(await git(dir, ['status', '--porcelain'])).to.equal('');
  await git(dir, ['fsck', '--no-progress', '--strict']);
}

function entry(id: string, title: string): string {
  return `---\nid: ${id}\ntitle: ${title}\n---\nBody of ${title}.\n`;
}

async function waitFor(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('ContentRepo', () => {
  let dir: string;
  let repo: ContentRepo;

  const commit = (changes: FileChange[], extra: Partial<CommitRequest> = {}) =>
    repo.serialize(() => repo.commitChanges({ changes, message: 'Update content', author: AUTHOR, ...extra }));

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'content-repo-'));
    repo = await ContentRepo.open(path.join(dir, 'content'), { lockWaitMs: 50 });
  });

  afterEach(async () => {
    await repo.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('open', () => {
    it('creates a repository on branch main with a first commit and a clean status', async () => {
      const root = repo.dir;
      expect(await git(root, ['rev-parse', '--abbrev-ref', 'HEAD'])).to.equal('main\n');
      expect(await git(root, ['log', '--format=%s|%an'])).to.equal('Initialize content repository|git-cms\n');
      expect(await repo.listFiles('')).to.deep.equal(['README.md']);
      expect(await git(root, ['config', 'core.ignorecase'])).to.equal('false\n');
      await expectCleanRepo(root);
    });

    it('finishes a repository whose first start stopped before HEAD was written, keeping its config', async () => {
      const root = path.join(dir, 'stopped');
      await mkdir(path.join(root, '.git'), { recursive: true });
      await writeFile(path.join(root, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[user]\n\tname = Kept\n');
      const opened = await ContentRepo.open(root);
      try {
        expect(await git(root, ['rev-parse', '--abbrev-ref', 'HEAD'])).to.equal('main\n');
        expect(await git(root, ['config', 'user.name'])).to.equal('Kept\n');
        expect(await commitCount(root)).to.equal(1);
        await expectCleanRepo(root);
      } finally {
        await opened.close();
      }
    });

    it('reopens an existing repository without a new commit', async () => {
      const head = await repo.head();
      const again = await ContentRepo.open(repo.dir);
      expect(await again.head()).to.equal(head);
      expect(await commitCount(repo.dir)).to.equal(1);
      await again.close();
    });

    it('writes a plain index by default, also over a split index written when configured', async () => {
      const split = await ContentRepo.open(repo.dir, { splitIndex: true });
      await split.serialize(() => split.commitChanges({ changes: [{ path: `${POSTS}/a.md`, content: entry('a', 'A') }], message: 'Split', author: AUTHOR }));
      expect(path.basename((await git(repo.dir, ['rev-parse', '--shared-index-path'])).trim())).to.match(/^sharedindex\.[0-9a-f]{40}$/);
      await split.close();
      const plain = await ContentRepo.open(repo.dir);
      await plain.serialize(() => plain.commitChanges({ changes: [{ path: `${POSTS}/b.md`, content: entry('b', 'B') }], message: 'Plain', author: AUTHOR }));
      expect(await git(repo.dir, ['rev-parse', '--shared-index-path'])).to.equal('');
      expect(await git(repo.dir, ['ls-files', POSTS])).to.equal(`${POSTS}/a.md\n${POSTS}/b.md\n`);
      await expectCleanRepo(repo.dir);
      await plain.close();
    });

    it('adds the first commit to an existing repository without commits', async () => {
      const empty = path.join(dir, 'empty');
      await mkdir(empty);
      await git(empty, ['init', '-q', '-b', 'main']);
      const opened = await ContentRepo.open(empty);
      expect(await git(empty, ['log', '--format=%s'])).to.equal('Initialize content repository\n');
      await expectCleanRepo(empty);
      await opened.close();
    });
  });

  describe('commitChanges', () => {
    it('writes one commit with author, message and trailers that the git CLI reads', async () => {
      const info = await commit([{ path: `${POSTS}/hello.md`, content: entry('e1', 'Hello') }], {
        message: 'Create posts/hello',
        trailers: { 'Cms-Workspace': 'blog', 'Cms-Entry': 'e1', 'Cms-Actor': 'user:u1' },
      });
      expect(info.oid).to.equal(await repo.head());
      expect(info.message).to.equal('Create posts/hello');
      expect(info.trailers).to.deep.equal({ 'Cms-Workspace': 'blog', 'Cms-Entry': 'e1', 'Cms-Actor': 'user:u1' });
      expect(info.authorName).to.equal('Ada Lovelace');
      expect(info.authorEmail).to.equal('ada@example.com');
      expect(info.parents).to.have.length(1);
      expect(await git(repo.dir, ['log', '-1', '--format=%H|%an|%ae|%s'])).to.equal(`${info.oid}|Ada Lovelace|ada@example.com|Create posts/hello\n`);
      expect(await git(repo.dir, ['log', '-1', '--format=%(trailers:key=Cms-Entry,valueonly)'])).to.equal('e1\n\n');
      expect(await git(repo.dir, ['log', '-1', '--format=%B'])).to.equal('Create posts/hello\n\nCms-Workspace: blog\nCms-Entry: e1\nCms-Actor: user:u1\n\n');
      expect(await git(repo.dir, ['show', `HEAD:${POSTS}/hello.md`])).to.equal(entry('e1', 'Hello'));
      expect(await repo.readFile(`${POSTS}/hello.md`)).to.equal(entry('e1', 'Hello'));
      await expectCleanRepo(repo.dir);
    });

    it('modifies, adds binary content and deletes in one commit, pruning emptied folders', async () => {
      await commit([
        { path: `${POSTS}/a.md`, content: entry('a', 'A') },
        { path: 'blog/entries/pages/about.md', content: entry('p', 'About') },
      ]);
      const info = await commit([
        { path: `${POSTS}/a.md`, content: entry('a', 'A2') },
        { path: 'blog/media/logo.yaml', content: new Uint8Array([0x61, 0x6c, 0x74, 0x3a, 0x20, 0x78, 0x0a]) },
        { path: 'blog/entries/pages/about.md', content: null },
      ]);
      expect(await repo.listFiles('blog')).to.deep.equal([`${POSTS}/a.md`, 'blog/media/logo.yaml']);
      expect(await repo.listFolders('')).to.deep.equal(['blog']);
      expect(await repo.listFolders('blog')).to.deep.equal(['entries', 'media']);
      expect(await readdir(path.join(repo.dir, 'blog/entries'))).to.deep.equal(['posts']);
      expect(await repo.readFile('blog/media/logo.yaml')).to.equal('alt: x\n');
      expect(await repo.changedPaths(info.parents[0], info.oid)).to.deep.equal([
        { path: 'blog/entries/pages/about.md', change: 'deleted' },
        { path: `${POSTS}/a.md`, change: 'modified' },
        { path: 'blog/media/logo.yaml', change: 'added' },
      ]);
      await expectCleanRepo(repo.dir);
    });

    it('reads what is committed at HEAD, never uncommitted edits, untracked files or symbolic links', async () => {
      await commit([{ path: `${POSTS}/a.md`, content: entry('a', 'Committed') }]);
      await writeFile(path.join(repo.dir, POSTS, 'a.md'), entry('a', 'Edited by hand'));
      await writeFile(path.join(repo.dir, POSTS, 'untracked.md'), entry('u', 'Untracked'));
      await mkdir(path.join(repo.dir, 'blog/untracked-folder'));
      await writeFile(path.join(repo.dir, 'blog/untracked-folder/x.md'), 'x');
      await symlink('a.md', path.join(repo.dir, POSTS, 'link.md'));
      await git(repo.dir, ['add', `${POSTS}/link.md`]);
      await commitByHand(repo.dir, ['-q', '-m', 'Add a link by hand']);
      expect(await repo.readFile(`${POSTS}/a.md`)).to.equal(entry('a', 'Committed'));
      expect(await repo.readFile(`${POSTS}/untracked.md`)).to.equal(undefined);
      expect(await repo.readFile(`${POSTS}/link.md`)).to.equal(undefined);
      expect(await repo.listFiles(POSTS)).to.deep.equal([`${POSTS}/a.md`]);
      expect(await repo.listFolders('blog')).to.deep.equal(['entries']);
    });

    it('reads many files at once exactly as it reads each one (folders looked up once)', async () => {
      const others = ['c', 'd', 'e', 'f', 'g', 'h'].map((slug) => ({ path: `${POSTS}/${slug}.md`, content: entry(slug, slug.toUpperCase()) }));
      await commit([
        ...others,
        { path: `${POSTS}/a.md`, content: entry('a', 'A') },
        { path: `${POSTS}/b.md`, content: entry('b', 'B') },
        { path: 'blog/entries/pages/about.md', content: entry('about', 'About') },
        { path: 'top.md', content: 'top' },
      ]);
      await writeFile(path.join(repo.dir, POSTS, 'b.md'), entry('b', 'Edited by hand'));
      await writeFile(path.join(repo.dir, POSTS, 'untracked.md'), entry('u', 'Untracked'));
      await symlink('a.md', path.join(repo.dir, POSTS, 'link.md'));
      await git(repo.dir, ['add', `${POSTS}/link.md`]);
      await commitByHand(repo.dir, ['-q', '-m', 'Add a link by hand']);
      const paths = [`${POSTS}/b.md`, 'top.md', `${POSTS}/untracked.md`, `${POSTS}/a.md`, 'blog/entries/pages/about.md', `${POSTS}/link.md`, 'nope/x.md', 'blog/entries', `${POSTS}/a.md`];
      const oneByOne = await Promise.all(paths.map((file) => repo.readFile(file)));
      expect(await repo.readFiles(paths)).to.deep.equal(oneByOne);
      expect(oneByOne).to.deep.equal([entry('b', 'B'), 'top', undefined, entry('a', 'A'), entry('about', 'About'), undefined, undefined, undefined, entry('a', 'A')]);
      // A few names of a bigger folder are searched for, not read from a decoded copy of it.
      expect(await repo.readFiles([`${POSTS}/d.md`, `${POSTS}/link.md`])).to.deep.equal([entry('d', 'D'), undefined]);
    });

    it('lists the files under a folder with their blob ids and reads them by those exactly as listing and reading them does', async () => {
      await commit([
        ...['c', 'a', 'b'].map((slug) => ({ path: `${POSTS}/${slug}.md`, content: entry(slug, slug.toUpperCase()) })),
        { path: `${POSTS}/sub/deep.md`, content: entry('deep', 'Deep') },
        { path: `${POSTS}/a-b.md`, content: entry('a-b', 'AB') },
        { path: 'blog/entries/pages/about.md', content: entry('about', 'About') },
      ]);
      await writeFile(path.join(repo.dir, POSTS, 'b.md'), entry('b', 'Edited by hand'));
      await symlink('a.md', path.join(repo.dir, POSTS, 'link.md'));
      await git(repo.dir, ['add', `${POSTS}/link.md`]);
      await commitByHand(repo.dir, ['-q', '-m', 'Add a link by hand']);
      const first = await repo.head();
      for (const prefix of [POSTS, `${POSTS}/`, 'blog', '', 'nope']) {
        const paths = await repo.listFiles(prefix);
        const texts = await repo.readFiles(paths);
        const listed = await repo.listFileIds(prefix);
        expect(listed.map(({ path: file }) => file), prefix).to.deep.equal(paths);
        expect(await repo.readListed(listed), prefix).to.deep.equal(texts);
      }
      expect((await repo.listFileIds(POSTS)).map(({ path: file }) => file)).to.deep.equal([`${POSTS}/a-b.md`, `${POSTS}/a.md`, `${POSTS}/b.md`, `${POSTS}/c.md`, `${POSTS}/sub/deep.md`]);
      const atFirst = await repo.filesAt(first);
      expect(await atFirst.listFileIds(POSTS)).to.deep.equal(await repo.listFileIds(POSTS));
      expect(await atFirst.readListed(await atFirst.listFileIds(POSTS))).to.deep.equal(await repo.readListed(await repo.listFileIds(POSTS)));
      expect((await caughtAppError(repo.listFileIds('../x'))).code).to.equal('invalid_request');
      expect((await caughtAppError(repo.readListed([{ path: '../x', oid: '0'.repeat(40) }]))).code).to.equal('invalid_request');
    });

    it('reads files at earlier commits and lists nothing for missing folders', async () => {
      const first = await commit([{ path: `${POSTS}/a.md`, content: entry('a', 'One') }]);
      await commit([{ path: `${POSTS}/a.md`, content: entry('a', 'Two') }]);
      expect(await repo.readAt(first.oid, `${POSTS}/a.md`)).to.equal(entry('a', 'One'));
      expect(await repo.readAt(first.oid, `${POSTS}/missing.md`)).to.equal(undefined);
      expect(await repo.readFile(`${POSTS}/missing.md`)).to.equal(undefined);
      expect(await repo.listFiles('nope/entries')).to.deep.equal([]);
      expect(await repo.listFolders('nope')).to.deep.equal([]);
      expect((await caughtAppError(repo.readAt('0'.repeat(40), 'README.md'))).code).to.equal('not_found');
      expect((await caughtAppError(repo.readAt('not-an-oid', 'README.md'))).code).to.equal('not_found');
    });

    const invalid: [string, FileChange[]][] = [
      ['an absolute path', [{ path: '/etc/passwd', content: 'x' }]],
      ['a .. segment', [{ path: 'blog/../../escape.md', content: 'x' }]],
      ['a backslash', [{ path: 'blog\\x.md', content: 'x' }]],
      ['a NUL byte', [{ path: 'blog/x\0.md', content: 'x' }]],
      ['a path inside .git', [{ path: '.git/config', content: 'x' }]],
      ['a path inside .GIT', [{ path: '.GIT/hooks/post-commit', content: 'x' }]],
      ['a nested .git folder', [{ path: 'blog/.git/config', content: 'x' }]],
      ['the same path twice', [{ path: 'a.md', content: 'x' }, { path: 'a.md', content: 'y' }]],
      ['a file and a path below it', [{ path: 'a', content: 'x' }, { path: 'a/b.md', content: 'y' }]],
    ];
    for (const [label, changes] of invalid) {
      it(`rejects ${label} with invalid_request and leaves HEAD alone`, async () => {
        const head = await repo.head();
        expect((await caughtAppError(commit(changes))).code).to.equal('invalid_request');
        expect(await repo.head()).to.equal(head);
        await expectCleanRepo(repo.dir);
      });
    }

    it('rejects a trailer key git would not parse', async () => {
      expect((await caughtAppError(commit([{ path: 'a.md', content: 'x' }], { trailers: { 'Bad Key': 'v' } }))).code).to.equal('invalid_request');
    });

    it('refuses to run outside serialize()', async () => {
      const error = await caughtAppError(repo.commitChanges({ changes: [{ path: 'a.md', content: 'x' }], message: 'm', author: AUTHOR }));
      expect(error.code).to.equal('internal_error');
    });

    it('turns 50 concurrent serialized commits into 50 commits with a clean status', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => commit([{ path: `${POSTS}/post-${i}.md`, content: entry(`p${i}`, `Post ${i}`) }], { message: `Create post-${i}` })),
      );
      expect(new Set(results.map((result) => result.oid)).size).to.equal(50);
      expect(await commitCount(repo.dir)).to.equal(51);
      expect(await repo.listFiles(POSTS)).to.have.length(50);
      // FIFO: commit i is the parent of commit i + 1.
      results.slice(1).forEach((result, i) => expect(result.parents).to.deep.equal([results[i].oid]));
      await expectCleanRepo(repo.dir);
    });

    it('moves the branch by relinking two ref files in turn, and never writes into a spare that is still the ref', async () => {
      const refFile = path.join(repo.dir, '.git/refs/heads/main');
      const spareFile = path.join(repo.dir, '.git/cms-ref-spare');
      const first = await commit([{ path: `${POSTS}/a.md`, content: entry('a', 'A') }]);
      const [refInode, spareInode] = [(await stat(refFile)).ino, (await stat(spareFile)).ino];
      const second = await commit([{ path: `${POSTS}/b.md`, content: entry('b', 'B') }]);
      // The replaced ref file is the next spare: no file is created or freed per update.
      expect([(await stat(refFile)).ino, (await stat(spareFile)).ino]).to.deep.equal([spareInode, refInode]);
      expect(await readFile(refFile, 'utf8')).to.equal(`${second.oid}\n`);
      // What a crash between keeping the ref aside and the rename leaves: the spare is the ref itself.
      await rm(spareFile);
      await link(refFile, spareFile);
      const third = await commit([{ path: `${POSTS}/c.md`, content: entry('c', 'C') }]);
      expect(await readFile(refFile, 'utf8')).to.equal(`${third.oid}\n`);
      expect(await git(repo.dir, ['rev-list', 'HEAD'])).to.equal([third.oid, second.oid, first.oid, first.parents[0]].map((oid) => `${oid}\n`).join(''));
      expect(await git(repo.dir, ['reflog', '--format=%H', 'main'])).to.equal([third.oid, second.oid, first.oid, first.parents[0]].map((oid) => `${oid}\n`).join(''));
      await expectCleanRepo(repo.dir);
    });
  });

  describe('failed commits', () => {
    async function snapshot(): Promise<{ head: string; index: Buffer; files: Record<string, string | undefined> }> {
      await serverIndexSettled(repo.dir);
      const files: Record<string, string | undefined> = {};
      for (const file of [`${POSTS}/keep.md`, `${POSTS}/new.md`, 'blocker']) files[file] = await readFile(path.join(repo.dir, file), 'utf8').catch(() => undefined);
      return { head: await repo.head(), index: await readFile(path.join(repo.dir, '.git/index')), files };
    }

    beforeEach(async () => {
      await commit([{ path: `${POSTS}/keep.md`, content: entry('k', 'Keep') }]);
      await writeFile(path.join(repo.dir, 'blocker'), 'an untracked file where a folder is needed\n');
    });

    it('refuses with conflict, writing nothing, when an untracked file stands where a folder is needed', async () => {
      const before = await snapshot();
      const error = await caughtAppError(commit([
        { path: `${POSTS}/keep.md`, content: entry('k', 'Changed') },
        { path: `${POSTS}/new.md`, content: entry('n', 'New') },
        { path: 'blocker/inside.md', content: 'cannot exist' },
      ]));
      expect(error.code).to.equal('conflict');
      expect(error.message).to.contain('"blocker"');
      expect(await snapshot()).to.deep.equal(before);
      await rm(path.join(repo.dir, 'blocker'));
      await expectCleanRepo(repo.dir);
    });

    it('restores everything when the branch ref is locked by another git process', async () => {
      const before = await snapshot();
      await writeFile(path.join(repo.dir, '.git/refs/heads/main.lock'), '');
      const error = await caughtAppError(commit([
        { path: `${POSTS}/keep.md`, content: entry('k', 'Changed') },
        { path: `${POSTS}/new.md`, content: entry('n', 'New') },
      ]));
      expect(error.code).to.equal('conflict');
      expect(await snapshot()).to.deep.equal(before);
      await rm(path.join(repo.dir, '.git/refs/heads/main.lock'));
      await rm(path.join(repo.dir, 'blocker'));
      await expectCleanRepo(repo.dir);
      const next = await commit([{ path: `${POSTS}/new.md`, content: entry('n', 'New') }]);
      expect(next.parents).to.deep.equal([before.head]);
      await expectCleanRepo(repo.dir);
    });

    it('fails with conflict while index.lock is held and writes nothing', async () => {
      const before = await snapshot();
      await writeFile(path.join(repo.dir, '.git/index.lock'), '');
      expect((await caughtAppError(commit([{ path: `${POSTS}/new.md`, content: 'x' }]))).code).to.equal('conflict');
      await rm(path.join(repo.dir, '.git/index.lock'));
      expect(await snapshot()).to.deep.equal(before);
    });

    it('rejects writing a file where the repository has a folder', async () => {
      const before = await snapshot();
      expect((await caughtAppError(commit([{ path: 'blog/entries', content: 'x' }]))).code).to.equal('conflict');
      expect(await snapshot()).to.deep.equal(before);
    });
  });

  describe('commits made outside the server', () => {
    it('reports a git CLI commit through watchHead, never the server’s own, and lists its changes', async () => {
      await commit([
        { path: `${POSTS}/a.md`, content: entry('a', 'A') },
        { path: `${POSTS}/b.md`, content: entry('b', 'B') },
      ]);
      const reports: [string, string][] = [];
      const stop = repo.watchHead(async (from, to) => {
        reports.push([from, to]);
      }, 10);
      const ownHead = (await commit([{ path: `${POSTS}/c.md`, content: entry('c', 'C') }])).oid;

      await writeFile(path.join(repo.dir, POSTS, 'a.md'), entry('a', 'A by hand'));
      await writeFile(path.join(repo.dir, POSTS, 'd.md'), entry('d', 'D by hand'));
      await git(repo.dir, ['rm', '-q', `${POSTS}/b.md`]);
      await git(repo.dir, ['add', '-A']);
      await commitByHand(repo.dir, ['-q', '-m', 'Edit by hand']);
      const external = await headOid(repo.dir);
      await waitFor(() => reports.length === 1);
      expect(reports).to.deep.equal([[ownHead, external]]);
      expect(await repo.changedPaths(ownHead, external)).to.deep.equal([
        { path: `${POSTS}/a.md`, change: 'modified' },
        { path: `${POSTS}/b.md`, change: 'deleted' },
        { path: `${POSTS}/d.md`, change: 'added' },
      ]);

      // The server keeps committing on top of the external commit, with git's own index as the base.
      const after = await commit([{ path: `${POSTS}/e.md`, content: entry('e', 'E') }]);
      expect(after.parents).to.deep.equal([external]);
      await expectCleanRepo(repo.dir);
      await commitByHand(repo.dir, ['-q', '--allow-empty', '-m', 'Second by hand']);
      const second = await headOid(repo.dir);
      await waitFor(() => reports.length === 2);
      stop();
      expect(reports[1]).to.deep.equal([after.oid, second]);
      expect(await repo.changedPaths(after.oid, second)).to.deep.equal([]);
    });

    it('reports a file the server added and a developer then deleted', async () => {
      const reports: [string, string][] = [];
      const stop = repo.watchHead(async (from, to) => {
        reports.push([from, to]);
      }, 10);
      const own = await commit([{ path: `${POSTS}/f.md`, content: entry('f', 'F') }]);
      await git(repo.dir, ['rm', '-q', `${POSTS}/f.md`]);
      await commitByHand(repo.dir, ['-q', '-m', 'Remove f by hand']);
      const external = await headOid(repo.dir);
      await waitFor(() => reports.length === 1);
      stop();
      expect(reports).to.deep.equal([[own.oid, external]]);
      expect(await repo.changedPaths(own.oid, external)).to.deep.equal([{ path: `${POSTS}/f.md`, change: 'deleted' }]);
    });

    it('reports each run of foreign commits separately when they interleave with the server’s', async () => {
      const base = await commit([{ path: `${POSTS}/a.md`, content: entry('a', 'A') }]);
      await writeFile(path.join(repo.dir, POSTS, 'a.md'), entry('a', 'A by hand'));
      await commitByHand(repo.dir, ['-q', '-am', 'Edit a by hand']);
      const firstExternal = await headOid(repo.dir);
      const own = await commit([{ path: `${POSTS}/f.md`, content: entry('f', 'F') }]);
      await git(repo.dir, ['rm', '-q', `${POSTS}/f.md`]);
      await commitByHand(repo.dir, ['-q', '-m', 'Remove f by hand']);
      const secondExternal = await headOid(repo.dir);

      const reports: [string, string][] = [];
      const stop = repo.watchHead(async (from, to) => {
        reports.push([from, to]);
      }, 10, { since: base.oid });
      await waitFor(() => reports.length === 2);
      stop();
      expect(own.parents).to.deep.equal([firstExternal]);
      expect(reports).to.deep.equal([
        [base.oid, firstExternal],
        [own.oid, secondExternal],
      ]);
      expect(await repo.changedPaths(own.oid, secondExternal)).to.deep.equal([{ path: `${POSTS}/f.md`, change: 'deleted' }]);
    });

    it('lists changes under a prefix only', async () => {
      const first = await commit([{ path: `${POSTS}/a.md`, content: 'a' }, { path: 'blog/types/post.yaml', content: 'name: post\n' }]);
      const second = await commit([{ path: `${POSTS}/a.md`, content: 'a2' }, { path: 'blog/types/post.yaml', content: 'name: post2\n' }]);
      expect(await repo.changedPaths(first.oid, second.oid, 'blog/types/')).to.deep.equal([{ path: 'blog/types/post.yaml', change: 'modified' }]);
      expect(await repo.changedPaths(first.oid, second.oid, 'other')).to.deep.equal([]);
    });

    it('keeps working after git gc packs objects and refs', async () => {
      const first = await commit([{ path: `${POSTS}/a.md`, content: entry('a', 'One') }]);
      await commit([{ path: `${POSTS}/a.md`, content: entry('a', 'Two') }]);
      await git(repo.dir, ['gc', '-q', '--prune=now']);
      const reopened = await ContentRepo.open(repo.dir);
      expect(await reopened.readAt(first.oid, `${POSTS}/a.md`)).to.equal(entry('a', 'One'));
      const third = await reopened.serialize(() =>
        reopened.commitChanges({ changes: [{ path: `${POSTS}/a.md`, content: entry('a', 'Three') }], message: 'After gc', author: AUTHOR }),
      );
      expect((await reopened.log({ paths: [`${POSTS}/a.md`] })).map((info) => info.oid)).to.deep.equal([third.oid, third.parents[0], first.oid]);
      await expectCleanRepo(repo.dir);
      await reopened.close();
    });
  });

  describe('history', () => {
    const hasId = (id: string) => (_path: string, content: string) => content.includes(`\nid: ${id}\n`);

    it('logs the commits of a path and follows a slug rename by entry id', async () => {
      const created = await commit([{ path: `${POSTS}/hello.md`, content: entry('e1', 'Hello') }], { message: 'Create' });
      await commit([{ path: `${POSTS}/other.md`, content: entry('e2', 'Other') }], { message: 'Unrelated' });
      const translated = await commit([{ path: `${POSTS}/hello.de.md`, content: entry('e1', 'Hallo') }], { message: 'Translate' });
      const renamed = await commit(
        [
          { path: `${POSTS}/hello.md`, content: null },
          { path: `${POSTS}/hello.de.md`, content: null },
          { path: `${POSTS}/world.md`, content: entry('e1', 'World') },
          { path: `${POSTS}/world.de.md`, content: entry('e1', 'Welt') },
        ],
        { message: 'Rename' },
      );
      const updated = await commit([{ path: `${POSTS}/world.md`, content: entry('e1', 'World!') }], { message: 'Update' });
      const current = [`${POSTS}/world.md`, `${POSTS}/world.de.md`];

      const plain = await repo.log({ paths: current });
      expect(plain.map((info) => info.message)).to.deep.equal(['Update', 'Rename']);
      const followed = await repo.log({ paths: current, follow: hasId('e1') });
      expect(followed.map((info) => info.oid)).to.deep.equal([updated.oid, renamed.oid, translated.oid, created.oid]);
      expect((await repo.log({ paths: current, follow: hasId('e1'), limit: 2 })).map((info) => info.message)).to.deep.equal(['Update', 'Rename']);
      const byContent = await repo.logByContent({ prefix: 'blog/entries/', match: hasId('e1') });
      expect(byContent.map((info) => info.message)).to.deep.equal(['Update', 'Rename', 'Translate', 'Create']);
      expect(followed[0].timestamp).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    });

    it('follows an entry into the trash and back', async () => {
      await commit([{ path: `${POSTS}/a.md`, content: entry('e9', 'A') }], { message: 'Create' });
      await commit([{ path: `${POSTS}/a.md`, content: null }, { path: 'blog/trash/posts/a.md', content: entry('e9', 'A') }], { message: 'Trash' });
      await commit([{ path: 'blog/trash/posts/a.md', content: null }, { path: `${POSTS}/a.md`, content: entry('e9', 'A') }], { message: 'Restore' });
      const messages = (await repo.log({ paths: [`${POSTS}/a.md`], follow: hasId('e9') })).map((info) => info.message);
      expect(messages).to.deep.equal(['Restore', 'Trash', 'Create']);
    });

    it('includes commits made with the git CLI', async () => {
      await commit([{ path: `${POSTS}/a.md`, content: entry('a', 'One') }], { message: 'Server' });
      await writeFile(path.join(repo.dir, POSTS, 'a.md'), entry('a', 'Two'));
      await commitByHand(repo.dir, ['-q', '-am', 'By hand']);
      const log = await repo.log({ paths: [`${POSTS}/a.md`] });
      expect(log.map((info) => [info.message, info.authorName])).to.deep.equal([
        ['By hand', EXTERNAL_AUTHOR.name],
        ['Server', 'Ada Lovelace'],
      ]);
    });
  });

  describe('large folders', () => {
    it('commits into a folder of 2,000 files and stays consistent with git', async () => {
      const seed = Array.from({ length: 2000 }, (_, i) => ({ path: `${POSTS}/entry-${String(i).padStart(4, '0')}.md`, content: entry(`s${i}`, `Seed ${i}`) }));
      await commit(seed, { message: 'Seed' });
      for (let i = 0; i < 150; i += 1) {
        await commit([{ path: `${POSTS}/entry-${String(i * 7).padStart(4, '0')}.md`, content: i % 3 === 0 ? null : entry(`s${i}`, `Edited ${i}`) }]);
        await commit([{ path: `${POSTS}/zz-new-${i}.md`, content: entry(`n${i}`, `New ${i}`) }]);
      }
      expect(await repo.listFiles(POSTS)).to.have.length(2000 - 50 + 150);
      expect(await git(repo.dir, ['ls-files', POSTS])).to.equal(`${(await repo.listFiles(POSTS)).join('\n')}\n`);
      await expectCleanRepo(repo.dir);
    });
  });
});
