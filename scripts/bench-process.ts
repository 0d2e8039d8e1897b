// Child processes of `npm run bench`: the CMS (`bin/cms.mjs serve`) and the
// bare-Koa baseline each run in their own Node process, so the load generator
// in the parent never shares an event loop with the server it measures.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

/** A started child server. */
export interface ChildServer {
  process: ChildProcess;
  origin: string;
  /** Milliseconds from spawn to the "listening" line on stdout. */
  listeningMs: number;
  stop(): Promise<void>;
}

const ORIGIN = /(http:\/\/127\.0\.0\.1:\d+)/;

/** Spawns `node <args>` and resolves when it prints its origin; rejects if it exits first or takes over `timeoutMs`. */
export function startChild(args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<ChildServer> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start within ${timeoutMs / 1000} s: ${errors}`)), timeoutMs);
    let output = '';
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${errors}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const origin = ORIGIN.exec(output)?.[1];
      if (!origin) return;
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve({ process: child, origin, listeningMs: performance.now() - started, stop: () => stopChild(child) });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.removeAllListeners('exit');
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resident and peak resident memory of a process in MB, from /proc (Linux); undefined elsewhere. */
export async function memoryOf(pid: number | undefined): Promise<{ rss: number; peak: number } | undefined> {
  if (pid === undefined) return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux;
 * 10 ms resolution); undefined elsewhere. Unlike throughput, CPU per request
 * stays comparable when other processes compete for the cores.
 */
export async function cpuTimeOf(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesized command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
