// The `cms` command: `cms serve [--port N] [--host H] [--data DIR] [--base-url URL]`
// runs the server; `cms gc [--data DIR]` packs the content repository by hand.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config/config.ts';
import { StartupError } from './errors/startup-error.ts';
import { startServer } from './main.ts';
import { packRepository } from './storage/git/packing.ts';

const USAGE = 'Usage: cms serve [--port N] [--host HOST] [--data DIR] [--base-url URL]\n       cms gc [--data DIR]';

/** Runs the `cms` command line; bad usage sets exit code 2, a ConfigError is printed without a stack. */
export async function runCli(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean' } },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || (command !== 'serve' && command !== 'gc')) {
    process.stdout.write(`${USAGE}\n`);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const flags = { port: values.port, host: values.host, data: values.data, 'base-url': values['base-url'] };
  try {
    await (command === 'gc' ? gc(flags) : serve(flags));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    if (error instanceof StartupError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
}

async function serve(flags: Record<string, string | undefined>): Promise<void> {
  const running = await startServer({ flags });
  process.stdout.write(`CMS listening on ${running.url} (data: ${running.services.config.dataDir})\n`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// `git gc` on the content repository of the configured data root; safe while the server runs.
async function gc(flags: Record<string, string | undefined>): Promise<void> {
  const gitdir = path.join(loadConfig({ flags }).dataDir, 'content', '.git');
  let result;
  try {
    result = await packRepository(gitdir);
  } catch (error) {
    process.stderr.write(`Packing ${gitdir} failed: ${error instanceof Error ? error.message.trim() : String(error)}\n`);
    process.exitCode = 1;
    return;
  }
  const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  process.stdout.write(`Packed ${gitdir}: ${megabytes(result.bytesBefore)} MB before, ${megabytes(result.bytesAfter)} MB after.\n`);
}
