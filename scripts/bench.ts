// `npm run bench` (issue 4 "Benchmark", DESIGN.md "Performance budget"):
// builds a data root with 10,000 articles related to 1,000 authors (one
// commit; `--articles N` for N articles and N/10 authors, `npm run bench:100k`
// for 100,000, issue 14 item 5), starts the real server as a child process (`bin/cms.mjs serve`)
// and a bare-Koa baseline as another, then measures cold start, RSS, each read
// case over keep-alive HTTP next to a bare-Koa route returning a body of the
// same size, sequential creates, and each read's in-process time.
// The last line is `ratio_vs_koa: R` (bare Koa req/s ÷ 20-entry page req/s).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { readCases, type ReadCase } from './bench-cases.ts';
import { buildDataRoot, CATEGORIES, WORKSPACE, type BenchData } from './bench-data.ts';
import { measureInProcess, type InProcessResult } from './bench-in-process.ts';
import { runLoad, summarize, type LoadResult, type LoadSample } from './bench-load.ts';
import { cpuTimeOf, memoryOf, startChild, type ChildServer } from './bench-process.ts';

const COUNTS = countsFromArgs();
// How long the server may take to listen and then to answer /health. Starting 100,000 entries
// took over 30 s on the loaded shared machine, so the wait grows with the data.
const START_TIMEOUT_MS = Math.max(60_000, COUNTS.articles * 3);
const CONNECTIONS = 10;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4_000);
const WARMUP_MS = 1_000;
const ROUNDS = 4;
const ROUND_WARMUP_MS = 200;
const CREATES = 300;
const CLI = path.resolve(import.meta.dirname, '../bin/cms.mjs');
const KOA_SERVER = path.resolve(import.meta.dirname, 'bench-koa-server.ts');

// Default 10,000 articles + 1,000 authors (the figures compared across sessions); `--articles N` keeps one author per ten articles.
function countsFromArgs(): { articles: number; authors: number } {
  const { values } = parseArgs({ options: { articles: { type: 'string', default: '10000' } } });
  const articles = Number(values.articles);
  if (!Number.isInteger(articles) || articles < 10) throw new Error(`--articles must be a whole number of at least 10, not ${values.articles}.`);
  return { articles, authors: Math.floor(articles / 10) };
}

interface Row {
  readCase: ReadCase;
  cms: LoadResult;
  koa: LoadResult;
}

async function waitForHealth(origin: string): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    try {
      const response = await fetch(`${origin}/api/v1/health`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not accepting connections yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${origin}/api/v1/health did not answer 200 within ${START_TIMEOUT_MS / 1000} s.`);
}

// First-run setup (the first user becomes admin), then a full-access token, as test/helpers/auth.ts does.
async function createToken(origin: string): Promise<string> {
  const setup = await fetch(`${origin}/admin/api/setup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'correct horse battery' }),
  });
  const setupBody = (await setup.json()) as { meta?: { csrf_token?: string } };
  if (setup.status !== 201 || !setupBody.meta?.csrf_token) throw new Error(`setup failed with ${setup.status}`);
  const cookie = setup.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const response = await fetch(`${origin}/admin/api/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': setupBody.meta.csrf_token },
    body: JSON.stringify({ name: 'bench', permissions: [{ effect: 'allow', actions: ['*'], resources: ['*'] }] }),
  });
  const body = (await response.json()) as { data?: { token?: string } };
  if (response.status !== 201 || !body.data?.token) throw new Error(`token creation failed with ${response.status}`);
  return body.data.token;
}

// The bare-Koa route of each case returns the CMS's own answer to that case's first request.
// Returns how long each first request took: the first `q` builds the search index.
async function fixedBodies(origin: string, cases: ReadCase[], token: string, file: string): Promise<Record<string, number>> {
  const bodies: Record<string, unknown> = {};
  const firstMs: Record<string, number> = {};
  for (const readCase of cases) {
    const started = performance.now();
    const response = await fetch(`${origin}/api/v1/workspaces/${WORKSPACE}${readCase.path(0)}`, { headers: readCase.withToken ? { authorization: `Bearer ${token}` } : {} });
    if (response.status !== 200) throw new Error(`${readCase.label} answered ${response.status}: ${await response.text()}`);
    bodies[readCase.key] = await response.json();
    firstMs[readCase.key] = performance.now() - started;
  }
  await writeFile(file, JSON.stringify(bodies));
  return firstMs;
}

// Bare Koa and the CMS take turns in short rounds (ABBA order), so that load
// from other processes on this shared machine hits both sides alike.
async function measureReads(cms: ChildServer, koa: ChildServer, cases: ReadCase[], token: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const readCase of cases) {
    const koaSamples: LoadSample[] = [];
    const cmsSamples: LoadSample[] = [];
    const headers: Record<string, string> = readCase.withToken ? { authorization: `Bearer ${token}` } : {};
    for (let round = 0; round < ROUNDS; round += 1) {
      const common = { connections: CONNECTIONS, durationMs: DURATION_MS / ROUNDS, warmupMs: round === 0 ? WARMUP_MS : ROUND_WARMUP_MS };
      const runKoa = async () => koaSamples.push(await runLoad({
        ...common, origin: koa.origin, path: () => `/fixed/${readCase.key}`, serverCpuMs: () => cpuTimeOf(koa.process.pid),
      }));
      const runCms = async () => cmsSamples.push(await runLoad({
        ...common, origin: cms.origin, path: (i) => `/api/v1/workspaces/${WORKSPACE}${readCase.path(i)}`, headers, serverCpuMs: () => cpuTimeOf(cms.process.pid),
      }));
      for (const run of round % 2 === 0 ? [runKoa, runCms] : [runCms, runKoa]) await run();
    }
    rows.push({ readCase, cms: summarize(cmsSamples), koa: summarize(koaSamples) });
  }
  return rows;
}

interface CreateResult {
  perSecond: number;
  p50: number;
  p99: number;
  /** Server CPU time per create in ms. */
  cpuMs: number;
}

async function measureCreates(cms: ChildServer, token: string, data: BenchData): Promise<CreateResult> {
  const origin = cms.origin;
  const times: number[] = [];
  const cpuBefore = await cpuTimeOf(cms.process.pid);
  const started = performance.now();
  for (let i = 0; i < CREATES; i += 1) {
    const before = performance.now();
    const response = await fetch(`${origin}/api/v1/workspaces/${WORKSPACE}/content/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        title: `Bench create ${i} ${data.words[i]}`, status: 'published', summary: data.words.slice(i, i + 12).join(' '),
        body: `# Created ${i}\n\n${data.words.slice(i, i + 60).join(' ')}\n`, price: i % 1_000, category: CATEGORIES[i % CATEGORIES.length],
        release: '2024-05-01', author: 'au000001',
      }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`create ${i} answered ${response.status}`);
    times.push(performance.now() - before);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await cpuTimeOf(cms.process.pid);
  times.sort((a, b) => a - b);
  return {
    perSecond: CREATES / seconds, p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)],
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : (cpuAfter - cpuBefore) / CREATES,
  };
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function printTable(header: string[], lines: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[column]))).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

function printReads(rows: Row[]): void {
  printTable(
    ['HTTP', 'req/s', 'p50 ms', 'p99 ms', 'KB', 'koa req/s', 'koa p50', 'ratio', 'cpu µs/req', 'koa cpu µs', 'cpu ratio', 'client µs', 'errors'],
    rows.map(({ readCase, cms, koa }) => [
      readCase.label, fixed(cms.rps), fixed(cms.p50, 2), fixed(cms.p99, 2), fixed(cms.bytes / 1024, 1), fixed(koa.rps), fixed(koa.p50, 2), fixed(koa.rps / cms.rps, 2),
      fixed(cms.serverCpuUs), fixed(koa.serverCpuUs), fixed(cms.serverCpuUs / koa.serverCpuUs, 2), fixed(cms.clientCpuUs), String(cms.errors + koa.errors),
    ]),
  );
}

function printInProcess(cases: ReadCase[], results: InProcessResult[]): void {
  printTable(
    ['in-process (service call)', 'p50 ms', 'p99 ms', 'cpu µs/call', '+JSON p50 ms'],
    results.map((result) => [
      cases.find((readCase) => readCase.key === result.key)?.label ?? result.key, fixed(result.p50, 3), fixed(result.p99, 3), fixed(result.cpuUs), fixed(result.p50WithJson, 3),
    ]),
  );
}

interface ServerRun {
  coldStartMs: number;
  startCpuMs: number;
  startRss: number;
  cases: ReadCase[];
  rows: Row[];
  creates: CreateResult;
  memory: { afterReads: number; afterCreates: number; peak: number; koa: number };
}

const orNaN = (value: number | undefined) => value ?? Number.NaN;

// Everything measured against the running child processes; both are stopped before it returns.
async function measureServers(dataDir: string, data: BenchData, children: ChildServer[]): Promise<ServerRun> {
  const spawned = performance.now();
  const cms = await startChild([CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], { CMS_LOG_LEVEL: 'error' }, START_TIMEOUT_MS);
  children.push(cms);
  await waitForHealth(cms.origin);
  const coldStartMs = performance.now() - spawned;
  const startRss = orNaN((await memoryOf(cms.process.pid))?.rss);
  const startCpuMs = orNaN(await cpuTimeOf(cms.process.pid));
  console.log(`cold start: ${fixed(coldStartMs)} ms to the first 200 from /api/v1/health (listening after ${fixed(cms.listeningMs)} ms, ${fixed(startCpuMs)} ms CPU); RSS ${fixed(startRss)} MB`);

  const token = await createToken(cms.origin);
  const cases = readCases(data);
  const bodiesFile = path.join(dataDir, 'koa-bodies.json');
  const firstMs = await fixedBodies(cms.origin, cases, token, bodiesFile);
  console.log(`first requests after start: ${cases.map((readCase) => `${readCase.key} ${fixed(firstMs[readCase.key])} ms`).join(', ')}`);
  const koa = await startChild(['--import', 'tsx', KOA_SERVER, bodiesFile]);
  children.push(koa);

  console.log(`HTTP: ${CONNECTIONS} keep-alive connections; per case ${DURATION_MS / 1000} s on the CMS and ${DURATION_MS / 1000} s on bare Koa (same body), in ${ROUNDS} alternating rounds after ${WARMUP_MS / 1000} s warm-up`);
  const rows = await measureReads(cms, koa, cases, token);
  const afterReads = orNaN((await memoryOf(cms.process.pid))?.rss);
  const creates = await measureCreates(cms, token, data);
  const final = await memoryOf(cms.process.pid);
  const koaRss = orNaN((await memoryOf(koa.process.pid))?.rss);
  for (const child of children.splice(0)) await child.stop();
  return {
    coldStartMs, startCpuMs, startRss, cases, rows, creates,
    memory: { afterReads, afterCreates: orNaN(final?.rss), peak: orNaN(final?.peak), koa: koaRss },
  };
}

function report(run: ServerRun, inProcess: InProcessResult[], loadBefore: number): void {
  console.log('');
  printReads(run.rows);
  console.log('');
  printInProcess(run.cases, inProcess);
  console.log('');
  const { creates, memory } = run;
  console.log(`sequential creates: ${fixed(creates.perSecond)}/s over ${CREATES} (each one commit), p50 ${fixed(creates.p50, 2)} ms, p99 ${fixed(creates.p99, 2)} ms, server CPU ${fixed(creates.cpuMs, 2)} ms per create`);
  console.log(`cold start: ${fixed(run.coldStartMs)} ms wall, ${fixed(run.startCpuMs)} ms CPU; RSS ${fixed(run.startRss)} MB`);
  console.log(`RSS: ${fixed(memory.afterReads)} MB after reads, ${fixed(memory.afterCreates)} MB after creates, peak ${fixed(memory.peak)} MB (bare-Koa process on the same Node + tsx: ${fixed(memory.koa)} MB)`);
  console.log(`machine: ${os.cpus().length} cores, 1-minute load average ${loadBefore.toFixed(1)} at start and ${os.loadavg()[0].toFixed(1)} at the end (other processes share these cores)`);
  const page = run.rows.find((row) => row.readCase.key === 'page');
  if (!page) throw new Error('The page-of-20 case is missing.');
  console.log(`ratio_vs_koa: ${(page.koa.rps / page.cms.rps).toFixed(2)}`);
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cms-bench-'));
  const children: ChildServer[] = [];
  const loadBefore = os.loadavg()[0];
  try {
    const buildStarted = performance.now();
    const data = await buildDataRoot(dataDir, COUNTS);
    console.log(`data root: ${COUNTS.articles} articles + ${COUNTS.authors} authors in one commit, ${fixed(performance.now() - buildStarted)} ms (${dataDir})`);
    const run = await measureServers(dataDir, data, children);
    const inProcess = await measureInProcess(dataDir, run.cases);
    console.log(`in-process: createServices loaded the data root in ${fixed(inProcess.loadMs)} ms`);
    report(run, inProcess.results, loadBefore);
  } finally {
    for (const child of children) await child.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
