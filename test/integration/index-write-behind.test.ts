// The git index of a burst of commits is written once the burst pauses
// (storage/index-write-behind.ts): a lone commit still leaves the index
// matching HEAD before it returns, a burst holds index.lock until its index
// is written, and a server killed meanwhile is settled by the next start.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import { git, serverIndexSettled } from '../helpers/git.ts';

const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const POSTS = 'blog/entries/posts';

describe('index writes after bursts of commits', () => {
  let root: string;
  let dir: string;
  let lockFile: string;

  const open = () => ContentRepo.open(dir, { lockWaitMs: 50, packing: false });
  const commitOne = (repo: ContentRepo, name: string) =>
    repo.serialize(() => repo.commitChanges({ changes: [{ path: `${POSTS}/${name}.md`, content: `${name}\n` }], message: `Create ${name}`, author: AUTHOR }));
  const burst = async (repo: ContentRepo, names: string[]) => {
    for (const name of names) await commitOne(repo, name);
  };
  // git itself, without the test helper's wait for the server's lock.
  const gitNow = (...args: string[]) => spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'index-write-behind-'));
    dir = path.join(root, 'content');
    lockFile = path.join(dir, '.git/index.lock');
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes a lone commit’s index before the commit returns', async () => {
    const repo = await open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await commitOne(repo, 'alone');
    expect(existsSync(lockFile)).to.equal(false);
    expect(gitNow('status', '--porcelain', '--untracked-files=all').stdout).to.equal('');
    await repo.close();
  });

  it('keeps index.lock through a burst, so git cannot commit from the stale index, then writes the index once the commits pause', async () => {
    const repo = await open();
    await burst(repo, ['a', 'b', 'c', 'd']);
    expect(existsSync(lockFile)).to.equal(true);
    const refused = gitNow('-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '--allow-empty', '-qm', 'By hand');
    expect(refused.status).to.not.equal(0);
    expect(refused.stderr).to.contain('index.lock');
    for (let waited = 0; existsSync(lockFile) && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(lockFile)).to.equal(false);
    expect(gitNow('status', '--porcelain', '--untracked-files=all').stdout).to.equal('');
    expect(gitNow('ls-files', POSTS).stdout.split('\n').filter(Boolean)).to.deep.equal(['a', 'b', 'c', 'd'].map((name) => `${POSTS}/${name}.md`));
    await repo.close();
  });

  it('writes the index once a burst pauses even while a long task holds the write queue, so git can commit meanwhile', async () => {
    const repo = await open();
    let endTask = () => {};
    const taskHeld = new Promise<void>((resolve) => (endTask = resolve));
    let burstDone = () => {};
    const burstEnded = new Promise<void>((resolve) => (burstDone = resolve));
    // A burst, then a task that keeps the queue without committing (a push being validated).
    const burstThenTask = repo.serialize(async () => {
      for (const name of ['a', 'b']) await repo.commitChanges({ changes: [{ path: `${POSTS}/${name}.md`, content: `${name}\n` }], message: `Create ${name}`, author: AUTHOR });
      expect(existsSync(lockFile), 'the burst left its index pending').to.equal(true);
      burstDone();
      await taskHeld;
    });
    try {
      await Promise.race([burstEnded, burstThenTask]);
      await serverIndexSettled(dir, { timeoutMs: 5000 });
      await writeFile(path.join(dir, 'notes.md'), 'notes\n');
      const added = gitNow('add', 'notes.md');
      expect(added.status, added.stderr).to.equal(0);
      const byHand = gitNow('-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-qm', 'By hand');
      expect(byHand.status, byHand.stderr).to.equal(0);
    } finally {
      endTask();
      await burstThenTask;
    }
    expect(gitNow('status', '--porcelain', '--untracked-files=all').stdout).to.equal('');
    expect(gitNow('ls-tree', '-r', '--name-only', 'HEAD').stdout.split('\n').filter(Boolean)).to.include.members([`${POSTS}/a.md`, `${POSTS}/b.md`, 'notes.md']);
    await repo.close();
  });

  it('writes the index of a long burst as git sees the branch, leaving out commits that failed midway', async () => {
    // Hundreds of edits layered on one index (split-index.ts, index-delta.ts),
    // and commits that fail after their edit: the burst goes on from the index before them.
    const repo = await open();
    const branchLock = path.join(dir, '.git/refs/heads/main.lock');
    const present = new Set<string>();
    for (let i = 0; i < 300; i += 1) {
      const file = `${POSTS}/p${(i * 7) % 40}.md`;
      const remove = present.has(file) && i % 4 === 3;
      await repo.serialize(() => repo.commitChanges({ changes: [{ path: file, content: remove ? null : `v${i}\n` }], message: `Write ${i}`, author: AUTHOR }));
      if (remove) present.delete(file);
      else present.add(file);
      if (i % 60 !== 59) continue;
      await writeFile(branchLock, '');
      const failed = await repo
        .serialize(() => repo.commitChanges({ changes: [{ path: `${POSTS}/failed-${i}.md`, content: 'never\n' }], message: 'Fails', author: AUTHOR }))
        .then(() => undefined, (error: unknown) => error);
      expect(failed).to.have.property('code', 'conflict');
      await rm(branchLock);
    }
    await repo.close();
    expect(gitNow('status', '--porcelain', '--untracked-files=all').stdout).to.equal('');
    const staged = gitNow('ls-files', '-s').stdout.split('\n').filter(Boolean).map((line) => line.replace(/^(\d+) ([0-9a-f]{40}) 0\t/, '$1 blob $2\t'));
    expect(staged).to.deep.equal(gitNow('ls-tree', '-r', 'HEAD').stdout.split('\n').filter(Boolean));
    expect(staged.filter((line) => line.endsWith('.md') && line.includes(POSTS)).map((line) => line.split('\t')[1]).sort()).to.deep.equal([...present].sort());
  });

  it('shows git an edit made while the index write was pending, even one of the same size in the same second', async () => {
    // git compares an index entry with its file by size, inode and times to
    // the second, and trusts a match when the index file is newer than the
    // file. An edit right after a commit, before the index the commit left
    // pending is written in a later second, would stay invisible to git
    // status and git commit -a for good.
    const repo = await open();
    const file = `${POSTS}/a.md`;
    const target = path.join(dir, file);
    await repo.serialize(async () => {
      for (const content of ['one\n', 'two\n']) await repo.commitChanges({ changes: [{ path: file, content }], message: 'Write a', author: AUTHOR });
      expect(existsSync(lockFile), 'the second commit left its index pending').to.equal(true);
      const written = statSync(target);
      writeFileSync(target, 'new\n');
      utimesSync(target, written.atime, written.mtime);
      // Holds the event loop (and so the write-behind's timer) until the next second: the pending index is written after the edit, in a later second.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, (Math.floor(written.mtimeMs / 1000) + 1) * 1000 + 50 - Date.now());
    });
    await serverIndexSettled(dir);
    // Its ctime may have moved to the next second; in the race both fall in the same one.
    const sameSecond = ['-c', 'core.trustctime=false'];
    expect(gitNow(...sameSecond, 'status', '--porcelain').stdout).to.equal(` M ${file}\n`);
    const byHand = gitNow(...sameSecond, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-qam', 'By hand');
    expect(byHand.status, byHand.stdout + byHand.stderr).to.equal(0);
    expect(gitNow('show', `HEAD:${file}`).stdout).to.equal('new\n');
    await repo.close();
  });

  it('never writes over what a developer’s git staged after index.lock was removed by hand, nor removes git’s own lock', async () => {
    const repo = await open();
    const commitIn = (name: string) => repo.commitChanges({ changes: [{ path: `${POSTS}/${name}.md`, content: `${name}\n` }], message: `Create ${name}`, author: AUTHOR });
    await repo.serialize(async () => {
      await commitIn('a');
      await commitIn('b');
      expect(existsSync(lockFile), 'the burst left its index pending').to.equal(true);
      // What git's own message advises when index.lock is in its way (synchronous
      // steps from here on, so the write-behind's timer cannot come in between).
      rmSync(lockFile);
      writeFileSync(path.join(dir, 'notes.md'), 'notes\n');
      writeFileSync(path.join(dir, POSTS, 'a.md'), 'a, edited by hand\n');
      expect(gitNow('add', 'notes.md', `${POSTS}/a.md`).status).to.equal(0);
      await commitIn('c');
      await commitIn('d');
      expect(existsSync(lockFile), 'the server took index.lock again').to.equal(true);
      // A git command holding index.lock while the pending index is due.
      rmSync(lockFile);
      writeFileSync(lockFile, 'git at work');
      expect(await repo.holdIndex().then((hold) => hold.release(), (error: unknown) => error)).to.have.property('code', 'conflict');
      expect(await readFile(lockFile, 'utf8')).to.equal('git at work');
      expect(gitNow('ls-files', 'notes.md').stdout, 'the index git wrote stays').to.equal('notes.md\n');
      await rm(lockFile);
      (await repo.holdIndex()).release();
    });
    expect(existsSync(lockFile)).to.equal(false);
    expect(gitNow('status', '--porcelain', '--untracked-files=all').stdout).to.equal(`M  ${POSTS}/a.md\nA  notes.md\n`);
    expect(gitNow('show', `:${POSTS}/a.md`).stdout).to.equal('a, edited by hand\n');
    expect(gitNow('ls-files', POSTS).stdout.split('\n').filter(Boolean)).to.deep.equal(['a', 'b', 'c', 'd'].map((name) => `${POSTS}/${name}.md`));
    await repo.close();
  });

  it('writes a pending index when the repository closes', async () => {
    const repo = await open();
    await burst(repo, ['a', 'b']);
    await repo.close();
    expect(existsSync(lockFile)).to.equal(false);
    expect(gitNow('status', '--porcelain', '--untracked-files=all').stdout).to.equal('');
  });

  it('reports a failed index write at close once, schedules nothing after it, and leaves the old index whole and locked for the next start', async () => {
    const errors: string[] = [];
    const logger = { info: () => undefined, error: (message: string) => errors.push(message) };
    const repo = await ContentRepo.open(dir, { lockWaitMs: 50, packing: false, logger });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await commitOne(repo, 'before');
    const indexFile = path.join(dir, '.git/index');
    const before = await readFile(indexFile);
    const aside = path.join(root, 'index.aside');
    await repo.serialize(async () => {
      for (const name of ['a', 'b']) await repo.commitChanges({ changes: [{ path: `${POSTS}/${name}.md`, content: `${name}\n` }], message: `Create ${name}`, author: AUTHOR });
      expect(existsSync(lockFile), 'the burst left its index pending').to.equal(true);
      // The index cannot be replaced (a folder in its place), as on a full disk; synchronous, so the write-behind's timer cannot come in between.
      renameSync(indexFile, aside);
      mkdirSync(path.join(indexFile, 'in-the-way'), { recursive: true });
    });
    await repo.close();
    expect(errors).to.have.length(1);
    // The disk is fine again: a retry scheduled at close would now write the index and drop the lock behind a closed repository.
    rmSync(indexFile, { recursive: true });
    renameSync(aside, indexFile);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(errors).to.have.length(1);
    expect(existsSync(lockFile), 'index.lock keeps git from committing the stale index').to.equal(true);
    expect(await readFile(indexFile)).to.deep.equal(before);
    // The process ends; the next start finds its lock and journals and brings the index up to date.
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    const journals = (await readFile(lockFile, 'utf8')).split('\n').slice(1).join('\n');
    await writeFile(lockFile, `git-cms pid=${pid} start=1 host=${os.hostname().replace(/\s+/g, '_')}\n${journals}`);
    const reopened = await open();
    expect(existsSync(lockFile)).to.equal(false);
    expect(await git(dir, ['status', '--porcelain', '--untracked-files=all'])).to.equal('');
    expect((await git(dir, ['ls-files', POSTS])).split('\n').filter(Boolean)).to.deep.equal(['a', 'b', 'before'].map((name) => `${POSTS}/${name}.md`));
    await reopened.close();
  });

  it('brings the index up to date for every commit of a burst a kill left pending', async () => {
    const repo = await open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await commitOne(repo, 'before');
    const staleIndex = path.join(root, 'index.stale');
    await copyFile(path.join(dir, '.git/index'), staleIndex);
    await burst(repo, ['a', 'b', 'c']);
    // What a kill -9 leaves: the lock with the journals of the burst's commits, and the index from before it.
    const journals = (await readFile(lockFile, 'utf8')).split('\n').slice(1).join('\n');
    expect(journals.split('\n').filter(Boolean)).to.have.length(3);
    await repo.close();
    await copyFile(staleIndex, path.join(dir, '.git/index'));
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    await writeFile(lockFile, `git-cms pid=${pid} start=1 host=${os.hostname().replace(/\s+/g, '_')}\n${journals}`);
    expect(gitNow('ls-files', POSTS).stdout).to.not.contain('a.md');
    const reopened = await open();
    expect(existsSync(lockFile)).to.equal(false);
    expect(await git(dir, ['status', '--porcelain', '--untracked-files=all'])).to.equal('');
    expect((await git(dir, ['ls-files', POSTS])).split('\n').filter(Boolean)).to.deep.equal(['a', 'b', 'before', 'c'].map((name) => `${POSTS}/${name}.md`));
    await reopened.close();
  });
});
