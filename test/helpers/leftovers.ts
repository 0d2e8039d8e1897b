// What a request may leave behind on this machine once it is over: processes
// working on a folder (git upload-pack and the pack-objects it starts) and
// files this process still holds open. Read from /proc (Linux).
import { readdir, readFile, readlink } from 'node:fs/promises';

/** The processes (pid and command line) whose command line names `dir` or whose working folder is inside it. */
export async function processesUsing(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid) || pid === String(process.pid)) continue;
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ').trim();
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
    if (cmdline.includes(dir) || cwd === dir || cwd.startsWith(dir + '/')) found.push(`${pid} ${cmdline}`);
  }
  return found;
}

/** The files under `dir` this process holds open. */
export async function openFilesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(dir + '/')) found.push(target);
  }
  return found;
}
