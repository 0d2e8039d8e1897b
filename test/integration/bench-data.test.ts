// The data root `npm run bench` builds (scripts/bench-data.ts), at a small
// count: `npm run bench:100k` relies on the same builder giving exactly the
// requested number of entries in one commit that plain git can read.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildDataRoot, WORKSPACE } from '../../scripts/bench-data.ts';
import { contentRepoOf, git } from '../helpers/git.ts';

describe('bench data root', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-data-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('commits the requested numbers of articles and authors as one commit', async () => {
    const data = await buildDataRoot(dataDir, { articles: 30, authors: 3 });
    const repo = contentRepoOf(dataDir);
    const files = (await git(repo, ['ls-tree', '-r', '--name-only', 'HEAD'])).trim().split('\n');
    const under = (type: string) => files.filter((file) => file.startsWith(`${WORKSPACE}/entries/${type}/`));
    expect(under('articles')).to.have.length(30);
    expect(under('authors')).to.have.length(3);
    expect(under('articles')).to.include(`${WORKSPACE}/entries/articles/${data.articleSlug(29)}.md`);
    const seeded = (await git(repo, ['diff-tree', '-r', '--name-only', '--no-commit-id', 'HEAD'])).trim().split('\n');
    expect(seeded.filter((file) => file.startsWith(`${WORKSPACE}/entries/`))).to.have.length(33);
  });
});
