// Measures how the content repository grows under API writes (issue 14,
// "Bounded repository growth": at most 150 MB after 10,000 creates): starts
// the real server (`bin/cms.mjs serve`) on a fresh data root under
// os.tmpdir(), creates N posts through the public API with 4 concurrent
// writers, and prints the creates/s and the size of `content/.git` (like
// `du`), its loose objects and packs, right after the creates and once
// background packing has settled. Environment variables such as
// CMS_GIT_PACKING=0 pass through to the server. Where `taskset` exists the
// server (and any git it starts) is pinned to CPU 0, as the shared perf script does.
// Run: TMPDIR=/var/tmp node --import tsx scripts/bench-repo-growth.ts [N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { folderBytes } from '../src/storage/git/packing.ts';

const CLI = path.resolve(import.meta.dirname, '../bin/cms.mjs');
const total = Number(process.argv[2] ?? 10_000);
const CONCURRENCY = 4;
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 60_000);

// CPU seconds of the server process and of the child processes it has waited for (git), from /proc.
async function cpuSeconds(pid: number | undefined): Promise<{ server: number; git: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    const ticks = 100;
    return { server: (fields[11] + fields[12]) / ticks, git: (fields[13] + fields[14]) / ticks };
  } catch {
    return undefined;
  }
}

async function startServer(dataDir: string): Promise<{ url: string; pid: number | undefined; stop: () => void }> {
  const command = [process.execPath, CLI, 'serve', '--port', '0', '--data', dataDir];
  const pinned = spawnSync('taskset', ['--version']).status === 0 ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(pinned[0], pinned.slice(1), { env: { CMS_LOG_LEVEL: 'error', ...process.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match !== null) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

async function call(url: string, method: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function fullAccessToken(url: string): Promise<string> {
  const setup = await call(`${url}/admin/api/setup`, 'POST', { username: 'admin', password: 'correct horse battery' }, {});
  const cookie = setup.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const token = await call(`${url}/admin/api/tokens`, 'POST', { name: 'bench', permissions: [{ effect: 'allow', actions: ['*'], resources: ['*'] }] }, { cookie, 'x-csrf-token': setup.body.meta.csrf_token });
  return token.body.data.token as string;
}

async function repoFigures(gitdir: string): Promise<string> {
  const folders = (await readdir(path.join(gitdir, 'objects'))).filter((name) => /^[0-9a-f]{2}$/.test(name));
  let loose = 0;
  for (const folder of folders) loose += (await readdir(path.join(gitdir, 'objects', folder)).catch(() => [])).length;
  const packs = (await readdir(path.join(gitdir, 'objects', 'pack'))).filter((name) => name.endsWith('.pack')).length;
  return `.git ${(await folderBytes(gitdir) / 1024 / 1024).toFixed(1)} MB, ${loose} loose objects, ${packs} packs`;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-growth-'));
  const gitdir = path.join(dataDir, 'content', '.git');
  const server = await startServer(dataDir);
  try {
    const token = await fullAccessToken(server.url);
    const api = `${server.url}/api/v1/workspaces/default`;
    const headers = { authorization: `Bearer ${token}` };
    const fields = { summary: { type: 'text' }, body: { type: 'markdown' }, tags: { type: 'select', multiple: true, options: ['news', 'tech', 'life'] }, rating: { type: 'number' } };
    const type = await call(`${api}/content-types`, 'POST', { name: 'posts', fields }, headers);
    if (type.status !== 201) throw new Error(`type: ${type.status}`);
    let next = 0;
    const started = performance.now();
    const writer = async (): Promise<void> => {
      while (next < total) {
        const i = next++;
        const body = { title: `Post ${i}`, status: 'published', summary: `Summary of post ${i}.`, tags: ['news'], rating: i % 10, body: `${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(18)}\n\nPost ${i}.` };
        const created = await call(`${api}/content/posts`, 'POST', body, headers);
        if (created.status !== 201) throw new Error(`create ${i}: ${created.status} ${JSON.stringify(created.body)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, writer));
    const seconds = (performance.now() - started) / 1000;
    console.log(`${total} creates in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(0)}/s (load average ${os.loadavg()[0].toFixed(1)})`);
    console.log(`right after the creates: ${await repoFigures(gitdir)}; CPU s ${JSON.stringify(await cpuSeconds(server.pid))}`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    console.log(`${SETTLE_MS / 1000} s later: ${await repoFigures(gitdir)}; CPU s ${JSON.stringify(await cpuSeconds(server.pid))}`);
  } finally {
    server.stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
