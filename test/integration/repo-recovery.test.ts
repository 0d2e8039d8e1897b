// Start-up recovery of the content repository (issue 10, crash safety 1–3):
// the states a kill -9 can leave at each step of a commit, built by hand on a
// real repository, then settled by ContentRepo.open(). The end-to-end proof
// with a real server killed at random moments is test/api/crash-recovery.test.ts.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../src/lib/logger.ts';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import type { FileChange } from '../../src/storage/content-repo.ts';
import { ownerLine } from '../../src/storage/git/lock-owner.ts';
import { caughtAppError } from '../helpers/errors.ts';
import { collectingLogger } from '../helpers/collecting-logger.ts';
import { git } from '../helpers/git.ts';

const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const POSTS = 'blog/entries/posts';

function blobId(text: string): string {
  const data = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

// The owner line of a process that has exited: its lock is a dead server's.
function deadOwnerLine(): string {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return `git-cms pid=${pid} start=1 host=${os.hostname().replace(/\s+/g, '_')}\n`;
}

function journalLine(journal: { base: string | null; commit: string; index?: string; files: Record<string, string | null> }): string {
  return `${JSON.stringify({ ref: 'refs/heads/main', index: 'cms-0123456789ab.tmp', ...journal })}\n`;
}

async function expectCleanRepo(dir: string): Promise<void> {
  expect(await git(dir, ['status', '--porcelain', '--untracked-files=all'])).to.equal('');
  await git(dir, ['fsck', '--no-progress', '--strict']);
  // No lock and no temp file with anything in it: cms-ref-spare is the file the next ref update writes (git/refs.ts), and empty ones are made ahead for the next commit packs (files-ahead.ts).
  const names = await readdir(path.join(dir, '.git'));
  const leftOver = names.filter((name) => name.endsWith('.lock') || (name.startsWith('cms-') && name !== 'cms-ref-spare' && statSync(path.join(dir, '.git', name)).size > 0));
  expect(leftOver).to.deep.equal([]);
}

describe('content repository recovery at start', () => {
  let root: string;
  let dir: string;
  let lockFile: string;

  const open = (logger?: Logger) => ContentRepo.open(dir, { lockWaitMs: 50, packing: false, logger });
  const commitWith = async (repo: ContentRepo, changes: FileChange[]) =>
    repo.serialize(() => repo.commitChanges({ changes, message: 'Update content', author: AUTHOR }));
  const write = (file: string, text: string) => writeFile(path.join(dir, file), text);
  const read = (file: string) => readFile(path.join(dir, file), 'utf8');

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'repo-recovery-'));
    dir = path.join(root, 'content');
    lockFile = path.join(dir, '.git/index.lock');
    const repo = await open();
    await commitWith(repo, [
      { path: `${POSTS}/a.md`, content: 'A committed\n' },
      { path: `${POSTS}/c.md`, content: 'C committed\n' },
      { path: `${POSTS}/d.md`, content: 'D committed\n' },
    ]);
    await repo.close();
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  it('rolls back a commit killed before its branch moved: files written come back, temp files and locks go', async () => {
    const head = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    const fakeCommit = 'f'.repeat(40);
    await write(`${POSTS}/a.md`, 'A written by the killed server\n');
    await write(`${POSTS}/.a.md.0123456789ab.tmp`, 'A half-written');
    await write(`${POSTS}/b.md`, 'B written by the killed server\n');
    await unlink(path.join(dir, `${POSTS}/c.md`));
    await write(`${POSTS}/d.md`, 'D edited by a developer\n');
    await writeFile(path.join(dir, '.git/refs/heads/main.lock'), `${fakeCommit}\n`);
    await writeFile(path.join(dir, '.git/cms-0123456789ab.tmp'), 'a half-written index');
    await writeFile(
      lockFile,
      deadOwnerLine() +
        journalLine({
          base: head,
          commit: fakeCommit,
          files: { [`${POSTS}/a.md`]: blobId('A written by the killed server\n'), [`${POSTS}/b.md`]: blobId('B written by the killed server\n'), [`${POSTS}/c.md`]: null, [`${POSTS}/d.md`]: blobId('D by the server\n') },
        }),
    );
    const logger = collectingLogger();
    const repo = await open(logger);
    expect(await read(`${POSTS}/a.md`)).to.equal('A committed\n');
    expect(await read(`${POSTS}/b.md`).catch(() => 'missing')).to.equal('missing');
    expect(await read(`${POSTS}/c.md`)).to.equal('C committed\n');
    // Not what the killed commit wrote: a developer's edit, kept and reported.
    expect(await read(`${POSTS}/d.md`)).to.equal('D edited by a developer\n');
    expect(logger.lines.find((line) => line.level === 'error')?.details).to.deep.equal({ files: [`${POSTS}/d.md`] });
    expect(await repo.head()).to.equal(head);
    await write(`${POSTS}/d.md`, 'D committed\n');
    await expectCleanRepo(dir);
    await commitWith(repo, [{ path: `${POSTS}/b.md`, content: 'B after the restart\n' }]);
    await expectCleanRepo(dir);
    await repo.close();
  });

  it('removes the reflog line of a ref update killed before its lock was renamed into place', async () => {
    const head = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    const fakeCommit = 'e'.repeat(40);
    const reflog = await read('.git/logs/HEAD');
    await writeFile(path.join(dir, '.git/logs/HEAD'), `${reflog}${head} ${fakeCommit} Ada <ada@example.com> 1700000000 +0000\tcommit: Lost\n`);
    await writeFile(lockFile, deadOwnerLine() + journalLine({ base: head, commit: fakeCommit, files: {} }));
    const repo = await open();
    expect(await read('.git/logs/HEAD')).to.equal(reflog);
    await expectCleanRepo(dir);
    await repo.close();
  });

  it('completes a commit killed after its branch moved: the index is brought up to date', async () => {
    const oldIndex = path.join(root, 'index.before');
    await copyFile(path.join(dir, '.git/index'), oldIndex);
    const repo = await open();
    const written = await commitWith(repo, [{ path: `${POSTS}/e.md`, content: 'E\n' }, { path: `${POSTS}/a.md`, content: null }]);
    await repo.close();
    await copyFile(path.join(dir, '.git/index'), path.join(dir, '.git/cms-0123456789ab.tmp'));
    await copyFile(oldIndex, path.join(dir, '.git/index'));
    expect(await git(dir, ['status', '--porcelain'])).to.not.equal('');
    await writeFile(lockFile, deadOwnerLine() + journalLine({ base: written.parents[0], commit: written.oid, files: { [`${POSTS}/e.md`]: blobId('E\n'), [`${POSTS}/a.md`]: null } }));
    const logger = collectingLogger();
    const reopened = await open(logger);
    expect(logger.lines.map((line) => line.message)).to.deep.equal(['finished a commit that the previous run was stopped in']);
    expect(await reopened.head()).to.equal(written.oid);
    await expectCleanRepo(dir);
    await reopened.close();
  });

  it('repairs an index left behind HEAD for the files of a completed commit even without its new index', async () => {
    const oldIndex = path.join(root, 'index.before');
    await copyFile(path.join(dir, '.git/index'), oldIndex);
    const repo = await open();
    const written = await commitWith(repo, [{ path: `${POSTS}/e.md`, content: 'E\n' }]);
    await repo.close();
    await copyFile(oldIndex, path.join(dir, '.git/index'));
    await writeFile(lockFile, deadOwnerLine() + journalLine({ base: written.parents[0], commit: written.oid, files: { [`${POSTS}/e.md`]: blobId('E\n') } }));
    const reopened = await open();
    expect(await git(dir, ['ls-files', POSTS])).to.contain(`${POSTS}/e.md`);
    await expectCleanRepo(dir);
    await reopened.close();
  });

  it('removes a dead server’s lock taken before its journal was written', async () => {
    await writeFile(lockFile, deadOwnerLine());
    const repo = await open();
    await commitWith(repo, [{ path: `${POSTS}/f.md`, content: 'F\n' }]);
    await expectCleanRepo(dir);
    await repo.close();
  });

  // A push's read-tree works on a copy of the index (GIT_INDEX_FILE=.git/cms-….tmp) and locks it as git does: a git killed meanwhile leaves the lock.
  it('removes git’s lock on a temp copy of the index that a killed git command left, with the copy', async () => {
    await writeFile(path.join(dir, '.git/cms-0123456789ab.tmp'), 'a copy of the index');
    await writeFile(path.join(dir, '.git/cms-0123456789ab.tmp.lock'), 'half of a new index');
    const repo = await open();
    await expectCleanRepo(dir);
    await commitWith(repo, [{ path: `${POSTS}/f.md`, content: 'F\n' }]);
    await expectCleanRepo(dir);
    await repo.close();
  });

  it('leaves git’s lock on a temp copy of the index alone while a process has it open', async () => {
    const lock = path.join(dir, '.git/cms-0123456789ab.tmp.lock');
    await writeFile(lock, 'a new index being written');
    const fd = openSync(lock, 'r');
    try {
      const repo = await open();
      expect(existsSync(lock)).to.equal(true);
      await commitWith(repo, [{ path: `${POSTS}/f.md`, content: 'F\n' }]);
      await repo.close();
    } finally {
      closeSync(fd);
    }
  });

  it('never removes the lock of a git command, says so in the log and answers conflict until it is gone', async () => {
    await writeFile(lockFile, '');
    const logger = collectingLogger();
    const repo = await open(logger);
    expect(logger.lines.map((line) => line.level)).to.deep.equal(['error']);
    expect(logger.lines[0].message).to.contain('.git/index.lock');
    expect((await caughtAppError(commitWith(repo, [{ path: `${POSTS}/f.md`, content: 'F\n' }]))).code).to.equal('conflict');
    expect(await readFile(lockFile, 'utf8')).to.equal('');
    await unlink(lockFile);
    await commitWith(repo, [{ path: `${POSTS}/f.md`, content: 'F\n' }]);
    await repo.close();
  });

  it('never removes the lock of a server process that is still running', async () => {
    await writeFile(lockFile, ownerLine());
    const logger = collectingLogger();
    const repo = await open(logger);
    expect(logger.lines.map((line) => line.level)).to.deep.equal(['error']);
    expect(await readFile(lockFile, 'utf8')).to.equal(ownerLine());
    await unlink(lockFile);
    await repo.close();
  });
});
