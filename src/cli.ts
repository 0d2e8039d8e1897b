// The `cms` command: `cms serve [--port N] [--host H] [--data DIR] [--base-url URL]`.
import { parseArgs } from 'node:util';
import { ConfigError } from './config/config.ts';
import { startServer } from './main.ts';

const USAGE = 'Usage: cms serve [--port N] [--host HOST] [--data DIR] [--base-url URL]';

/** Runs the `cms` command line; bad usage sets exit code 2, a ConfigError is printed without a stack. */
export async function runCli(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean' } },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || command !== 'serve') {
    process.stdout.write(`${USAGE}\n`);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  try {
    const running = await startServer({ flags: { port: values.port, host: values.host, data: values.data, 'base-url': values['base-url'] } });
    process.stdout.write(`CMS listening on ${running.url} (data: ${running.services.config.dataDir})\n`);
    const stop = () => void running.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}
