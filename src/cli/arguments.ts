// The command line's grammar: each command declares its options and
// arguments once, and the same declaration parses argv strictly and prints
// the command's --help. Every mistake becomes a UsageError, one line that
// names what the user typed.
import { parseArgs } from 'node:util';

/** One option of a command: `--name VALUE` (string) or `--name` (boolean). */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Shown after the flag in the help, e.g. `DIR`. */
  value?: string;
  multiple?: boolean;
  /** The command cannot run without it. */
  required?: boolean;
  description: string;
}

/** A command: what it is called, what it takes, and what it does with it. */
export interface CommandSpec<R = unknown> {
  /** `serve`, or a group and a verb: `user create`. */
  name: string;
  summary: string;
  /** Names of the positional arguments in order, e.g. ['USERNAME']; all required. */
  args?: string[];
  options: Record<string, OptionSpec>;
  /** Lines of further help below the options. */
  notes?: string[];
  run(input: ParsedInput): Promise<R>;
}

/** What a command receives: its options by name and its positional arguments. */
export interface ParsedInput {
  values: Record<string, string | boolean | string[] | undefined>;
  args: string[];
}

/** A mistake on the command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/**
 * Parses `argv` (after the command words) for `command`. Throws UsageError
 * for an unknown option, a missing option value, a missing or stray argument.
 */
export function parseCommandLine(command: CommandSpec, argv: string[]): ParsedInput {
  const options = Object.fromEntries(Object.entries(command.options).map(([name, spec]) => [name, { type: spec.type, multiple: spec.multiple === true }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${describeParseError(error, argv)} (cms ${command.name} --help lists its options)`);
  }
  const expected = command.args ?? [];
  if (parsed.values.help) return { values: { help: true }, args: [] };
  if (parsed.positionals.length > expected.length) {
    const stray = parsed.positionals[expected.length];
    const takes = expected.length === 0 ? 'takes no arguments' : `takes only ${expected.join(' ')}`;
    throw new UsageError(`Unexpected argument "${stray}": cms ${command.name} ${takes}.`);
  }
  if (parsed.positionals.length < expected.length) {
    throw new UsageError(`cms ${command.name} needs ${expected.slice(parsed.positionals.length).join(' ')}: cms ${command.name} ${expected.join(' ')}.`);
  }
  const values: ParsedInput['values'] = parsed.values;
  const missing = Object.keys(command.options).find((name) => command.options[name].required && values[name] === undefined);
  if (missing !== undefined) throw new UsageError(`cms ${command.name} needs --${missing} (cms ${command.name} --help lists its options).`);
  return { values, args: parsed.positionals };
}

/** The --help text of one command. */
export function commandHelp(command: CommandSpec): string {
  const args = (command.args ?? []).map((arg) => ` ${arg}`).join('');
  const flags = Object.entries(command.options).map(([name, spec]) => [`--${name}${spec.value ? ` ${spec.value}` : ''}${spec.multiple ? ' …' : ''}`, spec.description]);
  const width = Math.max(0, ...flags.map(([flag]) => flag.length));
  const lines = [`Usage: cms ${command.name}${args}${flags.length > 0 ? ' [options]' : ''}`, '', command.summary];
  if (flags.length > 0) lines.push('', 'Options:', ...flags.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`));
  if (command.notes) lines.push('', ...command.notes);
  return `${lines.join('\n')}\n`;
}

/** The one-line synopsis of a command for `cms --help`. */
export function commandSynopsis(command: CommandSpec): string {
  const args = (command.args ?? []).map((arg) => ` ${arg}`).join('');
  const flags = Object.entries(command.options)
    .map(([name, spec]) => {
      const flag = `--${name}${spec.value ? ` ${spec.value}` : ''}${spec.multiple ? ' …' : ''}`;
      return spec.required ? ` ${flag}` : ` [${flag}]`;
    })
    .join('');
  return `cms ${command.name}${args}${flags}`;
}

/** A string option's value, or undefined. */
export function stringOption(input: ParsedInput, name: string): string | undefined {
  const value = input.values[name];
  return typeof value === 'string' ? value : undefined;
}

// node:util's messages name the option but run on with advice for its own API; ours name the flag as typed.
function describeParseError(error: unknown, argv: string[]): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^'\s]+)/.exec(message)?.[1] ?? argv.find((arg) => arg.startsWith('-')) ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option ${flag}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return message.includes('argument missing') ? `The option ${flag} needs a value` : `The option ${flag} takes no value`;
  }
  return message.split('\n')[0];
}
