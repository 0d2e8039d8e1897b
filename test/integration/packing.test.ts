// Bounded repository growth (issue 14, item 2): the server's own reader
// reads every packed object git writes (deltas included), objects are packed
// in the background with git's CLI while the server keeps committing, `cms gc`
// packs by hand, and without a git CLI the server works and says so once.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../../src/lib/logger.ts';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import type { ContentRepoOptions } from '../../src/storage/content-repo.ts';
import { ObjectReader } from '../../src/storage/git/object-reader.ts';
import { Packer } from '../../src/storage/git/packing.ts';
import { git } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../bin/cms.mjs');
const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const POSTS = 'blog/entries/posts';

function entry(i: number, version: number): string {
  return `---\nid: e${i}\ntitle: Entry ${i}\n---\n${'Some text that stays the same in every version. '.repeat(20)}\nVersion ${version}.\n`;
}

async function looseObjectCount(dir: string): Promise<number> {
  return Number(/^count: (\d+)$/m.exec(await git(dir, ['count-objects', '-v']))?.[1]);
}

async function packCount(dir: string): Promise<number> {
  return (await readdir(path.join(dir, '.git/objects/pack')).catch(() => [])).filter((name) => name.endsWith('.pack')).length;
}

describe('packing the content repository', () => {
  let root: string;
  let dir: string;

  const withRepo = async (options: ContentRepoOptions, fn: (repo: ContentRepo) => Promise<void>) => {
    const repo = await ContentRepo.open(dir, options);
    try {
      await fn(repo);
    } finally {
      await repo.close();
    }
  };
  const commitVersions = async (repo: ContentRepo, versions: number, files: number) => {
    const oids: string[] = [];
    for (let version = 0; version < versions; version += 1) {
      const changes = Array.from({ length: files }, (_, i) => ({ path: `${POSTS}/entry-${i}.md`, content: entry(i, (version + i) % 7 === 0 ? version : 0) }));
      oids.push((await repo.serialize(() => repo.commitChanges({ changes, message: `Version ${version}`, author: AUTHOR }))).oid);
    }
    return oids;
  };

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'packing-'));
    dir = path.join(root, 'content');
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  it('reads every object of an aggressively packed repository, deltas included, exactly as git stored it', async () => {
    await withRepo({ packing: false }, (repo) => commitVersions(repo, 30, 40).then(() => undefined));
    await git(dir, ['gc', '-q', '--aggressive', '--prune=now']);
    expect(await looseObjectCount(dir)).to.equal(0);
    const listed = (await git(dir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype) %(deltabase)'])).trim().split('\n');
    expect(listed.filter((line) => !line.endsWith(' 0000000000000000000000000000000000000000')).length).to.be.greaterThan(20);
    const reader = new ObjectReader(path.join(dir, '.git/objects'));
    for (const line of listed) {
      const [oid, type] = line.split(' ');
      const object = await reader.store.read(oid);
      expect(object?.type, oid).to.equal(type);
      const hash = createHash('sha1').update(`${type} ${object?.body.length}\0`).update(object?.body ?? Buffer.alloc(0)).digest('hex');
      expect(hash, `content of ${oid}`).to.equal(oid);
    }
    reader.close();
  });

  it('packs in the background while the server commits, and every commit stays readable', async () => {
    await withRepo({ packing: { objectsPerRun: 30 } }, async (repo) => {
      const oids = await commitVersions(repo, 25, 8);
      expect(await pollUntil(() => looseObjectCount(dir), (count) => count < 30, { timeoutMs: 20_000, intervalMs: 100 })).to.be.lessThan(30);
      const more = await commitVersions(repo, 25, 8);
      expect(await packCount(dir)).to.be.greaterThan(0);
      expect(await repo.readAt(oids[0], `${POSTS}/entry-0.md`)).to.equal(entry(0, 0));
      expect(await repo.readAt(more[21], `${POSTS}/entry-0.md`)).to.equal(entry(0, 21));
      expect((await repo.log({ paths: [`${POSTS}/entry-0.md`] })).length).to.be.greaterThan(3);
    });
    expect(await git(dir, ['status', '--porcelain'])).to.equal('');
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });

  it('packs the loose objects found at start once the start is over, not during it', async () => {
    await git(root, ['init', '-q', dir]);
    const store = new ObjectReader(path.join(dir, '.git/objects')).store;
    for (let i = 0; i < 3000; i += 1) store.write('blob', Buffer.from(`loose object ${i}\n`));
    const packer = await Packer.start(path.join(dir, '.git'), { objectsPerRun: 1000, startupDelayMs: 1500 });
    try {
      expect(await looseObjectCount(dir)).to.equal(3000);
      expect(await packCount(dir)).to.equal(0);
      await pollUntil(() => looseObjectCount(dir), (count) => count === 0, { timeoutMs: 20_000 });
      expect(await packCount(dir)).to.equal(1);
    } finally {
      await packer?.close();
    }
  });

  it('packs with the git CLI it was given (CMS_GIT_PATH), in the environment it was given', async () => {
    const calls = path.join(root, 'calls.log');
    const wrapper = path.join(root, 'my-git');
    await writeFile(wrapper, `#!/bin/sh\necho "$MARK $*" >> ${JSON.stringify(calls)}\nexec git "$@"\n`, { mode: 0o755 });
    await withRepo({ packing: { objectsPerRun: 30 }, git: { bin: wrapper, env: { ...process.env, MARK: 'wrapped' } as Record<string, string> } }, async (repo) => {
      await commitVersions(repo, 25, 8);
      await pollUntil(() => looseObjectCount(dir), (count) => count < 30, { timeoutMs: 20_000, intervalMs: 100 });
    });
    const lines = (await readFile(calls, 'utf8')).trim().split('\n');
    expect(lines).to.include('wrapped --version');
    expect(lines.some((line) => line.startsWith('wrapped --git-dir') && line.includes(' repack '))).to.equal(true);
  });

  it('packs by hand with cms gc, also while a server has the repository open', async () => {
    await withRepo({ packing: false }, async (repo) => {
      await commitVersions(repo, 10, 5);
      const { stdout } = await run(process.execPath, [CLI, 'gc', '--data', root]);
      expect(stdout).to.match(/^Packed .*content[/\\]\.git: [\d.]+ MB before, [\d.]+ MB after\.\n$/);
      expect(await looseObjectCount(dir)).to.equal(0);
      await commitVersions(repo, 2, 5);
    });
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });

  it('works without a git CLI and says once that nothing is packed', async () => {
    const lines: string[] = [];
    const logger: Logger = { info: () => undefined, error: (message) => lines.push(message) };
    const path = process.env.PATH;
    process.env.PATH = root;
    try {
      await withRepo({ packing: { objectsPerRun: 1 }, logger }, (repo) => commitVersions(repo, 3, 2).then(() => undefined));
    } finally {
      process.env.PATH = path;
    }
    expect(lines).to.have.length(1);
    expect(lines[0]).to.contain('the git CLI was not found');
    expect(await packCount(dir)).to.equal(0);
  });
});
