// The server in a process of its own (`cms serve` from the sources), for
// tests that kill it with SIGKILL and start it again on the same data root.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CLI = path.resolve(import.meta.dirname, '../../src/cli.ts');
const STARTUP_TIMEOUT_MS = 30_000;

/** A running server process and the URL it listens on. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the process printed on stderr (its JSON log lines). */
  stderr(): string;
  /** Kills the process with `signal` and waits until it is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `cms serve` on a free port over `dataDir` with `env` (CMS_* settings) and waits until it listens. */
export async function spawnServer(dataDir: string, env: Record<string, string>): Promise<ServerProcess> {
  const run = `import(${JSON.stringify(pathToFileURL(CLI).href)}).then((cli) => cli.runCli(process.argv.slice(1)))`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', run, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], {
    env: { ...process.env, CMS_LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in time: ${stderr}`)), STARTUP_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before it listened: ${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
