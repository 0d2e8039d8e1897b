// The test helper that waits for the server's pending index write
// (helpers/git.ts serverIndexSettled): it returns once the server lets go of
// index.lock, ignores a lock git, a test or a killed server left, and fails,
// rather than returning quietly, when a running server's lock outlives its
// deadline.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import { ownerLine } from '../../src/storage/git/lock-owner.ts';
import { serverIndexSettled } from '../helpers/git.ts';

const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };

describe('serverIndexSettled (test helper)', () => {
  let root: string;
  let repo: ContentRepo;
  let lockFile: string;

  const commitOne = (name: string) =>
    repo.serialize(() => repo.commitChanges({ changes: [{ path: `posts/${name}.md`, content: `${name}\n` }], message: `Create ${name}`, author: AUTHOR }));

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'index-settled-'));
    repo = await ContentRepo.open(path.join(root, 'content'), { packing: false });
    lockFile = path.join(repo.dir, '.git/index.lock');
  });

  afterEach(async () => {
    await rm(lockFile, { force: true });
    await repo.close();
    await rm(root, { recursive: true, force: true });
  });

  it('returns once the server has written the index a burst of commits left pending', async () => {
    for (const name of ['a', 'b', 'c']) await commitOne(name);
    expect(existsSync(lockFile), 'the burst left its index pending').to.equal(true);
    await serverIndexSettled(repo.dir);
    expect(existsSync(lockFile)).to.equal(false);
  });

  it('does not wait for a lock that git or a test made', async () => {
    await writeFile(lockFile, '');
    await serverIndexSettled(repo.dir, { timeoutMs: 100 });
    expect(existsSync(lockFile)).to.equal(true);
  });

  it('does not wait for the lock of a killed server, which only its next start settles', async () => {
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    await writeFile(lockFile, `git-cms pid=${pid} start=1 host=${os.hostname().replace(/\s+/g, '_')}\n`);
    await serverIndexSettled(repo.dir, { timeoutMs: 100 });
    expect(existsSync(lockFile)).to.equal(true);
  });

  it('throws at its deadline, naming the lock, while the server’s lock stays', async () => {
    await writeFile(lockFile, ownerLine());
    const failure = await serverIndexSettled(repo.dir, { timeoutMs: 100 }).then(() => undefined, (error: unknown) => error);
    expect(failure).to.be.an('error');
    expect((failure as Error).message).to.contain('gave up after 100 ms').and.contain(lockFile).and.contain('git-cms pid=');
  });
});
