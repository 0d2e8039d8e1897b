// Roll-ups against a `git repack` in progress (src/storage/git/packing.ts,
// commit-packs.ts). git repack lists the packs when it starts and names them
// to its pack-objects, which fails ("could not find pack") when one is gone
// before it opened it; once pack-objects reports (trace2) that it enumerated
// the objects to pack, it reads no pack written later. These tests hold a real
// git at each step through wrapper scripts that wait for files the test
// creates, and check that the packs git may read wait for it, that the others
// are rolled up and deleted while it runs, and that git succeeds.
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
const PER_ROLL_UP = 4;
// Longer than the half second the server once assumed git needs to list the packs.
const LATE_LISTING_MS = 700;

/** The packer's git, whose first `git repack` waits for the test three times. */
interface HeldRepack {
  git: GitCommand;
  /** Resolves once the first repack has started; it waits to list the packs. */
  started(): Promise<void>;
  /** Lets it list the packs; resolves once it did and its pack-objects waits to start. */
  list(): Promise<void>;
  /** Lets pack-objects run; resolves once it has exited, its output held back from git repack. */
  enumerate(): Promise<void>;
  /** Lets git repack go on; resolves with its exit status. */
  finish(): Promise<number>;
  /** Lets everything go on without waiting (closing the repository waits for git). */
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
  const output = path.join(marks, 'pack-objects.out');
  await writeFile(
    path.join(execDir, 'git'),
    [
      '#!/bin/sh',
      `export GIT_EXEC_PATH=${realExecPath}`,
      `if [ "$1" = pack-objects ] && mkdir "${marks}/pack-objects" 2>/dev/null; then`,
      `  ${wait('enumerate')}`,
      `  ${realExecPath}/git "$@" > "${output}"; status=$?`,
      `  echo $status > "${marks}/pack-objects/exit"`,
      `  ${wait('finish')}`,
      `  cat "${output}"; exit $status`,
      'fi',
      `exec ${realExecPath}/git "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const appears = (file: string) => pollUntil(async () => existsSync(path.join(marks, file)), (found) => found, { timeoutMs: 20_000, intervalMs: 10 });
  const allow = (...files: string[]) => Promise.all(files.map((file) => writeFile(path.join(marks, file), '')));
  return {
    git: { bin: repack, env: { ...process.env, GIT_EXEC_PATH: execDir } as Record<string, string> },
    started: () => appears('repack').then(() => undefined),
    list: async () => {
      await allow('list');
      await appears('pack-objects');
    },
    enumerate: async () => {
      await allow('enumerate');
      await appears('pack-objects/exit');
    },
    finish: async () => {
      await allow('list', 'enumerate', 'finish');
      await appears('repack/exit');
      return Number(await readFile(path.join(marks, 'repack/exit'), 'utf8'));
    },
    release: async () => {
      await allow('list', 'enumerate', 'finish');
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
  let version: number;
  let notes: string[];
  const logger: Logger = { info: (message) => notes.push(message), error: (message, data) => errors.push(`${message} ${JSON.stringify(data)}`) };

  // One commit of a new entry, the roll-up it makes due run before it returns; returns the commit and the pack it wrote.
  const commitOne = async (repo: ContentRepo) => {
    const before = await packNames(dir);
    const changes = [{ path: `${POSTS}/entry-${version}.md`, content: entry(version, version) }];
    version += 1;
    const { oid, pack } = await repo.serialize(async () => {
      const { oid } = await repo.commitChanges({ changes, message: `Version ${version - 1}`, author: AUTHOR });
      // Listed inside the write queue, before the roll-up the commit may queue.
      return { oid, pack: (await packNames(dir)).filter((name) => !before.includes(name)) };
    });
    expect(pack, 'the commit pack').to.have.length(1);
    await new Promise((resolve) => setImmediate(resolve));
    await repo.serialize(async () => undefined);
    return { oid, pack: pack[0] };
  };
  const commitMany = async (repo: ContentRepo, count: number) => {
    const written = [];
    for (let i = 0; i < count; i += 1) written.push(await commitOne(repo));
    return { oids: written.map(({ oid }) => oid), packs: written.map(({ pack }) => pack) };
  };
  // Which of `packs` are deleted.
  const deletedOf = (packs: string[]) => async () => {
    const left = await packNames(dir);
    return packs.filter((name) => !left.includes(name));
  };
  const readsEvery = async (repo: ContentRepo, oids: string[]) => {
    for (const oid of oids) {
      const [file] = (await git(dir, ['diff-tree', '--no-commit-id', '--name-only', '-r', '--root', oid])).trim().split('\n');
      expect(await repo.readAt(oid, file), oid).to.be.a('string');
    }
  };
  // Commits until a roll-up deletes commit packs while git is held after its
  // enumeration (the server reads git's report in its event loop, so the
  // first few may still wait); returns the commits and the packs deleted,
  // once their deletion (in the background) is over.
  const commitUntilRolledUp = async (repo: ContentRepo) => {
    const oids: string[] = [];
    const written: string[] = [];
    for (let i = 0; i < 10 * PER_ROLL_UP; i += 1) {
      const { oid, pack } = await commitOne(repo);
      oids.push(oid);
      written.push(pack);
      const deleted = deletedOf(written);
      if ((await deleted()).length > 0) return { oids, deleted: await pollUntil(deleted, (names) => names.length >= PER_ROLL_UP) };
    }
    throw new Error('no roll-up deleted a commit pack while git ran');
  };

  // Opens the repository with a held first repack, lets the first roll-up
  // (README.md and three commits) start it, and runs `during` while git waits
  // before listing the packs; `during` returns the commits it made, which are
  // read after it (git is done by then). Checks that nothing was logged as an
  // error and that git finds the repository sound.
  const whileHeld = async (during: (repo: ContentRepo, held: HeldRepack) => Promise<string[]>, heldBackPerRun?: number) => {
    const held = await holdFirstRepack(root);
    const packing = { commitsPerRollUp: PER_ROLL_UP, packsPerRun: 1, ...(heldBackPerRun === undefined ? {} : { heldBackPerRun }) };
    const repo = await ContentRepo.open(dir, { packing, git: held.git, logger });
    try {
      const oids = (await commitMany(repo, PER_ROLL_UP - 1)).oids;
      await held.started();
      oids.push(...(await during(repo, held)));
      await readsEvery(repo, oids);
    } finally {
      await held.release();
      await repo.close();
    }
    expect(errors).to.deep.equal([]);
    await git(dir, ['fsck', '--strict', '--no-progress']);
  };

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'packing-races-'));
    dir = path.join(root, 'content');
    errors = [];
    notes = [];
    version = 0;
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  it('deletes no commit pack git repack listed until it exited, however late it listed them, and git succeeds', () =>
    whileHeld(async (repo, held) => {
      await sleep(LATE_LISTING_MS);
      const late = await commitMany(repo, PER_ROLL_UP - 1);
      await held.list();
      // A roll-up's worth written after the run started: the old rule rolled these up and deleted them.
      const more = await commitOne(repo);
      expect(await packNames(dir)).to.include.members([...late.packs, more.pack]);
      expect(await held.finish()).to.equal(0);
      return [...late.oids, more.oid];
    }));

  it('rolls up and deletes the commit packs written after git enumerated what it packs, while it runs', () =>
    whileHeld(async (repo, held) => {
      await held.list();
      const early = await commitMany(repo, PER_ROLL_UP);
      await held.enumerate();
      const after = await commitUntilRolledUp(repo);
      // Only packs written after git's report went; those before it still wait.
      expect(after.deleted).to.have.length(PER_ROLL_UP);
      expect(await packNames(dir)).to.include.members(early.packs);
      await readsEvery(repo, [...early.oids, ...after.oids]);
      expect(await held.finish()).to.equal(0);
      return [...early.oids, ...after.oids];
    }));

  it('keeps .git bounded during a long run: only the packs written before git enumerated wait for it', () =>
    whileHeld(async (repo, held) => {
      await held.list();
      const early = await commitMany(repo, 2 * PER_ROLL_UP);
      await held.enumerate();
      const after = await commitUntilRolledUp(repo);
      // Many roll-ups while git is held: each deletes its commit packs (in the background: the last ones may take a moment).
      const burst = await commitMany(repo, 12 * PER_ROLL_UP + 1);
      const deleted = await pollUntil(deletedOf(burst.packs), (names) => names.length > burst.packs.length - PER_ROLL_UP);
      expect(burst.packs.length - deleted.length, 'commit packs of the burst left').to.be.below(PER_ROLL_UP);
      expect(await packNames(dir)).to.include.members(early.packs);
      await readsEvery(repo, burst.oids);
      expect(await held.finish()).to.equal(0);
      return [...early.oids, ...after.oids, ...burst.oids];
    }));

  it('stops a run that holds back more than its bound before git enumerated what it packs, rolls up what waited, and runs again once the writes pause', () =>
    // Two commit packs' worth: the second one written while git waits stops it.
    whileHeld(async (repo, held) => {
      await held.list();
      const waited = await commitMany(repo, 2);
      expect(notes.filter((note) => note.includes('was stopped'))).to.have.length(1);
      // No run is in progress: the commit packs that waited count for the next roll-up and go with it.
      const more = await commitMany(repo, PER_ROLL_UP - 2);
      expect(await pollUntil(deletedOf([...waited.packs, ...more.packs]), (names) => names.length === PER_ROLL_UP)).to.have.length(PER_ROLL_UP);
      // Two seconds without a write start it again, and this run is not held: it merges the two roll-ups.
      expect(await pollUntil(async () => (await packNames(dir)).length, (count) => count === 1, { timeoutMs: 30_000, intervalMs: 100 })).to.equal(1);
      return [...waited.oids, ...more.oids];
    }, 1));
});
