// The in-process half of `npm run bench`: opens the same data root with the
// real composition root (createServices) and times the one service call each
// read route makes, then that plus JSON.stringify, with no HTTP in between.
// This is the "every query's in-process time p50 under 2 ms".
import { parse } from 'node:querystring';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/config.ts';
import { ANONYMOUS, type Principal } from '../src/domain/auth/principal.ts';
import { parseListParams, parseReadParams } from '../src/http/query-params.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createServices, type Services } from '../src/services.ts';
import type { ReadCase } from './bench-cases.ts';
import { WORKSPACE } from './bench-data.ts';

/** In-process timings of one case, in milliseconds. */
export interface InProcessResult {
  key: string;
  p50: number;
  p99: number;
  /** p50 of the service call plus serializing the response body. */
  p50WithJson: number;
  /** Mean CPU time per service call in µs (robust when other processes compete for the cores). */
  cpuUs: number;
}

const RUNS = 1_000;
const WARMUP = 100;
const TOKEN: Principal = { kind: 'token', id: 'bench', name: 'bench', grants: [{ effect: 'allow', actions: ['*'], resources: ['*'] }] };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

// What the entries router does for GET /content/{type}[/{id}], minus Koa.
function callFor(services: Services, readCase: ReadCase): (i: number) => unknown {
  const principal = readCase.withToken ? TOKEN : ANONYMOUS;
  const options = { mediaUrl: (file: string) => `http://127.0.0.1/media/${WORKSPACE}/${encodeURIComponent(file)}` };
  return (i) => {
    const [pathname, search = ''] = readCase.path(i).split('?');
    const raw = parse(search);
    const parts = pathname.split('/').filter(Boolean);
    if (parts.length === 3) {
      const { entry } = services.entries.get(principal, WORKSPACE, parts[1], parts[2], parseReadParams(raw), options);
      return { data: entry };
    }
    const { entries, meta } = services.entries.list(principal, WORKSPACE, parts[1], parseListParams(raw), options);
    return { data: entries, meta };
  };
}

// `first` keeps the two passes on different requests, so neither is answered by a cache the other filled.
function time(run: (i: number) => unknown, serialize: boolean, first: number): { times: number[]; cpuUs: number } {
  for (let i = 0; i < WARMUP; i += 1) run(first + i);
  const times: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const body = run(first + WARMUP + i);
    if (serialize) JSON.stringify(body);
    times.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { times: times.sort((a, b) => a - b), cpuUs: (cpu.user + cpu.system) / RUNS };
}

/** Opens the data root in this process, times every case and closes it again. Also returns the load time. */
export async function measureInProcess(dataDir: string, cases: ReadCase[]): Promise<{ loadMs: number; results: InProcessResult[] }> {
  const started = performance.now();
  const config = loadConfig({ env: { CMS_LOG_LEVEL: 'silent', CMS_WATCH_INTERVAL_MS: '60000' }, flags: { data: dataDir, port: '0' } });
  const services = await createServices(config, createLogger(config.logLevel));
  const loadMs = performance.now() - started;
  try {
    const results = cases.map((readCase) => {
      const run = callFor(services, readCase);
      const plain = time(run, false, 0);
      const withJson = time(run, true, WARMUP + RUNS);
      return {
        key: readCase.key, p50: percentile(plain.times, 50), p99: percentile(plain.times, 99), p50WithJson: percentile(withJson.times, 50), cpuUs: plain.cpuUs,
      };
    });
    return { loadMs, results };
  } finally {
    await services.close();
  }
}
