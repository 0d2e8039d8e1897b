// Measures ContentRepo commit throughput with 10,000 entry files in one
// folder (DESIGN.md: sequential creates must reach 200 commits/s, 100 is the
// floor). Run: node --import tsx scripts/bench-commits.ts [entries] [commits]
// The repo is created under os.tmpdir(); set TMPDIR to measure on the disk
// that will hold the data root (on some machines /tmp is much slower at
// creating files). CPU time per commit is printed too: unlike commits/s it
// barely moves when other processes load the machine.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ContentRepo } from '../src/storage/content-repo.ts';

const run = promisify(execFile);
const entries = Number(process.argv[2] ?? 10_000);
const commits = Number(process.argv[3] ?? 1_000);
const author = { name: 'Bench', email: 'bench@example.com' };
const folder = 'bench/entries/posts';

function entryFile(id: string, title: string): string {
  return `---\nid: ${id}\ntitle: ${title}\nstatus: draft\ncreated_at: 2024-01-01T00:00:00.000Z\n---\nBody of ${title}.\n`;
}

async function timed(label: string, count: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  // A turn of the event loop before each commit, as a server's requests give
  // one: without it the commits' awaits settle as microtasks, and the index
  // write-behind's timers and the roll-ups wait until the end.
  for (let i = 0; i < count; i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    await fn(i);
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / count;
  console.log(`${label}: ${count} commits in ${seconds.toFixed(2)} s = ${(count / seconds).toFixed(0)} commits/s, ${cpuMs.toFixed(2)} ms CPU per commit`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-commits-'));
  console.log(`repository: ${dir} (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`);
  try {
    const repo = await ContentRepo.open(dir);
    const seedStarted = performance.now();
    const changes = Array.from({ length: entries }, (_, i) => ({ path: `${folder}/entry-${i}.md`, content: entryFile(`seed${i}`, `Entry ${i}`) }));
    await repo.serialize(() => repo.commitChanges({ changes, message: `Seed ${entries} entries`, author }));
    console.log(`seed: ${entries} files in one commit in ${((performance.now() - seedStarted) / 1000).toFixed(2)} s`);

    const commit = (file: string, content: string | null, message: string) =>
      repo.serialize(() => repo.commitChanges({ changes: [{ path: file, content }], message, author, trailers: { 'Cms-Workspace': 'bench' } }));
    await timed('create', commits, (i) => commit(`${folder}/new-${i}.md`, entryFile(`new${i}`, `New ${i}`), `Create posts/new-${i}`));
    await timed('update', commits, (i) => commit(`${folder}/entry-${i}.md`, entryFile(`seed${i}`, `Changed ${i}`), `Update posts/entry-${i}`));
    await timed('delete', commits, (i) => commit(`${folder}/new-${i}.md`, null, `Delete posts/new-${i}`));
    const concurrentStarted = performance.now();
    await Promise.all(Array.from({ length: 200 }, (_, i) => commit(`${folder}/burst-${i}.md`, entryFile(`burst${i}`, `Burst ${i}`), `Create burst-${i}`)));
    console.log(`200 concurrent creates: ${(200 / ((performance.now() - concurrentStarted) / 1000)).toFixed(0)} commits/s`);
    await repo.close();

    const status = await run('git', ['-C', dir, 'status', '--porcelain']);
    console.log(`git status --porcelain: ${status.stdout.trim() === '' ? 'clean' : status.stdout}`);
    await run('git', ['-C', dir, 'fsck', '--no-progress']);
    console.log('git fsck: ok');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
