// Measures git as a peer on the bench data root (10,000 articles, 1,000
// authors): how long push validation takes for pushes of 1, 100 and 1,000
// changed entries, how far behind two read replicas are after each write
// on the primary, what a write forwarded through a replica costs, and how
// many creates per second the primary takes with the replicas following.
// Figures go to docs/deployment.md. Run:
//   TMPDIR=/var/tmp node --import tsx scripts/bench-git.ts [articles]
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../src/main.ts';
import { buildDataRoot, WORKSPACE } from './bench-data.ts';

const run = promisify(execFile);
const articles = Number(process.argv[2] ?? 10_000);
const BENCH_GRANTS = [{ effect: 'allow' as const, actions: ['*'], resources: ['*'] }];

async function git(cwd: string, args: string[]): Promise<string> {
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull };
  return (await run('git', args, { cwd, env, maxBuffer: 256 * 1024 * 1024 })).stdout;
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
  return `median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms (n=${sorted.length})`;
}

async function tokenOf(server: RunningServer): Promise<string> {
  const principal = { kind: 'token' as const, id: 'bench', name: 'bench', grants: BENCH_GRANTS };
  return (await server.services.tokens.create(principal, { name: 'bench', permissions: BENCH_GRANTS })).token;
}

// Rewrites `count` article files in the clone with a new summary and pushes them; returns the server's validation time.
async function pushChanged(server: RunningServer, work: string, count: number, round: number): Promise<{ validationMs: number; pushMs: number }> {
  for (let i = 0; i < count; i += 1) {
    const file = path.join(work, WORKSPACE, 'entries', 'articles', `article-${(round * 1_009 + i) % articles}.md`);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^summary: .*$/m, `summary: changed in round ${round}`));
  }
  await git(work, ['commit', '-qam', `Change ${count} articles`]);
  const started = performance.now();
  await git(work, ['push', '--quiet']);
  const pushMs = performance.now() - started;
  return { validationMs: server.services.git.lastReceivedPush()?.validation_ms ?? Number.NaN, pushMs };
}

async function measurePushes(primary: RunningServer, url: string, scratch: string): Promise<void> {
  const cloneStarted = performance.now();
  await git(scratch, ['clone', '--quiet', url, 'work']);
  console.log(`clone of ${articles + 1_000} entries over HTTP: ${(performance.now() - cloneStarted).toFixed(0)} ms`);
  const work = path.join(scratch, 'work');
  await git(work, ['config', 'user.name', 'Bench']);
  await git(work, ['config', 'user.email', 'bench@example.com']);
  for (const [count, rounds] of [[1, 20], [100, 5], [1_000, 2]] as const) {
    const results = [];
    for (let round = 0; round < rounds; round += 1) results.push(await pushChanged(primary, work, count, round + count));
    console.log(`push of ${count} changed entries: validation ${summary(results.map((result) => result.validationMs))}; whole git push ${summary(results.map((result) => result.pushMs))}`);
  }
}

function create(server: string, token: string, title: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return fetch(`${server}/api/v1/workspaces/${WORKSPACE}/content/authors`, { method: 'POST', headers, body: JSON.stringify({ title, status: 'published' }) }).then(async (response) => {
    const body = (await response.json()) as { data: { slug: string } };
    return body.data.slug;
  });
}

async function createsPerSecond(server: string, token: string, label: string): Promise<string> {
  const started = performance.now();
  for (let i = 0; i < 200; i += 1) await create(server, token, `${label} ${i}`);
  return (200 / ((performance.now() - started) / 1000)).toFixed(0);
}

async function measureReplicas(primary: RunningServer, token: string): Promise<void> {
  console.log(`sequential creates on the primary alone: ${await createsPerSecond(primary.url, token, 'Alone')}/s`);
  const replicaToken = await tokenOf(primary);
  const replicas: RunningServer[] = [];
  try {
    for (let i = 0; i < 2; i += 1) {
      const started = performance.now();
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-replica-'));
      replicas.push(await startServer({ env: { CMS_LOG_LEVEL: 'error', CMS_ROLE: 'replica', CMS_PRIMARY_URL: primary.url, CMS_GIT_UPSTREAM_TOKEN: replicaToken }, flags: { port: '0', data: dataDir } }));
      console.log(`replica ${i + 1} first start (clone and load): ${(performance.now() - started).toFixed(0)} ms`);
    }
    const lags: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const written = performance.now();
      const slug = await create(primary.url, token, `Lag probe ${i}`);
      await Promise.all(replicas.map(async (replica) => {
        for (;;) {
          const response = await fetch(`${replica.url}/api/v1/workspaces/${WORKSPACE}/content/authors/${slug}`);
          await response.arrayBuffer();
          if (response.status === 200) break;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        lags.push(performance.now() - written);
      }));
    }
    console.log(`replica lag after a write on the primary (2 replicas): ${summary(lags)}`);
    const forwarded: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      await create(replicas[0].url, token, `Forwarded ${i}`);
      forwarded.push(performance.now() - started);
    }
    console.log(`write sent to a replica, answered once the replica holds it: ${summary(forwarded)}`);
    console.log(`sequential creates on the primary with 2 replicas following: ${await createsPerSecond(primary.url, token, 'Followed')}/s`);
  } finally {
    for (const replica of replicas) {
      await replica.close();
      await rm(replica.services.config.dataDir, { recursive: true, force: true });
    }
  }
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-git-'));
  console.log(`bench-git: ${articles} articles (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`);
  const dataDir = path.join(scratch, 'primary');
  await buildDataRoot(dataDir, { articles, authors: 1_000 });
  const primary = await startServer({ env: { CMS_LOG_LEVEL: 'error' }, flags: { port: '0', data: dataDir } });
  try {
    const token = await tokenOf(primary);
    await measurePushes(primary, primary.url.replace('://', `://bench:${token}@`) + '/git/content.git', scratch);
    await measureReplicas(primary, token);
  } finally {
    await primary.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
