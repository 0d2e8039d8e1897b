// Git hygiene of the content repository (issue 14, item 1, and "Bad input and
// faults"): reflogs like git's, repositories the writer cannot write refused
// at start with a message naming the problem, an index that cannot be read
// never replaced, and a repository damaged by hand (a bad ref, a truncated
// object) refused instead of being written over.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { StartupError } from '../../src/errors/startup-error.ts';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import { caughtAppError } from '../helpers/errors.ts';
import { commitByHand, externalCommit, git } from '../helpers/git.ts';

const run = promisify(execFile);
const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };

async function refusal(dir: string): Promise<StartupError> {
  try {
    const repo = await ContentRepo.open(dir, { packing: false });
    await repo.close();
  } catch (error) {
    if (error instanceof StartupError) return error;
    throw error;
  }
  throw new Error('Expected the repository to be refused.');
}

describe('content repository format', () => {
  let root: string;
  let dir: string;

  const commit = (repo: ContentRepo, file: string, text: string, message = `Write ${file}`) =>
    repo.serialize(() => repo.commitChanges({ changes: [{ path: file, content: text }], message, author: AUTHOR }));

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'repo-format-'));
    dir = path.join(root, 'content');
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  describe('reflogs', () => {
    it('records every commit in the reflogs of HEAD and the branch, as git does', async () => {
      const repo = await ContentRepo.open(dir, { packing: false });
      const first = await repo.head();
      const second = await commit(repo, 'a.md', 'A\n', 'Create a');
      await repo.close();
      for (const ref of ['HEAD', 'main']) {
        expect(await git(dir, ['reflog', 'show', '--format=%H %gs', ref])).to.equal(`${second.oid} commit: Create a\n${first} commit (initial): Initialize content repository\n`);
      }
      expect((await git(dir, ['rev-parse', 'main@{1}'])).trim()).to.equal(first);
      expect(await git(dir, ['log', '-g', '-1', '--format=%gn <%ge>'])).to.equal('Ada Lovelace <ada@example.com>\n');
    });

    it('creates no reflog when core.logAllRefUpdates is false, and extends existing ones', async () => {
      await mkdir(dir);
      await run('git', ['init', '-q', '-b', 'main', dir]);
      await git(dir, ['config', 'core.logAllRefUpdates', 'false']);
      const repo = await ContentRepo.open(dir, { packing: false });
      await commit(repo, 'a.md', 'A\n');
      await repo.close();
      expect(await git(dir, ['reflog', 'show', 'main'])).to.equal('');
    });
  });

  describe('repositories the writer does not support', () => {
    it('refuses a .git file (a linked worktree) and writes nothing', async () => {
      const main = path.join(root, 'main');
      await mkdir(main);
      await run('git', ['init', '-q', '-b', 'main', main]);
      await commitByHand(main, ['-q', '--allow-empty', '-m', 'First']);
      await git(main, ['worktree', 'add', '-q', dir]);
      expect((await refusal(dir)).message).to.contain('linked worktree');
      expect(await git(dir, ['status', '--porcelain'])).to.equal('');
      expect(await git(dir, ['rev-list', '--count', 'HEAD'])).to.equal('1\n');
    });

    it('refuses SHA-256 object names', async () => {
      await mkdir(dir);
      await run('git', ['init', '-q', '--object-format=sha256', dir]);
      expect((await refusal(dir)).message).to.contain('sha256 (extensions.objectFormat)');
    });

    const configured: [string, string, string, string][] = [
      ['reftable refs', 'extensions.refStorage', 'reftable', 'stored as reftable (extensions.refStorage)'],
      ['a partial clone', 'extensions.partialClone', 'origin', 'extensions.partialclone'],
      ['an unknown extension', 'extensions.somethingNew', 'true', 'extensions.somethingnew'],
    ];
    for (const [label, key, value, named] of configured) {
      it(`refuses ${label} (${key}) and writes no commit`, async () => {
        await mkdir(dir);
        await run('git', ['init', '-q', '-b', 'main', dir]);
        await git(dir, ['config', 'core.repositoryFormatVersion', '1']);
        await git(dir, ['config', key, value]);
        expect((await refusal(dir)).message).to.contain(named);
        expect(await readFile(path.join(dir, '.git/refs/heads/main')).catch(() => undefined)).to.equal(undefined);
      });
    }

    it('accepts preciousObjects and worktreeConfig', async () => {
      await mkdir(dir);
      await run('git', ['init', '-q', '-b', 'main', dir]);
      await git(dir, ['config', 'core.repositoryFormatVersion', '1']);
      await git(dir, ['config', 'extensions.preciousObjects', 'true']);
      await git(dir, ['config', 'extensions.worktreeConfig', 'true']);
      const repo = await ContentRepo.open(dir);
      await commit(repo, 'a.md', 'A\n');
      await repo.close();
      await git(dir, ['fsck', '--strict']);
    });
  });

  describe('an index that cannot be read', () => {
    it('is refused at start and left as it is', async () => {
      const repo = await ContentRepo.open(dir, { packing: false });
      await repo.close();
      await writeFile(path.join(dir, '.git/index'), 'not an index');
      expect((await refusal(dir)).message).to.contain('git index');
      expect(await readFile(path.join(dir, '.git/index'), 'utf8')).to.equal('not an index');
    });

    it('fails a write with internal_error and keeps what a developer staged', async () => {
      const repo = await ContentRepo.open(dir, { packing: false });
      await writeFile(path.join(dir, 'staged.md'), 'staged\n');
      await git(dir, ['add', 'staged.md']);
      const index = await readFile(path.join(dir, '.git/index'));
      const damaged = Buffer.from(index);
      damaged[damaged.length - 1] ^= 0xff;
      await writeFile(path.join(dir, '.git/index'), damaged);
      const head = await repo.head();
      const error = await caughtAppError(commit(repo, 'a.md', 'A\n'));
      expect(error.code).to.equal('internal_error');
      expect(error.message).to.contain('checksum');
      expect(await readFile(path.join(dir, '.git/index'))).to.deep.equal(damaged);
      expect(await repo.head()).to.equal(head);
      expect(await readFile(path.join(dir, 'a.md')).catch(() => 'missing')).to.equal('missing');
      await writeFile(path.join(dir, '.git/index'), index);
      expect(await git(dir, ['diff', '--cached', '--name-only'])).to.equal('staged.md\n');
      await repo.close();
    });
  });

  describe('a repository damaged by hand', () => {
    it('refuses a branch ref that holds no commit id, instead of starting a new history', async () => {
      const repo = await ContentRepo.open(dir, { packing: false });
      await repo.close();
      await writeFile(path.join(dir, '.git/refs/heads/main'), 'garbage\n');
      expect((await refusal(dir)).message).to.contain('the ref refs/heads/main does not hold a commit id');
      expect(await readFile(path.join(dir, '.git/refs/heads/main'), 'utf8')).to.equal('garbage\n');
    });

    it('refuses a HEAD that names neither a branch nor a commit', async () => {
      const repo = await ContentRepo.open(dir, { packing: false });
      await repo.close();
      await writeFile(path.join(dir, '.git/HEAD'), 'nonsense\n');
      expect((await refusal(dir)).message).to.contain('HEAD');
    });

    it('answers internal_error for a history read from a damaged pack, naming it, and keeps committing', async () => {
      const repo = await ContentRepo.open(dir, { packing: false });
      const first = await commit(repo, 'a.md', 'A\n');
      const packDir = path.join(dir, '.git/objects/pack');
      for (const name of await readdir(packDir)) if (name.endsWith('.pack')) await truncate(path.join(packDir, name), 12);
      await commit(repo, 'a.md', 'A changed\n');
      // The working tree no longer holds the first version: it must come from the damaged pack.
      const error = await caughtAppError(repo.readAt(first.oid, 'a.md'));
      expect(error.code).to.equal('internal_error');
      expect(error.message).to.match(/damaged: the pack pack-[0-9a-f]{40}/);
      const next = await commit(repo, 'b.md', 'B\n');
      expect(await repo.readAt(next.oid, 'b.md')).to.equal('B\n');
      await repo.close();
    });

    // A developer's commits leave loose objects (the server writes packs: git/commit-packs.ts).
    it('refuses a truncated HEAD commit object, naming it', async () => {
      const repo = await ContentRepo.open(dir, { packing: false });
      await repo.close();
      const head = await externalCommit(dir, { write: { 'a.md': 'A\n' } }, 'Create a');
      await truncate(path.join(dir, '.git/objects', head.slice(0, 2), head.slice(2)), 10);
      expect((await refusal(dir)).message).to.contain(`the git object ${head} cannot be read`);
    });

    it('answers internal_error for a history read of a truncated blob, keeps committing, and reads the copy a later commit stored', async () => {
      const first = await ContentRepo.open(dir, { packing: false });
      await first.close();
      const written = await externalCommit(dir, { write: { 'a.md': 'A\n' } }, 'Create a');
      const blob = (await git(dir, ['rev-parse', 'HEAD:a.md'])).trim();
      await truncate(path.join(dir, '.git/objects', blob.slice(0, 2), blob.slice(2)), 5);
      const repo = await ContentRepo.open(dir, { packing: false });
      const error = await caughtAppError(repo.readAt(written, 'a.md'));
      expect(error.code).to.equal('internal_error');
      expect(error.message).to.contain(blob);
      await commit(repo, 'b.md', 'A\n');
      expect(await repo.readAt(written, 'a.md')).to.equal('A\n');
      await repo.close();
      // git drops a loose object that a pack also holds; the damaged copy goes with it.
      await git(dir, ['prune-packed']);
      await git(dir, ['fsck', '--strict']);
    });
  });
});
