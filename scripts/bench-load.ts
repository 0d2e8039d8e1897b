// A small keep-alive HTTP load generator for `npm run bench`: a fixed number of
// connections, each sending its next request as soon as the previous answer
// has been read in full, for a fixed time. node:http with one keep-alive
// Agent, so every case pays the same client cost.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** One measured case: how to build the i-th request and how long to run. */
export interface LoadOptions {
  /** Origin, e.g. http://127.0.0.1:3000. */
  origin: string;
  /** Path (with query) of the i-th request, so cases can vary offsets or terms. */
  path: (i: number) => string;
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  /** Requests before the clock starts (JIT, caches, sockets). */
  warmupMs: number;
  /** Reads the server's CPU time in ms, called right before and after the measured window. */
  serverCpuMs?: () => Promise<number | undefined>;
}

/** Throughput and latency of one case; latencies in milliseconds. */
export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** Mean response body size in bytes. */
  bytes: number;
  /** Server CPU time per request in µs (NaN when unknown). */
  serverCpuUs: number;
  /** Load generator CPU time per request in µs. */
  clientCpuUs: number;
}

interface Answer {
  status: number;
  size: number;
}

function send(target: http.RequestOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(target, (response) => {
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, size }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

async function drive(options: LoadOptions, agent: http.Agent, until: number, counter: { next: number }, record?: (ms: number, answer: Answer) => void): Promise<void> {
  const { hostname, port } = new URL(options.origin);
  const headers = options.headers ?? {};
  while (performance.now() < until) {
    const target = { agent, hostname, port, headers, path: options.path(counter.next) };
    counter.next += 1;
    const started = performance.now();
    const answer = await send(target);
    record?.(performance.now() - started, answer);
  }
}

/** The raw measurements of one or more runs of a case. */
export interface LoadSample {
  latencies: number[];
  errors: number;
  bytes: number;
  seconds: number;
  serverCpuMs: number;
  clientCpuMs: number;
}

/** Runs one case: warm-up, then `durationMs` of measured requests on `connections` keep-alive sockets. */
export async function runLoad(options: LoadOptions): Promise<LoadSample> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const counter = { next: 0 };
  const lanes = Array.from({ length: options.connections });
  try {
    const warmupEnd = performance.now() + options.warmupMs;
    await Promise.all(lanes.map(() => drive(options, agent, warmupEnd, counter)));
    const sample: LoadSample = { latencies: [], errors: 0, bytes: 0, seconds: 0, serverCpuMs: Number.NaN, clientCpuMs: 0 };
    const serverBefore = await options.serverCpuMs?.();
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    const end = started + options.durationMs;
    await Promise.all(lanes.map(() => drive(options, agent, end, counter, (ms, answer) => {
      sample.latencies.push(ms);
      sample.bytes += answer.size;
      if (answer.status !== 200) sample.errors += 1;
    })));
    sample.seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(clientBefore);
    sample.clientCpuMs = (client.user + client.system) / 1000;
    const serverAfter = await options.serverCpuMs?.();
    if (serverBefore !== undefined && serverAfter !== undefined) sample.serverCpuMs = serverAfter - serverBefore;
    return sample;
  } finally {
    agent.destroy();
  }
}

/** Pools the samples of several runs of one case into one result. */
export function summarize(samples: LoadSample[]): LoadResult {
  const latencies = samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const bytes = samples.reduce((sum, sample) => sum + sample.bytes, 0);
  return {
    requests: latencies.length,
    errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bytes: latencies.length === 0 ? 0 : bytes / latencies.length,
    serverCpuUs: (samples.reduce((sum, sample) => sum + sample.serverCpuMs, 0) * 1000) / latencies.length,
    clientCpuUs: (samples.reduce((sum, sample) => sum + sample.clientCpuMs, 0) * 1000) / latencies.length,
  };
}
