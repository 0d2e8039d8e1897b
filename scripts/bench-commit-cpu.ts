// CPU time per commit of sequential creates into an existing repository,
// through ContentRepo as the server commits: one new ~1.4 KB markdown file
// per commit (by default into `default/entries/writes`, the small folder
// /work/shared/perf/create-bench.mjs creates in), server-style message and
// trailers, index write-behind, commit packs and their roll-ups. The
// repository is copied first, never written.
// Run: node --import tsx scripts/bench-commit-cpu.ts <repo> [commits] [folder]
// (<repo>: a server's CMS_DATA_DIR/content with 10,000 posts, e.g. seeded by
// /work/shared/perf/seed-git.mjs; the folder is created when missing; TMPDIR
// picks where the copy goes, tmpfs keeps the disk out of the figure). Add
// `--cpu-prof` to node's options for a profile of the commits.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ContentRepo } from '../src/storage/content-repo.ts';

const run = promisify(execFile);
const [source, countArg, folderArg] = process.argv.slice(2);
if (source === undefined) throw new Error('usage: bench-commit-cpu.ts <repo> [commits] [folder]');
const commits = Number(countArg ?? 2_000);
const folder = folderArg ?? 'default/entries/writes';
const type = path.basename(folder);
const author = { name: 'Bench', email: 'bench@example.com' };
// An entry file as the server writes one (~1.4 KB with the body).
const front = `---\ntitle: "Bench entry"\nstatus: published\ncategory: tech\ntags: [alpha, beta]\nviews: 1234\nfeatured: false\n---\n\n`;
const body = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. '.repeat(13);

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-commit-cpu-'));
  try {
    await run('cp', ['-a', `${path.resolve(source)}/.`, dir]);
    // No background `git repack` (a child process, not counted here), so every run rolls commit packs up alike.
    const repo = await ContentRepo.open(dir, { packing: false });
    // Each create after a turn of the event loop, as a server's requests come:
    // without one, the commits' awaits all settle as microtasks, and timers
    // (the index write-behind) and finished I/O (deletions after a roll-up) wait until the end.
    const create = async (i: number) => {
      await new Promise((resolve) => setImmediate(resolve));
      return repo.serialize(() =>
        repo.commitChanges({
          changes: [{ path: `${folder}/bench-${i}.md`, content: `${front}Entry ${i}. ${body}\n` }],
          message: `Create ${type}/bench-${i}`,
          author,
          trailers: { Workspace: 'default', Type: type, Entry: `bench-${i}`, Actor: 'token:bench' },
        }),
      );
    };
    // A few hundred commits first, so JIT and caches settle as in a running server.
    for (let i = 0; i < 200; i += 1) await create(i);
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 200; i < 200 + commits; i += 1) await create(i);
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${commits} creates in ${seconds.toFixed(2)} s = ${(commits / seconds).toFixed(0)}/s; CPU per commit ${((used.user + used.system) / commits).toFixed(0)} µs (user ${(used.user / commits).toFixed(0)}, system ${(used.system / commits).toFixed(0)}); load ${os.loadavg()[0].toFixed(1)}`,
    );
    await repo.close();
    const status = await run('git', ['-C', dir, 'status', '--porcelain']);
    console.log(`git status --porcelain: ${status.stdout.trim() === '' ? 'clean' : status.stdout.slice(0, 500)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
