// Bounded repository growth (issue 14, item 2): the server's own reader
// reads every packed object git writes (deltas included), objects are packed
// in the background with git's CLI while the server keeps committing, `cms gc`
// packs by hand, and without a git CLI the server works and says so once.
import { expect } from 'chai';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../../src/lib/logger.ts';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import type { ContentRepoOptions } from '../../src/storage/content-repo.ts';
import { ObjectReader } from '../../src/storage/git/object-reader.ts';
import { prepareObject } from '../../src/storage/git/objects.ts';
import { Packer } from '../../src/storage/git/packing.ts';
import { FILE_MODE, TreeView } from '../../src/storage/git/tree.ts';
import { git } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../bin/cms.mjs');
const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const POSTS = 'blog/entries/posts';

function entry(i: number, version: number): string {
  return `---\nid: e${i}\ntitle: Entry ${i}\n---\n${'Some text that stays the same in every version. '.repeat(20)}\nVersion ${version}.\n`;
}

// A roll-up is queued from the event loop's next turn, as requests give it one between commits.
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// A test that waits for one background git run: as long as a niced git may
// take on a loaded machine (~3 s of CPU for 3,000 loose objects; 15–45 s of
// wall-clock time at load average 10–16).
const GIT_RUN_TIMEOUT_MS = 120_000;

// The end of a server's start, told by hand (Packer's startupOver), and the end of the first run after it (onPacked).
function startupByHand() {
  let end!: () => void;
  let packed!: () => void;
  const over = new Promise<void>((resolve) => {
    end = resolve;
  });
  const ranOnce = new Promise<void>((resolve) => {
    packed = resolve;
  });
  return { over, end, ranOnce, packed };
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
      await nextTurn();
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

  it('writes each commit as one pack and rolls commit packs up, every version of a folder tree a delta of the next', async () => {
    const noGit = { objectsPerRun: 1e9, bytesPerRun: 1e12, packsPerRun: 1e9 };
    const versions: { oid: string; text: string }[] = [];
    await withRepo({ packing: { ...noGit, commitsPerRollUp: 5 } }, async (repo) => {
      // Enough entries for a folder tree over 64 KiB, which commit packs store uncompressed in blocks.
      const seed = Array.from({ length: 2000 }, (_, i) => ({ path: `${POSTS}/entry-${i}.md`, content: entry(i, 0) }));
      await repo.serialize(() => repo.commitChanges({ changes: seed, message: 'Seed', author: AUTHOR }));
      for (let version = 1; version <= 9; version += 1) {
        const text = entry(version, version);
        const { oid } = await repo.serialize(() => repo.commitChanges({ changes: [{ path: `${POSTS}/entry-${version}.md`, content: text }], message: `Version ${version}`, author: AUTHOR }));
        versions.push({ oid, text });
        await nextTurn();
      }
      await repo.serialize(async () => undefined);
      for (const [i, { oid, text }] of versions.entries()) expect(await repo.readAt(oid, `${POSTS}/entry-${i + 1}.md`)).to.equal(text);
    });
    // 11 commits (the first one writes README.md): two roll-ups of five, and the last commit's own pack.
    expect(await packCount(dir)).to.equal(3);
    expect(await looseObjectCount(dir)).to.equal(0);
    const packs = (await readdir(path.join(dir, '.git/objects/pack'))).filter((name) => name.endsWith('.idx'));
    const listed = (await Promise.all(packs.map((name) => git(dir, ['verify-pack', '-v', path.join('.git/objects/pack', name)])))).join('\n');
    const commits = [`${versions[0].oid}^`, ...versions.map(({ oid }) => oid)];
    const postsTrees = await Promise.all(commits.map(async (commit) => (await git(dir, ['rev-parse', `${commit}:${POSTS}`])).trim()));
    // verify-pack -v: "<oid> <type> <size> <size in pack> <offset>", then "<depth> <base>" for a delta.
    const stored = new Map(listed.split('\n').map((line) => line.split(/ +/)).map((fields) => [fields[0], fields]));
    const deltas = postsTrees.filter((oid) => stored.get(oid)?.length === 7);
    // Two roll-ups, of four and five versions of the folder (the first commit has none); the last commit's own pack holds it whole.
    expect(new Set(postsTrees).size).to.equal(10);
    expect(Number(await git(dir, ['cat-file', '-s', postsTrees[9]]))).to.be.greaterThan(64 * 1024);
    expect(deltas).to.have.length(7);
    expect(deltas.every((oid) => Number(stored.get(oid)?.[3]) < 100)).to.equal(true);
    // The newest version in each roll-up, compressed there.
    expect([postsTrees[3], postsTrees[8]].map((oid) => Number(stored.get(oid)?.[3]) < Number(stored.get(oid)?.[2]))).to.deep.equal([true, true]);
    // Each version's blob: stored as it is in its commit pack, compressed by the roll-up that took it.
    const blobs = await Promise.all(versions.map(async ({ oid }, i) => (await git(dir, ['rev-parse', `${oid}:${POSTS}/entry-${i + 1}.md`])).trim()));
    const compressed = (oid: string) => Number(stored.get(oid)?.[3]) < Number(stored.get(oid)?.[2]) / 2;
    expect(blobs.map(compressed)).to.deep.equal([true, true, true, true, true, true, true, true, false]);
    expect(await git(dir, ['status', '--porcelain'])).to.equal('');
    await git(dir, ['fsck', '--strict', '--no-progress']);
    // No temp file is left: closing removed the empty files made ahead (in .git) for the next commit packs.
    expect((await readdir(path.join(dir, '.git/objects/pack'))).filter((name) => !/^pack-[0-9a-f]{40}\.(pack|idx)$/.test(name))).to.deep.equal([]);
    expect((await readdir(path.join(dir, '.git'))).filter((name) => name.endsWith('.tmp'))).to.deep.equal([]);
  });

  it('rolls nothing up while git gc runs (gc.pid of a live process), and does once gc.pid names a process that is gone', async () => {
    const noGit = { objectsPerRun: 1e9, bytesPerRun: 1e12, packsPerRun: 1e9 };
    await withRepo({ packing: { ...noGit, commitsPerRollUp: 3 } }, async (repo) => {
      const gcPid = path.join(dir, '.git/gc.pid');
      await writeFile(gcPid, `${process.pid} ${os.hostname()}`);
      const oids = await commitVersions(repo, 4, 1);
      await repo.serialize(async () => undefined);
      // The first commit (README.md) and four more, each its own pack.
      expect(await packCount(dir)).to.equal(5);
      await writeFile(gcPid, `${spawnSync('true').pid} ${os.hostname()}`);
      oids.push(...(await commitVersions(repo, 1, 1)));
      await repo.serialize(async () => undefined);
      expect(await repo.readAt(oids[0], `${POSTS}/entry-0.md`)).to.equal(entry(0, 0));
    });
    expect(await packCount(dir)).to.equal(1);
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });

  it('keeps the commit packs a roll-up took while git gc runs (gc.pid of a live process), and deletes them at a roll-up after it', async () => {
    await git(root, ['init', '-q', dir]);
    const gcPid = path.join(dir, '.git/gc.pid');
    const reader = new ObjectReader(path.join(dir, '.git/objects'), 3);
    const blobs: string[] = [];
    try {
      const commitPacks = async (count: number) => {
        for (let i = 0; i < count; i += 1) {
          const blob = prepareObject('blob', Buffer.from(`blob ${blobs.length}\n`));
          blobs.push(blob.oid);
          reader.commitPacks.write([blob]);
        }
      };
      await commitPacks(3);
      // The roll-up itself is due before gc starts; gc starts while it writes (ContentRepo checks gc.pid only before it).
      await writeFile(gcPid, `${process.pid} ${os.hostname()}`);
      reader.commitPacks.rollUp();
      await reader.commitPacks.settled();
      expect(await packCount(dir), 'three commit packs and their roll-up').to.equal(4);
      await writeFile(gcPid, `${spawnSync('true').pid} ${os.hostname()}`);
      await commitPacks(3);
      reader.commitPacks.rollUp();
      await reader.commitPacks.settled();
      expect(await packCount(dir), 'the two roll-ups').to.equal(2);
    } finally {
      reader.close();
    }
    for (const oid of blobs) await git(dir, ['cat-file', '-e', oid]);
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });

  it('counts for a roll-up only the commit packs written after a running git repack listed the folder', async () => {
    await git(root, ['init', '-q', dir]);
    const reader = new ObjectReader(path.join(dir, '.git/objects'), 3);
    try {
      const commitPack = (i: number) => reader.commitPacks.write([prepareObject('blob', Buffer.from(`blob ${i}\n`))]);
      [0, 1, 2].forEach(commitPack);
      const repackListed = performance.now();
      commitPack(3);
      expect(reader.commitPacks.isRollUpDue()).to.equal(true);
      expect(reader.commitPacks.isRollUpDue(repackListed)).to.equal(false);
      [4, 5].forEach(commitPack);
      expect(reader.commitPacks.isRollUpDue(repackListed)).to.equal(true);
    } finally {
      reader.close();
    }
  });

  it('copies a folder tree over 1 MiB into the roll-up as its commit pack framed it, and compresses a smaller one', async () => {
    await git(root, ['init', '-q', dir]);
    const reader = new ObjectReader(path.join(dir, '.git/objects'), 2);
    // ~43 bytes per entry.
    const folderTree = (folder: string, entries: number) => {
      const edits = Array.from({ length: entries }, (_, i) => ({ name: `entry-${String(i).padStart(6, '0')}.md`, entry: { mode: FILE_MODE, oid: createHash('sha1').update(`${folder} ${i}`).digest('hex') } }));
      return { ...prepareObject('tree', TreeView.EMPTY.edit(edits).body), folder };
    };
    const large = folderTree('large', 30_000);
    const small = folderTree('small', 2_000);
    try {
      reader.commitPacks.write([large, small]);
      reader.commitPacks.write([prepareObject('blob', Buffer.from('a blob\n'))]);
      reader.commitPacks.rollUp();
      await reader.commitPacks.settled();
    } finally {
      reader.close();
    }
    const [rollUp, ...others] = (await readdir(path.join(dir, '.git/objects/pack'))).filter((name) => name.endsWith('.idx'));
    expect(others).to.deep.equal([]);
    const listed = await git(dir, ['verify-pack', '-v', path.join('.git/objects/pack', rollUp)]);
    // verify-pack -v: "<oid> <type> <size> <size in pack> <offset>".
    const inPack = (oid: string) => listed.split('\n').map((line) => line.split(/ +/)).find((fields) => fields[0] === oid) ?? [];
    expect(large.body.length).to.be.greaterThan(1024 * 1024);
    expect(Number(inPack(large.oid)[3])).to.be.greaterThan(large.body.length);
    expect(Number(inPack(small.oid)[3])).to.be.lessThan(small.body.length);
  });

  it('packs in the background while the server commits, and every commit stays readable', async () => {
    await withRepo({ packing: { commitsPerRollUp: 4, packsPerRun: 2 } }, async (repo) => {
      const oids = await commitVersions(repo, 25, 8);
      // Six roll-ups and a leftover commit pack (7 packs without git), so git
      // has run (two packs per run) and merged them. Four may stay: a run that
      // started before the last roll-up leaves a geometric progression that
      // --geometric=2 keeps, and no later write starts another run.
      expect(await pollUntil(() => packCount(dir), (count) => count <= 4, { timeoutMs: 20_000, intervalMs: 100 })).to.be.at.most(4);
      const more = await commitVersions(repo, 25, 8);
      expect(await repo.readAt(oids[0], `${POSTS}/entry-0.md`)).to.equal(entry(0, 0));
      expect(await repo.readAt(more[21], `${POSTS}/entry-0.md`)).to.equal(entry(0, 21));
      expect((await repo.log({ paths: [`${POSTS}/entry-0.md`] })).length).to.be.greaterThan(3);
    });
    expect(await git(dir, ['status', '--porcelain'])).to.equal('');
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });

  it('opens a commit pack only to read from it, and reads its objects after a repack or a roll-up deleted it', async () => {
    await git(root, ['init', '-q', dir]);
    const packDir = path.join(dir, '.git/objects/pack');
    // The pack files this process holds open (Linux): a deleted one shows as "… (deleted)".
    const openPacks = () =>
      readdirSync('/proc/self/fd').flatMap((fd) => {
        const target = (() => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`);
          } catch {
            return '';
          }
        })();
        return target.startsWith(packDir) && target.includes('.pack') ? [path.basename(target)] : [];
      });
    const reader = new ObjectReader(path.join(dir, '.git/objects'), 3);
    try {
      const blobs = Array.from({ length: 8 }, (_, i) => prepareObject('blob', Buffer.from(`object ${i}\n`)));
      const readsBack = async (i: number) => expect((await reader.readBlob(blobs[i].oid))?.toString(), `object ${i}`).to.equal(`object ${i}\n`);
      reader.commitPacks.write([blobs[0]]);
      reader.commitPacks.write([blobs[1]]);
      expect(openPacks()).to.deep.equal([]);
      await readsBack(0);
      expect(openPacks()).to.have.length(1);
      // git repack replaces both packs, one of them never opened.
      await git(dir, ['repack', '-a', '-d', '-q', '--keep-unreachable']);
      await readsBack(1);
      await readsBack(0);
      expect(openPacks().filter((name) => name.includes('(deleted)'))).to.deep.equal([]);
      // A roll-up of three commit packs, one read from, then deleted in the background.
      for (const i of [2, 3, 4]) reader.commitPacks.write([blobs[i]]);
      await readsBack(3);
      reader.commitPacks.rollUp();
      await reader.commitPacks.settled();
      for (const i of [2, 3, 4]) await readsBack(i);
      expect(openPacks().filter((name) => name.includes('(deleted)'))).to.deep.equal([]);
      // Commit packs deleted behind the reader's back, before their first read; the objects are in a repack's pack.
      for (const i of [5, 6]) reader.commitPacks.write([blobs[i]]);
      await git(dir, ['repack', '-a', '-d', '-q', '--keep-unreachable']);
      for (const i of [5, 6]) await readsBack(i);
      // A pack deleted with its objects nowhere else: missing, not an error.
      reader.commitPacks.write([blobs[7]]);
      for (const name of await readdir(packDir)) if (name.endsWith('.idx') || name.endsWith('.pack')) await rm(path.join(packDir, name));
      expect(await reader.readBlob(blobs[7].oid)).to.equal(undefined);
    } finally {
      reader.close();
    }
  });

  it('packs the loose objects found at start once the start is over, not during it', async function () {
    this.timeout(GIT_RUN_TIMEOUT_MS);
    await git(root, ['init', '-q', dir]);
    const store = new ObjectReader(path.join(dir, '.git/objects')).store;
    for (let i = 0; i < 3000; i += 1) store.write('blob', Buffer.from(`loose object ${i}\n`));
    const start = startupByHand();
    const packer = await Packer.start(path.join(dir, '.git'), { objectsPerRun: 1000, startupOver: start.over, onPacked: start.packed });
    try {
      expect(packer.mayReadPacksBefore, 'a run during the start').to.equal(undefined);
      start.end();
      await start.ranOnce;
      expect([await looseObjectCount(dir), await packCount(dir)]).to.deep.equal([0, 1]);
    } finally {
      await packer.close();
    }
  });

  it('packs the commit packs a stopped server left behind (more than git gc --auto allows) once the next start is over', async function () {
    this.timeout(GIT_RUN_TIMEOUT_MS);
    await withRepo({ packing: { commitsPerRollUp: 1000, packsPerRun: 1000 } }, (repo) => commitVersions(repo, 55, 1).then(() => undefined));
    expect(await packCount(dir)).to.be.at.least(55);
    const start = startupByHand();
    const packer = await Packer.start(path.join(dir, '.git'), { startupOver: start.over, onPacked: start.packed });
    try {
      expect(packer.mayReadPacksBefore, 'a run during the start').to.equal(undefined);
      start.end();
      await start.ranOnce;
      expect(await packCount(dir)).to.be.below(10);
    } finally {
      await packer.close();
    }
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });

  it('removes the temp pack git leaves when a background run is stopped while it writes, and git is fine after it', async () => {
    await git(root, ['init', '-q', dir]);
    const packDir = path.join(dir, '.git/objects/pack');
    // ~24 MB that does not compress: pack-objects writes its tmp_pack_* for a while.
    const store = new ObjectReader(path.join(dir, '.git/objects')).store;
    for (let i = 0; i < 24; i += 1) store.write('blob', randomBytes(1024 * 1024));
    const gitTemps = () => readdirSync(packDir).filter((name) => name.startsWith('tmp_') || name.startsWith('.tmp-'));
    const packer = await Packer.start(path.join(dir, '.git'), { objectsPerRun: 1 });
    try {
      packer.noteWritten({ objects: 24, bytes: 24 * 1024 * 1024, packs: 0 });
      expect(await pollUntil(async () => gitTemps(), (names) => names.length > 0, { timeoutMs: 30_000, intervalMs: 2 })).to.not.be.empty;
    } finally {
      // Stops git with SIGTERM while it writes.
      await packer.close();
    }
    expect(gitTemps()).to.deep.equal([]);
    await git(dir, ['fsck', '--strict', '--no-progress']);
    expect(await looseObjectCount(dir)).to.equal(24);
  });

  it('removes at start the temp packs a stopped git left over an hour ago, but not a young one nor one a live process has open', async () => {
    await withRepo({ packing: false }, (repo) => commitVersions(repo, 1, 1).then(() => undefined));
    const packDir = path.join(dir, '.git/objects/pack');
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const leftover = async (name: string, old: boolean) => {
      await writeFile(path.join(packDir, name), 'PACK');
      if (old) await utimes(path.join(packDir, name), hoursAgo, hoursAgo);
    };
    await leftover('tmp_pack_AbC123', true);
    await leftover('tmp_idx_AbC123', true);
    await leftover('.tmp-4242-pack-0123abcd.pack', true);
    await leftover('tmp_pack_young1', false);
    await leftover('tmp_pack_inUse1', true);
    // A git still at work (a developer's git gc) has its temp pack open.
    const inUse = openSync(path.join(packDir, 'tmp_pack_inUse1'), 'r');
    const holder = spawn('sleep', ['60'], { stdio: ['ignore', 'ignore', 'ignore', inUse] });
    closeSync(inUse);
    try {
      await withRepo({ packing: false }, async () => undefined);
      expect(readdirSync(packDir).filter((name) => !name.startsWith('pack-')).sort()).to.deep.equal(['tmp_pack_inUse1', 'tmp_pack_young1']);
    } finally {
      holder.kill('SIGKILL');
    }
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });

  it('packs with the git CLI it was given (CMS_GIT_PATH), in the environment it was given, its memory bounded', async () => {
    const calls = path.join(root, 'calls.log');
    const wrapper = path.join(root, 'my-git');
    await writeFile(wrapper, `#!/bin/sh\necho "$MARK $*" >> ${JSON.stringify(calls)}\nexec git "$@"\n`, { mode: 0o755 });
    const repacked = async () => (await readFile(calls, 'utf8')).trim().split('\n').some((line) => line.startsWith('wrapped --git-dir') && line.includes(' repack '));
    await withRepo({ packing: { commitsPerRollUp: 4, packsPerRun: 1 }, git: { bin: wrapper, env: { ...process.env, MARK: 'wrapped' } as Record<string, string> } }, async (repo) => {
      await commitVersions(repo, 9, 8);
      expect(await pollUntil(repacked, (done) => done, { timeoutMs: 20_000, intervalMs: 100 })).to.equal(true);
    });
    const lines = (await readFile(calls, 'utf8')).trim().split('\n');
    expect(lines).to.include('wrapped --version');
    // git's defaults let one background run hold ~200 MiB beside the server (src/storage/git/packing.ts).
    const repack = lines.find((line) => line.includes(' repack '));
    expect(repack).to.contain('-c core.deltaBaseCacheLimit=2m').and.to.contain('-c core.packedGitLimit=4m').and.to.contain('-c core.packedGitWindowSize=1m');
  });

  it('checks the git CLI before its first run, not when the repository opens, and packs what was written meanwhile', async () => {
    const calls = path.join(root, 'calls.log');
    const slowGit = path.join(root, 'slow-git');
    // `git --version` answers after 2 s, long after the commits below are made.
    await writeFile(slowGit, `#!/bin/sh\nif [ "$1" = --version ]; then sleep 2; echo "version answered" >> ${JSON.stringify(calls)}; fi\necho "$*" >> ${JSON.stringify(calls)}\nexec git "$@"\n`, { mode: 0o755 });
    const calledYet = async () => (await readFile(calls, 'utf8').catch(() => '')).trim().split('\n');
    await withRepo({ packing: { commitsPerRollUp: 4, packsPerRun: 1 }, git: { bin: slowGit } }, async (repo) => {
      expect(await calledYet(), 'open() returned before git answered').to.not.include('version answered');
      await commitVersions(repo, 9, 8);
      expect(await calledYet()).to.not.include('version answered');
      const repacked = (lines: string[]) => lines.some((line) => line.startsWith('--git-dir') && line.includes(' repack '));
      expect(repacked(await pollUntil(calledYet, repacked, { timeoutMs: 20_000, intervalMs: 100 }))).to.equal(true);
    });
    await git(dir, ['fsck', '--strict', '--no-progress']);
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
      await withRepo({ packing: { commitsPerRollUp: 2, packsPerRun: 1 }, logger }, async (repo) => {
        const oids = await commitVersions(repo, 5, 2);
        expect(await repo.readAt(oids[0], `${POSTS}/entry-0.md`)).to.equal(entry(0, 0));
      });
    } finally {
      process.env.PATH = path;
    }
    expect(lines).to.have.length(1);
    expect(lines[0]).to.contain('the git CLI was not found');
  });
});
