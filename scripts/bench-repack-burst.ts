// Measures `.git` during a burst of creates while background packing runs
// (issue 14, bounded repository growth; the repack / roll-up race in
// docs/performance.md): ContentRepo alone with default packing, one create
// after another into one folder with a turn of the event loop between them,
// `.git` sampled (like `du`) every 250 ms. Prints creates/s, the peak of
// `.git`, its size right after the burst and SETTLE_MS later, and the
// background `git repack` runs that ended (and failed) and that the server
// stopped for holding back too many commit packs. Where `taskset` exists,
// run it under `taskset -c 0` to pin the process and the git it starts to one
// core, as the perf script does: a niced repack then gets a small share of it.
// Run: TMPDIR=/var/tmp/x taskset -c 0 node --import tsx scripts/bench-repack-burst.ts [creates]
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentRepo } from '../src/storage/content-repo.ts';
import { folderBytes } from '../src/storage/git/packing.ts';

const creates = Number(process.argv[2] ?? 8000);
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 15_000);
const author = { name: 'Bench', email: 'bench@example.com' };
const folder = 'blog/entries/posts';
const MB = 1024 * 1024;

function entryFile(i: number): string {
  return `---\nid: post-${i}\ntitle: Post ${i}\nstatus: published\n---\n${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(18)}\n\nPost ${i}.\n`;
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bench-repack-burst-'));
  const gitdir = path.join(root, 'content', '.git');
  // git as the packer runs it, each `git repack` noted with its exit status.
  const calls = path.join(root, 'repacks.log');
  const wrapper = path.join(root, 'git');
  await writeFile(wrapper, `#!/bin/sh\ncase " $* " in *" repack "*) git "$@"; status=$?; echo $status >> ${JSON.stringify(calls)}; exit $status;; esac\nexec git "$@"\n`, { mode: 0o755 });
  const failures: string[] = [];
  const notes: string[] = [];
  const logger = { info: (message: string) => notes.push(message), error: (message: string, data?: unknown) => failures.push(`${message} ${JSON.stringify(data)}`) };
  const repo = await ContentRepo.open(path.join(root, 'content'), { git: { bin: wrapper }, logger });
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await folderBytes(gitdir));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    const started = performance.now();
    for (let i = 0; i < creates; i += 1) {
      const changes = [{ path: `${folder}/post-${i}.md`, content: entryFile(i) }];
      await repo.serialize(() => repo.commitChanges({ changes, message: `Create post-${i}`, author }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const seconds = (performance.now() - started) / 1000;
    const after = await folderBytes(gitdir);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    sampling = false;
    await sampler;
    const runs = (await readFile(calls, 'utf8').catch(() => '')).trim().split('\n').filter((line) => line !== '');
    console.log(
      JSON.stringify({
        creates,
        perSecond: Math.round(creates / seconds),
        peakMB: +(peak / MB).toFixed(1),
        afterBurstMB: +(after / MB).toFixed(1),
        settledMB: +((await folderBytes(gitdir)) / MB).toFixed(1),
        repacks: runs.length,
        // 143: SIGTERM, a run the server stopped.
        failedRepacks: runs.filter((status) => status !== '0' && status !== '143').length,
        stoppedRepacks: notes.filter((note) => note.includes('was stopped')).length,
        errors: failures.map((line) => line.slice(0, 300)),
        load: +os.loadavg()[0].toFixed(1),
      }),
    );
  } finally {
    sampling = false;
    await repo.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
