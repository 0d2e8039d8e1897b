// The real server as a separate process (`bin/cms.mjs serve`), for tests
// that kill it with SIGKILL or must run it as another user: started on port
// 0, its address read from its first line, its log lines (JSON on stderr) kept.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const CLI = path.resolve(import.meta.dirname, '../../bin/cms.mjs');
const START_TIMEOUT_MS = 60_000;

/** A server running in a child process. */
export interface ChildServer {
  url: string;
  /** The server's log lines so far, parsed. */
  logs: { level: string; message: string; [key: string]: unknown }[];
  /** Kills the server and any git process it started (its process group) with SIGKILL, and waits for it to end. */
  kill(): Promise<void>;
}

/** How the child runs: extra environment, a user to run as (needs root), a file size limit. */
export interface ChildServerOptions {
  env?: Record<string, string>;
  uid?: number;
  gid?: number;
  /** RLIMIT_FSIZE set with `ulimit -f`, in blocks of 512 bytes (POSIX sh): writes past it fail with EFBIG, like a full disk. */
  fileSizeLimitBlocks?: number;
}

/** Starts `cms serve` on `dataDir`; rejects with its output when it exits before listening. */
export async function startChildServer(dataDir: string, options: ChildServerOptions = {}): Promise<ChildServer> {
  const child = spawnServer(dataDir, { ...options, env: { CMS_LOG_LEVEL: 'info', CMS_WATCH_INTERVAL_MS: '100', ...options.env } }, true);
  const logs: ChildServer['logs'] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    const lines = stderr.split('\n');
    stderr = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        logs.push({ level: 'raw', message: line });
      }
    }
  });
  const url = await listeningUrl(child, logs);
  return { url, logs, kill: () => killGroup(child) };
}

/**
 * Whether the server can be run as the user of `options`: the project must be
 * readable by them (a checkout in a `mktemp -d` folder, mode 0700, is not).
 */
export function canRunAs(options: ChildServerOptions): boolean {
  if (options.uid === undefined) return true;
  const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(CLI)}, require('fs').constants.R_OK)`], { uid: options.uid, gid: options.gid, stdio: 'ignore' });
  return probe.status === 0;
}

/** Runs `cms serve` until it exits and returns its exit code and output (for servers that must refuse to start). */
export async function runChildServer(dataDir: string, options: ChildServerOptions = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnServer(dataDir, { ...options, env: { CMS_LOG_LEVEL: 'error', ...options.env } }, false);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    // A server that started after all is stopped, so the test reports it instead of hanging.
    if (stdout.includes('listening')) child.kill('SIGKILL');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

function spawnServer(dataDir: string, options: ChildServerOptions, detached: boolean): ChildProcess {
  const command = [process.execPath, CLI, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir];
  const limited = options.fileSizeLimitBlocks === undefined ? command : ['/bin/sh', '-c', `ulimit -f ${options.fileSizeLimitBlocks} && exec "$@"`, 'sh', ...command];
  return spawn(limited[0], limited.slice(1), {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
    uid: options.uid,
    gid: options.gid,
  });
}

function listeningUrl(child: ChildProcess, logs: ChildServer['logs']): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error('the server did not start in time')), START_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening: ${JSON.stringify(logs.slice(-5))}`));
    });
  });
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-(child.pid ?? 0), 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
  await exited;
}
