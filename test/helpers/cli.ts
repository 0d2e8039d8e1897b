// The real `cms` command in a child process, run from the TypeScript sources
// (as test/helpers/server-process.ts does): what it printed and its exit code.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'src/cli.ts');

/** How a `cms` run ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cms <args>` to its end, with `env` added and `input` on stdin. */
export function runCms(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliRun> {
  const run = `import(${JSON.stringify(pathToFileURL(CLI).href)}).then((cli) => cli.runCli(process.argv.slice(1)))`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', run, '--', ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, CMS_LOG_LEVEL: 'error', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
