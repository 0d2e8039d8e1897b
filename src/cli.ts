// The `cms` command (docs/cli.md): serve, check, user, token, media, gc, version.
// Each command declares its options once (cli/arguments.ts); every mistake
// and every refusal is one line on stderr and a non-zero exit code: 2 for a
// mistake on the command line, 1 for a command that failed or found problems.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from './config/config.ts';
import { isAppError } from './errors/app-error.ts';
import { StartupError } from './errors/startup-error.ts';
import { limitHeapGrowth } from './lib/heap-growth.ts';
import { findPackageRoot } from './lib/package-root.ts';
import { startServer } from './main.ts';
import { packRepository } from './storage/git/packing.ts';
import { commandHelp, commandSynopsis, parseCommandLine, stringOption, UsageError, type CommandSpec, type OptionSpec } from './cli/arguments.ts';
import { checkCommand } from './cli/check.ts';
import { tokenCommand, userCommands } from './cli/accounts.ts';
import { mediaHashCommand } from './cli/media-hashes.ts';

const DATA: OptionSpec = { type: 'string', value: 'DIR', description: 'the data root holding content/, media/, cache/ and state/; default $CMS_DATA_DIR or the current folder' };

const serveCommand: CommandSpec<number | undefined> = {
  name: 'serve',
  summary: 'Runs the server (the public API, the admin API and the admin app at /admin) until SIGINT or SIGTERM. Every setting is also an environment variable (README "Configuration").',
  options: {
    port: { type: 'string', value: 'N', description: 'port to listen on; 0 picks a free one (default $PORT or 3000)' },
    host: { type: 'string', value: 'HOST', description: 'address to listen on (default $HOST or 127.0.0.1)' },
    data: DATA,
    'base-url': { type: 'string', value: 'URL', description: 'public base URL used in absolute links (default: derived per request)' },
  },
  async run(input) {
    const flags = { port: stringOption(input, 'port'), host: stringOption(input, 'host'), data: stringOption(input, 'data'), 'base-url': stringOption(input, 'base-url') };
    const running = await startServer({ flags });
    limitHeapGrowth(running.services.config.nodeOptions);
    process.stdout.write(`CMS listening on ${running.url} (data: ${running.services.config.dataDir})\n`);
    const stop = () => void running.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Still running: the exit code is set when it stops.
    return undefined;
  },
};

const gcCommand: CommandSpec<number> = {
  name: 'gc',
  summary: 'Packs the content repository\'s objects with `git gc`; safe while the server runs (git takes its own locks).',
  options: { data: DATA },
  async run(input) {
    const config = loadConfig({ flags: { data: stringOption(input, 'data') } });
    const gitdir = path.join(config.dataDir, 'content', '.git');
    let result;
    try {
      result = await packRepository(gitdir, { bin: config.git.bin, env: config.git.env });
    } catch (error) {
      throw new StartupError(`Packing ${gitdir} failed: ${error instanceof Error ? error.message.trim() : String(error)}`);
    }
    const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    process.stdout.write(`Packed ${gitdir}: ${megabytes(result.bytesBefore)} MB before, ${megabytes(result.bytesAfter)} MB after.\n`);
    return 0;
  },
};

const versionCommand: CommandSpec<number> = {
  name: 'version',
  summary: 'Prints the name and version of this git-cms.',
  options: {},
  async run() {
    const { name, version } = JSON.parse(readFileSync(path.join(findPackageRoot(import.meta.url), 'package.json'), 'utf8')) as { name: string; version: string };
    process.stdout.write(`${name} ${version}\n`);
    return 0;
  },
};

const COMMANDS: CommandSpec<number | undefined>[] = [serveCommand, checkCommand, ...userCommands, tokenCommand, mediaHashCommand, gcCommand, versionCommand];
const GROUPS = new Set(COMMANDS.filter((command) => command.name.includes(' ')).map((command) => command.name.split(' ')[0]));

/** Runs the `cms` command line with `argv` (without node and the script) and sets process.exitCode. */
export async function runCli(argv: string[]): Promise<void> {
  try {
    const exitCode = await dispatch(argv);
    if (exitCode !== undefined) process.exitCode = exitCode;
  } catch (error) {
    const exitCode = error instanceof UsageError || error instanceof ConfigError ? 2 : 1;
    // Exits at once: a start that failed halfway may have left a socket or a timer that would keep the process alive.
    process.stderr.write(`cms: ${oneLine(error)}\n`, () => process.exit(exitCode));
  }
}

async function dispatch(argv: string[]): Promise<number | undefined> {
  if (argv.length === 0) return serveCommand.run({ values: {}, args: [] });
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(overview());
    return 0;
  }
  if (argv[0] === '--version') return versionCommand.run({ values: {}, args: [] });
  // A command is one word or, for a group, two: `user create`.
  const words = GROUPS.has(argv[0]) ? 2 : 1;
  const name = argv.slice(0, words).join(' ');
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) throw new UsageError(unknownCommand(argv, words));
  const input = parseCommandLine(command, argv.slice(words));
  if (input.values.help) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  return command.run(input);
}

function overview(): string {
  const lines = ['Usage: cms COMMAND [options]   (without a command: cms serve)', '', 'Commands:'];
  for (const command of COMMANDS) lines.push(`  ${commandSynopsis(command)}`);
  lines.push('', '`cms COMMAND --help` describes a command. Exit codes: 0 done, 1 failed or problems found, 2 a mistake on the command line.');
  return `${lines.join('\n')}\n`;
}

function unknownCommand(argv: string[], words: number): string {
  if (words === 2) {
    const verbs = COMMANDS.filter((command) => command.name.startsWith(`${argv[0]} `)).map((command) => command.name.split(' ')[1]);
    if (argv[1] === undefined || argv[1].startsWith('-')) return `cms ${argv[0]} needs one of: ${verbs.join(', ')}.`;
    return `Unknown command "cms ${argv[0]} ${argv[1]}"; cms ${argv[0]} takes ${verbs.join(', ')}.`;
  }
  if (argv[0].startsWith('-')) return `Unknown option ${argv[0]}; cms --help lists the commands and their options.`;
  return `Unknown command "${argv[0]}"; cms --help lists the commands.`;
}

// Known failures print their message; an AppError adds the fields it blames. Anything else names its kind, never a stack.
function oneLine(error: unknown): string {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof StartupError) return error.message;
  if (isAppError(error)) {
    const fields = Object.entries(error.fields ?? {}).map(([field, message]) => `${field}: ${message}`);
    return [error.message, ...fields].join(' ');
  }
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`.replace(/\s*\n\s*/g, ' ');
}
