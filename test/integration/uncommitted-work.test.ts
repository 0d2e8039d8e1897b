// A write never destroys work it did not make (issue 10, item 4): a
// developer's uncommitted edit, deletion, untracked file or staged change in
// the server's own working tree makes a commit that would replace it fail
// with `conflict` naming the file, and everything stays as it was.
import { expect } from 'chai';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import type { FileChange } from '../../src/storage/content-repo.ts';
import { caughtAppError } from '../helpers/errors.ts';
import { git } from '../helpers/git.ts';

const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const HELLO = 'default/entries/posts/hello.md';
const OTHER = 'default/entries/posts/other.md';

describe('uncommitted work in the content folder', () => {
  let root: string;
  let repo: ContentRepo;

  const commit = (changes: FileChange[]) => repo.serialize(() => repo.commitChanges({ changes, message: 'Update content', author: AUTHOR }));
  const write = (file: string, text: string) => writeFile(path.join(repo.dir, file), text);
  const read = (file: string) => readFile(path.join(repo.dir, file), 'utf8');

  async function expectRefused(changes: FileChange[], file: string): Promise<void> {
    const head = await repo.head();
    const error = await caughtAppError(commit(changes));
    expect(error.code).to.equal('conflict');
    expect(error.message).to.contain(`"${file}"`);
    expect(await repo.head()).to.equal(head);
  }

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'uncommitted-'));
    repo = await ContentRepo.open(path.join(root, 'content'), { packing: false });
    await commit([
      { path: HELLO, content: 'committed\n' },
      { path: OTHER, content: 'other\n' },
    ]);
  });

  afterEach(async () => {
    await repo.close();
    await rm(root, { recursive: true, force: true });
  });

  it('refuses to overwrite an uncommitted edit and keeps it, and writes the other files of the repo as usual', async () => {
    await write(HELLO, 'a developer’s edit\n');
    await expectRefused([{ path: HELLO, content: 'from the API\n' }, { path: OTHER, content: 'other 2\n' }], HELLO);
    expect(await read(HELLO)).to.equal('a developer’s edit\n');
    expect(await read(OTHER)).to.equal('other\n');
    await commit([{ path: OTHER, content: 'other 2\n' }]);
    expect(await git(repo.dir, ['status', '--porcelain'])).to.equal(` M ${HELLO}\n`);
  });

  it('refuses to delete or rename away an uncommitted edit', async () => {
    await write(HELLO, 'a developer’s edit\n');
    await expectRefused([{ path: HELLO, content: null }], HELLO);
    await expectRefused([{ path: HELLO, content: null }, { path: 'default/entries/posts/renamed.md', content: 'committed\n' }], HELLO);
    expect(await read(HELLO)).to.equal('a developer’s edit\n');
    expect(await read('default/entries/posts/renamed.md').catch(() => 'missing')).to.equal('missing');
  });

  it('refuses to write over an untracked file', async () => {
    await write('default/entries/posts/new.md', 'an untracked draft\n');
    await expectRefused([{ path: 'default/entries/posts/new.md', content: 'from the API\n' }], 'default/entries/posts/new.md');
    expect(await read('default/entries/posts/new.md')).to.equal('an untracked draft\n');
  });

  it('refuses to bring back a file deleted but not committed, and accepts deleting it', async () => {
    await unlink(path.join(repo.dir, HELLO));
    await expectRefused([{ path: HELLO, content: 'from the API\n' }], HELLO);
    expect(await read(HELLO).catch(() => 'missing')).to.equal('missing');
    await commit([{ path: HELLO, content: null }]);
    expect(await git(repo.dir, ['status', '--porcelain'])).to.equal('');
  });

  it('refuses to replace a staged change, even when the file itself matches HEAD again', async () => {
    await write(HELLO, 'staged\n');
    await git(repo.dir, ['add', HELLO]);
    await write(HELLO, 'committed\n');
    await expectRefused([{ path: HELLO, content: 'from the API\n' }], HELLO);
    expect(await git(repo.dir, ['diff', '--cached', '--name-only'])).to.equal(`${HELLO}\n`);
  });

  it('accepts a file that already holds exactly what is written', async () => {
    await write(HELLO, 'from the API\n');
    await commit([{ path: HELLO, content: 'from the API\n' }]);
    expect(await git(repo.dir, ['status', '--porcelain'])).to.equal('');
  });
});
