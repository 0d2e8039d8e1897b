// Roll-ups against a `git repack` or `git gc` in progress (src/storage/git/packing.ts,
// commit-packs.ts): git lists the packs when it starts and opens them later,
// so a roll-up that deletes a commit pack in between makes git fail with
// "could not find pack". These tests hold a real git in that gap, through
// wrapper scripts that wait for files the test creates, and check that git
// succeeds, that every object stays readable and that the rolled-up commit
// packs go once nothing may open them any more.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../src/lib/logger.ts';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import type { GitCommand } from '../../src/storage/git/packing.ts';
import { git } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';

const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const POSTS = 'blog/entries/posts';
// Longer than the half second the server once assumed git needs to list the packs.
const LATE_LISTING_MS = 700;

/** The packer's git, whose first `git repack` waits twice for the test: before it lists the packs, and after (its pack-objects, which opens them). */
interface HeldRepack {
  git: GitCommand;
  /** Resolves once the first repack has started (and waits to list the packs). */
  started(): Promise<void>;
  /** Lets it list the packs; resolves once it did and its pack-objects waits to open them. */
  list(): Promise<void>;
  /** Lets it go on; resolves with its exit status. */
  finish(): Promise<number>;
  /** Lets it go on without waiting (after a failure: closing the repository waits for git). */
  release(): Promise<void>;
}

// Real git does every step: the wrappers only wait. pack-objects is reached
// through GIT_EXEC_PATH, where git looks for the `git` it runs its steps with.
async function holdFirstRepack(root: string): Promise<HeldRepack> {
  const marks = path.join(root, 'marks');
  const execDir = path.join(root, 'exec-path');
  await mkdir(marks);
  await mkdir(execDir);
  const realExecPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
  const wait = (file: string) => `until [ -e "${marks}/${file}" ]; do sleep 0.01; done`;
  const repack = path.join(root, 'held-git');
  await writeFile(
    repack,
    [
      '#!/bin/sh',
      `case " $* " in *" repack "*) if mkdir "${marks}/repack" 2>/dev/null; then`,
      `  ${wait('list')}`,
      '  git "$@"; status=$?',
      `  echo $status > "${marks}/repack/exit"; exit $status`,
      'fi;; esac',
      'exec git "$@"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  await writeFile(
    path.join(execDir, 'git'),
    [
      '#!/bin/sh',
      `if [ "$1" = pack-objects ] && mkdir "${marks}/pack-objects" 2>/dev/null; then ${wait('open')}; fi`,
      `GIT_EXEC_PATH=${realExecPath} exec ${realExecPath}/git "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const appears = (file: string) => pollUntil(async () => existsSync(path.join(marks, file)), (found) => found, { timeoutMs: 20_000, intervalMs: 10 });
  return {
    git: { bin: repack, env: { ...process.env, GIT_EXEC_PATH: execDir } as Record<string, string> },
    started: () => appears('repack').then(() => undefined),
    list: async () => {
      await writeFile(path.join(marks, 'list'), '');
      await appears('pack-objects');
    },
    release: async () => {
      await Promise.all(['list', 'open'].map((file) => writeFile(path.join(marks, file), '')));
    },
    finish: async () => {
      await writeFile(path.join(marks, 'open'), '');
      await appears('repack/exit');
      return Number(await readFile(path.join(marks, 'repack/exit'), 'utf8'));
    },
  };
}

function entry(i: number, version: number): string {
  return `---\nid: e${i}\ntitle: Entry ${i}\n---\nVersion ${version}.\n`;
}

async function packNames(dir: string): Promise<string[]> {
  return (await readdir(path.join(dir, '.git/objects/pack'))).filter((name) => name.endsWith('.idx')).map((name) => name.slice(0, -4));
}

describe('roll-ups while git repacks', () => {
  let root: string;
  let dir: string;
  let errors: string[];
  const logger: Logger = { info: () => undefined, error: (message, data) => errors.push(`${message} ${JSON.stringify(data)}`) };

  // One commit of entry-<i> for each version, the roll-up a commit makes due run before the next.
  const commitVersions = async (repo: ContentRepo, from: number, count: number) => {
    const oids: string[] = [];
    for (let version = from; version < from + count; version += 1) {
      const changes = [{ path: `${POSTS}/entry-${version}.md`, content: entry(version, version) }];
      oids.push((await repo.serialize(() => repo.commitChanges({ changes, message: `Version ${version}`, author: AUTHOR }))).oid);
      await new Promise((resolve) => setImmediate(resolve));
      await repo.serialize(async () => undefined);
    }
    return oids;
  };
  const readsEvery = async (repo: ContentRepo, oids: string[]) => {
    for (const [version, oid] of oids.entries()) expect(await repo.readAt(oid, `${POSTS}/entry-${version}.md`), `version ${version}`).to.equal(entry(version, version));
  };

  // Four commits (the first one writes README.md) roll up and start the held
  // repack; three more are written later than the server once guessed git
  // needs to list the packs, and the repack lists them; a fourth makes a
  // roll-up of those four due while the repack waits to open them. Returns
  // the commits and the four commit packs rolled up, the last one unlisted.
  const rollUpWhileHeld = async (repo: ContentRepo, held: HeldRepack) => {
    const oids = await commitVersions(repo, 0, 3);
    await held.started();
    await sleep(LATE_LISTING_MS);
    const before = await packNames(dir);
    oids.push(...(await commitVersions(repo, 3, 3)));
    await held.list();
    const listed = (await packNames(dir)).filter((name) => !before.includes(name));
    const changes = [{ path: `${POSTS}/entry-6.md`, content: entry(6, 6) }];
    // Listed inside the write queue, before the roll-up the commit queues.
    const { oid, packs } = await repo.serialize(async () => ({ ...(await repo.commitChanges({ changes, message: 'Version 6', author: AUTHOR })), packs: await packNames(dir) }));
    oids.push(oid);
    const commitPacks = [...listed, ...packs.filter((name) => !before.includes(name) && !listed.includes(name))];
    await new Promise((resolve) => setImmediate(resolve));
    await repo.serialize(async () => undefined);
    expect(commitPacks).to.have.length(4);
    expect((await packNames(dir)).filter((name) => !before.includes(name) && !commitPacks.includes(name)), 'the roll-up').to.have.length(1);
    return { oids, commitPacks };
  };

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'packing-races-'));
    dir = path.join(root, 'content');
    errors = [];
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  // Opens the repository with a held repack, rolls up while it waits
  // (rollUpWhileHeld), runs `meanwhile`, lets git finish and closes; every
  // commit is read while git waits and after. Returns the commit packs rolled up.
  const rollUpDuringRepack = async (meanwhile: () => Promise<void> = async () => undefined) => {
    const held = await holdFirstRepack(root);
    const repo = await ContentRepo.open(dir, { packing: { commitsPerRollUp: 4, packsPerRun: 1 }, git: held.git, logger });
    try {
      const { oids, commitPacks } = await rollUpWhileHeld(repo, held);
      await readsEvery(repo, oids);
      await meanwhile();
      expect(await held.finish()).to.equal(0);
      await readsEvery(repo, oids);
      return commitPacks;
    } finally {
      await held.release();
      await repo.close();
    }
  };

  it('deletes no commit pack a running git repack may have listed until it ended, however late git listed them', async () => {
    const rolledUp = await rollUpDuringRepack();
    expect(errors).to.deep.equal([]);
    const left = await packNames(dir);
    expect(rolledUp.filter((name) => left.includes(name))).to.deep.equal([]);
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });

  it('deletes no commit pack while git gc runs (a fresh gc.pid), also when its roll-up was written before gc started', async () => {
    // A developer's `git gc` starts while the server's own repack still runs.
    const rolledUp = await rollUpDuringRepack(() => writeFile(path.join(dir, '.git/gc.pid'), `${process.pid} ${os.hostname()}`));
    expect(errors).to.deep.equal([]);
    // The last commit pack rolled up was written after the repack listed the folder, so only the roll-up could delete it.
    expect(await packNames(dir)).to.include(rolledUp[3]);
    await rm(path.join(dir, '.git/gc.pid'));
    await git(dir, ['fsck', '--strict', '--no-progress']);
  });
});
