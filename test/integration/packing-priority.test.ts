// The CPU share of a background `git repack` (src/storage/git/packing.ts): a
// run that fell behind the writes gets its fair share while they go on, and
// yields (niced) once they pause, so the reads after a burst of writes do not
// share the core with it half and half. A wrapper holds the real git's repack
// and says its pid, whose niceness the test reads from /proc.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Packer } from '../../src/storage/git/packing.ts';
import { pollUntil } from '../helpers/poll.ts';

// The niceness of process `pid` (/proc/<pid>/stat: the 19th field, the 17th after the command name).
async function nicenessOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('the priority of background packing', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'packing-priority-'));
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  it('runs a git that fell behind the writes at full priority while they go on, and nices it once they pause', async function () {
    // Relative to this process's own niceness (a test run under `nice -n 5` starts git at 5); the packer nices to 10.
    const base = os.getPriority();
    if (!existsSync('/proc/self/stat') || base >= 10) this.skip();
    const gitdir = path.join(root, 'repo.git');
    execFileSync('git', ['init', '-q', '--bare', gitdir]);
    const pidFile = path.join(root, 'repack.pid');
    const go = path.join(root, 'go');
    const wrapper = path.join(root, 'held-git');
    // The packer execs its way (env, nice, ionice) to this script, which keeps the child's pid.
    await writeFile(
      wrapper,
      ['#!/bin/sh', `case " $* " in *" repack "*) echo $$ > "${pidFile}"; until [ -e "${go}" ]; do sleep 0.01; done;; esac`, 'exec git "$@"', ''].join('\n'),
      { mode: 0o755 },
    );
    const packer = await Packer.start(gitdir, { git: { bin: wrapper }, packsPerRun: 1 });
    try {
      // Two runs' worth at once: behind, so no nice.
      packer.noteWritten({ objects: 0, bytes: 0, packs: 2 });
      const pid = Number(await pollUntil(async () => (existsSync(pidFile) ? (await readFile(pidFile, 'utf8')).trim() : ''), (text) => text !== '', { timeoutMs: 20_000, intervalMs: 10 }));
      expect(await nicenessOf(pid), 'at its start').to.equal(base);
      // Writes keep coming for twice the quiet time the packer waits for.
      for (let i = 1; i <= 8; i += 1) {
        await sleep(250);
        packer.noteWritten({ objects: 0, bytes: 0, packs: 2 + i });
      }
      expect(await nicenessOf(pid), 'while the writes go on').to.equal(base);
      // They pause: the run yields.
      expect(await pollUntil(() => nicenessOf(pid), (niceness) => niceness === 10, { timeoutMs: 5000, intervalMs: 50 })).to.equal(10);
    } finally {
      await writeFile(go, '');
      await packer.close();
    }
  });
});
