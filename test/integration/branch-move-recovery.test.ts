// A branch move (push, sync, replica) killed after the branch moved and before
// the index and working tree followed, finished at the next start
// (BranchMoves.recover()). The content folder is a developer's checkout:
// whatever they have not committed and the move did not touch stays as it
// is, and their bytes on a path the move did touch are kept aside before the
// file is set to the moved-to commit. The kill is built by hand: the journal
// written, the ref moved with update-ref, the working tree half updated.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BranchMoves } from '../../src/storage/git-cli/branch-moves.ts';
import { GitRunner } from '../../src/storage/git-cli/git-runner.ts';
import { collectingLogger } from '../helpers/collecting-logger.ts';
import { git, GIT_ENV } from '../helpers/git.ts';

const POSTS = 'default/entries/posts';

describe('finishing an interrupted branch move at start', () => {
  let root: string;
  let dir: string;
  let from: string;
  let to: string;
  let logger: ReturnType<typeof collectingLogger>;

  const write = (file: string, text: string) => writeFile(path.join(dir, file), text);
  const read = (file: string) => readFile(path.join(dir, file), 'utf8');
  const recover = () => new BranchMoves(new GitRunner({ bin: 'git', env: GIT_ENV as Record<string, string> }), dir).recover(logger);
  const status = async () => (await git(dir, ['status', '--porcelain', '--untracked-files=all'])).split('\n').filter(Boolean).sort();

  // What a kill between the ref update and the end of read-tree leaves: the
  // journal, the branch at `to`, the index at `from` and the working tree
  // at `from` except for the files read-tree had already written.
  const killMidMove = async (filesAlreadyMoved: Record<string, string>) => {
    await writeFile(path.join(dir, '.git/cms-branch-move'), `${JSON.stringify({ branch: 'main', from, to })}\n`);
    await git(dir, ['update-ref', 'refs/heads/main', to, from]);
    for (const [file, text] of Object.entries(filesAlreadyMoved)) await write(file, text);
  };

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'branch-move-recovery-'));
    dir = path.join(root, 'content');
    const work = path.join(root, 'work');
    await git(root, ['init', '-q', '-b', 'main', dir]);
    await git(dir, ['config', 'user.name', 'Dev']);
    await git(dir, ['config', 'user.email', 'dev@example.com']);
    await mkdir(path.join(dir, POSTS), { recursive: true });
    await write(`${POSTS}/kept.md`, 'Kept, committed\n');
    await write(`${POSTS}/changed.md`, 'Changed, before the push\n');
    await write(`${POSTS}/removed.md`, 'Removed by the push\n');
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-qm', 'Start']);
    from = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    await git(root, ['clone', '-q', dir, work]);
    await writeFile(path.join(work, POSTS, 'changed.md'), 'Changed by the push\n');
    await writeFile(path.join(work, POSTS, 'added.md'), 'Added by the push\n');
    await rm(path.join(work, POSTS, 'removed.md'));
    await git(work, ['add', '-A']);
    await git(work, ['-c', 'user.name=Pusher', '-c', 'user.email=p@example.com', 'commit', '-qm', 'Push']);
    to = (await git(work, ['rev-parse', 'HEAD'])).trim();
    await git(dir, ['fetch', '-q', work, 'main']);
    logger = collectingLogger();
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  const expectAtTo = async () => {
    expect((await git(dir, ['rev-parse', 'HEAD'])).trim()).to.equal(to);
    expect(await read(`${POSTS}/changed.md`)).to.equal('Changed by the push\n');
    expect(await read(`${POSTS}/added.md`)).to.equal('Added by the push\n');
    expect(existsSync(path.join(dir, POSTS, 'removed.md'))).to.equal(false);
    expect(existsSync(path.join(dir, '.git/cms-branch-move'))).to.equal(false);
    // The index is `to`'s: nothing staged.
    expect(await git(dir, ['diff', '--cached', '--name-only', 'HEAD'])).to.equal('');
  };

  it('finishes a move with a clean working tree: files, index and branch at the new commit', async () => {
    await killMidMove({ [`${POSTS}/added.md`]: 'Added by the push\n' });
    expect(await recover()).to.equal(true);
    await expectAtTo();
    expect(await status()).to.deep.equal([]);
    expect(logger.lines.filter((line) => line.level === 'error')).to.deep.equal([]);
  });

  it('keeps a developer’s uncommitted edit to a file the move did not touch, unstaged', async () => {
    await write(`${POSTS}/kept.md`, 'Kept, edited by hand\n');
    await killMidMove({ [`${POSTS}/added.md`]: 'Added by the push\n' });
    expect(await recover()).to.equal(true);
    await expectAtTo();
    expect(await read(`${POSTS}/kept.md`)).to.equal('Kept, edited by hand\n');
    expect(await status()).to.deep.equal([` M ${POSTS}/kept.md`]);
  });

  it('keeps what a developer staged on a path the move did not touch staged', async () => {
    await write(`${POSTS}/kept.md`, 'Kept, staged by hand\n');
    await git(dir, ['add', `${POSTS}/kept.md`]);
    await killMidMove({});
    expect(await recover()).to.equal(true);
    expect(await read(`${POSTS}/kept.md`)).to.equal('Kept, staged by hand\n');
    expect(await status()).to.deep.equal([`M  ${POSTS}/kept.md`]);
    expect(await git(dir, ['diff', '--cached', '--name-only', 'HEAD'])).to.equal(`${POSTS}/kept.md\n`);
  });

  it('keeps a developer’s untracked file', async () => {
    await write(`${POSTS}/draft.md`, 'Not committed yet\n');
    await write('notes.txt', 'notes\n');
    await killMidMove({});
    expect(await recover()).to.equal(true);
    await expectAtTo();
    expect(await read(`${POSTS}/draft.md`)).to.equal('Not committed yet\n');
    expect(await read('notes.txt')).to.equal('notes\n');
    expect(await status()).to.deep.equal([`?? ${POSTS}/draft.md`, '?? notes.txt']);
  });

  it('finishes a move whose new index was already in place', async () => {
    await write(`${POSTS}/kept.md`, 'Kept, edited by hand\n');
    await killMidMove({ [`${POSTS}/added.md`]: 'Added by the push\n' });
    await git(dir, ['read-tree', '-m', from, to]);
    expect(await recover()).to.equal(true);
    await expectAtTo();
    expect(await status()).to.deep.equal([` M ${POSTS}/kept.md`]);
  });

  it('keeps aside a developer’s uncommitted edit to a file the move changed, logs where, and sets the file to the new commit', async () => {
    await write(`${POSTS}/added.md`, 'Untracked, in the way of the push\n');
    await write(`${POSTS}/changed.md`, 'Changed by hand, not committed\n');
    await write(`${POSTS}/removed.md`, 'Removed by the push, but edited by hand\n');
    await killMidMove({});
    expect(await recover()).to.equal(true);
    await expectAtTo();
    expect(await status()).to.deep.equal([]);
    const kept = logger.lines.filter((line) => line.level === 'error');
    expect(kept.map((line) => line.details?.path)).to.deep.equal([`${POSTS}/added.md`, `${POSTS}/changed.md`, `${POSTS}/removed.md`]);
    for (const line of kept) expect(line.message).to.contain('kept');
    const copy = (file: string) => readFile(path.join(dir, String(kept.find((line) => line.details?.path === file)?.details?.copy)), 'utf8');
    expect(await copy(`${POSTS}/added.md`)).to.equal('Untracked, in the way of the push\n');
    expect(await copy(`${POSTS}/changed.md`)).to.equal('Changed by hand, not committed\n');
    expect(await copy(`${POSTS}/removed.md`)).to.equal('Removed by the push, but edited by hand\n');
    expect(String(kept[0].details?.copy)).to.match(/^\.git\/cms-recovered\//);
  });

  it('keeps aside a file the killed move left half written', async () => {
    await killMidMove({ [`${POSTS}/changed.md`]: 'Changed by' });
    expect(await recover()).to.equal(true);
    await expectAtTo();
    expect(await status()).to.deep.equal([]);
    expect(logger.lines.filter((line) => line.level === 'error').map((line) => line.details?.path)).to.deep.equal([`${POSTS}/changed.md`]);
  });

  it('keeps aside a folder with a developer’s files where the move puts a file, and removes the folders the move empties', async () => {
    await mkdir(path.join(dir, 'default/old'), { recursive: true });
    await write('default/old/only.md', 'Only file of its folder\n');
    await mkdir(path.join(dir, 'default/entries/folder'));
    await write('default/entries/folder/a.md', 'Becomes a file\n');
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-qm', 'More']);
    from = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    await git(dir, ['rm', '-rq', 'default/old', 'default/entries/folder']);
    await write('default/entries/folder', 'Now a file\n');
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-qm', 'Folder to file']);
    to = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    await git(dir, ['reset', '-q', '--hard', from]);
    await write('default/entries/folder/draft.md', 'Untracked draft\n');
    await killMidMove({});
    expect(await recover()).to.equal(true);
    expect(await read('default/entries/folder')).to.equal('Now a file\n');
    expect(existsSync(path.join(dir, 'default/old'))).to.equal(false);
    expect(await status()).to.deep.equal([]);
    const kept = logger.lines.filter((line) => line.level === 'error');
    expect(kept.map((line) => line.details?.path)).to.deep.equal(['default/entries/folder']);
    expect(await readFile(path.join(dir, String(kept[0].details?.copy), 'draft.md'), 'utf8')).to.equal('Untracked draft\n');
  });

  it('takes file names literally: quoting, spaces and pattern characters', async () => {
    const odd = `${POSTS}/ünï *[a] "b".md`;
    await write(odd, 'Odd, committed\n');
    await write(`${POSTS}/ünï x [a] "b".md`, 'A name the pattern would match\n');
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-qm', 'Odd names']);
    from = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    await write(odd, 'Odd, pushed\n');
    await git(dir, ['commit', '-qam', 'Push odd']);
    to = (await git(dir, ['rev-parse', 'HEAD'])).trim();
    await git(dir, ['reset', '-q', '--hard', from]);
    await write(`${POSTS}/ünï x [a] "b".md`, 'Edited by hand\n');
    await killMidMove({});
    expect(await recover()).to.equal(true);
    expect(await read(odd)).to.equal('Odd, pushed\n');
    expect(await read(`${POSTS}/ünï x [a] "b".md`)).to.equal('Edited by hand\n');
    expect(await git(dir, ['diff', '--cached', '--name-only', 'HEAD'])).to.equal('');
    expect(logger.lines.filter((line) => line.level === 'error')).to.deep.equal([]);
  });

  it('changes nothing when the branch had not moved', async () => {
    await write(`${POSTS}/kept.md`, 'Kept, edited by hand\n');
    await writeFile(path.join(dir, '.git/cms-branch-move'), `${JSON.stringify({ branch: 'main', from, to })}\n`);
    expect(await recover()).to.equal(false);
    expect((await git(dir, ['rev-parse', 'HEAD'])).trim()).to.equal(from);
    expect(await status()).to.deep.equal([` M ${POSTS}/kept.md`]);
    expect(existsSync(path.join(dir, '.git/cms-branch-move'))).to.equal(false);
  });
});
