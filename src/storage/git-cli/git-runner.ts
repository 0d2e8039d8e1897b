// The git CLI as a peer of the content repo: one place that starts git
// processes, with the environment config/ prepared (no CMS_* secrets, nothing
// that redirects git) and errors that carry git's exit code and stderr. The
// commit path never comes here (storage/git/ writes commits in-process); git
// over HTTP, upstream sync and replicas do. What a command means lives in the
// files beside this one.
import { spawn, type ChildProcess } from 'node:child_process';

/** Where git is and the environment it runs in (config.git). */
export interface GitRunnerOptions {
  bin: string;
  env: Readonly<Record<string, string>>;
}

/** Options of one git command. */
export interface GitCommandOptions {
  /** Written to stdin, which is then closed. */
  input?: string | Buffer;
  /** Added to the environment (credentials headers, author of a rebased commit, a push's hook address). */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (`merge-base --is-ancestor` answers 1 for "no"). */
  okCodes?: number[];
}

/** What a finished command printed, and how it ended. */
export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** A git command that failed: its exit code and what it printed on stderr (never a secret of ours). */
export class GitCommandError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${command} failed${exitCode === null ? '' : ` with exit code ${exitCode}`}: ${stderr.trim().slice(0, 1000) || 'no output'}`);
    this.name = 'GitCommandError';
  }
}

const STDERR_KEPT = 16 * 1024;

/** Runs git commands against one repository (`--git-dir`), or none for clone and version. */
export class GitRunner {
  constructor(private readonly options: GitRunnerOptions) {}

  /** git's version as [major, minor], or undefined when the CLI cannot be started. Throws nothing. */
  async version(): Promise<[number, number] | undefined> {
    try {
      const { stdout } = await this.run(['--version']);
      const match = /git version (\d+)\.(\d+)/.exec(stdout.toString('utf8'));
      return match ? [Number(match[1]), Number(match[2])] : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Runs `git <args>` to the end and returns its output. Throws
   * GitCommandError when it cannot start or exits with a code not in `okCodes` (besides 0).
   */
  run(args: string[], options: GitCommandOptions = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = this.start(args, options.env, ['pipe', 'pipe', 'pipe']);
      const out: Buffer[] = [];
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
      });
      child.once('error', (error) => reject(new GitCommandError(args[0] ?? '', null, error.message)));
      child.once('close', (code) => {
        if (code === 0 || (code !== null && options.okCodes?.includes(code))) resolve({ stdout: Buffer.concat(out), stderr, code });
        else reject(new GitCommandError(args.find((arg) => !arg.startsWith('-')) ?? '', code, stderr));
      });
      // A command that ends before reading all of stdin is fine; its exit code tells.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(options.input);
    });
  }

  /** Starts `git <args>` with piped stdio for a caller that streams (git over HTTP, cat-file --batch). */
  spawn(args: string[], env?: Record<string, string>): ChildProcess {
    return this.start(args, env, ['pipe', 'pipe', 'pipe']);
  }

  private start(args: string[], env: Record<string, string> | undefined, stdio: ['pipe', 'pipe', 'pipe']): ChildProcess {
    return spawn(this.options.bin, args, { env: { ...this.options.env, ...env }, stdio });
  }
}

/** The outcome of a streamed git process: how it exited and the tail of its stderr. */
export interface ProcessEnd {
  code: number | null;
  stderr: string;
}

/** Resolves when `child` has exited and its streams are closed; collects the tail of stderr. Never rejects. */
export function processEnd(child: ChildProcess): Promise<ProcessEnd> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, stderr: error.message }));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}
