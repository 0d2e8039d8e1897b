// One other repository the content repo syncs with: an upstream on GitHub,
// Gitea or GitLab, a bare repository on this machine, or a replica's primary.
// Credentials travel as an HTTP header given to git through its environment
// (GIT_CONFIG_COUNT), scoped to the upstream's URL: never on a command line,
// in .git/config, in a URL that git prints, or in an error message.
import type { GitRunner } from './git-runner.ts';
import { GitCommandError } from './git-runner.ts';

/** Where the upstream is and how to authenticate to it. */
export interface RemoteLocation {
  /** An http(s) URL or an absolute path. */
  url: string;
  /** Sent as the HTTP Basic password (user name `cms`) to an http(s) URL. */
  token?: string;
}

/** What a push to the upstream came to. */
export type PushOutcome = 'pushed' | 'rejected';

/** The ref that records where the upstream's branch was at the last fetch. */
export function trackingRef(branch: string): string {
  return `refs/remotes/upstream/${branch}`;
}

/** `url` without a user name or password in it, for status pages and logs. */
export function displayUrl(url: string): string {
  return url.replace(/^(https?:\/\/)[^@/]*@/, '$1');
}

/** Fetch, push and clone against one upstream. */
export class GitRemote {
  constructor(
    private readonly runner: GitRunner,
    private readonly location: RemoteLocation,
  ) {}

  /** The upstream's URL without user name or password, for status pages and logs. */
  get displayUrl(): string {
    return displayUrl(this.location.url);
  }

  /** The commit the upstream's `branch` points to, or undefined when it has no such branch (an empty repository). */
  async headOf(branch: string): Promise<string | undefined> {
    const { stdout } = await this.git(['ls-remote', '--heads', this.location.url, `refs/heads/${branch}`]);
    const line = stdout.split('\n').find((candidate) => candidate.endsWith(`\trefs/heads/${branch}`));
    return line?.slice(0, 40);
  }

  /**
   * Fetches the upstream's `branch` into the tracking ref of `gitdir`. With
   * `mirrorTags` (a replica), also makes `gitdir`'s tags the upstream's:
   * new and moved ones taken, those gone there deleted.
   */
  async fetch(gitdir: string, branch: string, options: { mirrorTags?: boolean } = {}): Promise<void> {
    const branchSpec = `+refs/heads/${branch}:${trackingRef(branch)}`;
    // --prune applies to the refspecs given, so only to the tags and this one tracking ref.
    const specs = options.mirrorTags ? ['--prune', this.location.url, branchSpec, '+refs/tags/*:refs/tags/*'] : [this.location.url, branchSpec];
    await this.git(['--git-dir', gitdir, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-maintenance', ...specs]);
  }

  /** Pushes commit `oid` of `gitdir` to the upstream's `branch`; `rejected` when the upstream has commits it lacks. */
  async push(gitdir: string, oid: string, branch: string): Promise<PushOutcome> {
    const { stdout, stderr, code } = await this.git(['--git-dir', gitdir, 'push', '--porcelain', this.location.url, `${oid}:refs/heads/${branch}`], [1]);
    // --porcelain prints one `<flag>\t<from>:<to>\t<summary>` line per ref; `!` is a rejection.
    const flag = stdout.split('\n').find((line) => line.includes(`:refs/heads/${branch}\t`))?.charAt(0);
    if (code === 0 && flag !== '!') return 'pushed';
    if (flag === '!') return 'rejected';
    throw new GitCommandError('push', code, this.scrub(stderr));
  }

  /** Clones the upstream's `branch` into the new folder `dir`. */
  async clone(dir: string, branch: string): Promise<void> {
    await this.git(['clone', '--quiet', '--branch', branch, '--', this.location.url, dir]);
  }

  private async git(args: string[], okCodes: number[] = []): Promise<{ stdout: string; stderr: string; code: number }> {
    try {
      const result = await this.runner.run(args, { env: this.credentials(), okCodes });
      return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, code: result.code };
    } catch (error) {
      if (error instanceof GitCommandError) throw new GitCommandError(error.command, error.exitCode, this.scrub(error.stderr));
      throw error;
    }
  }

  private credentials(): Record<string, string> {
    const { url, token } = this.location;
    if (token === undefined || !/^https?:\/\//.test(url)) return {};
    return {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `http.${url}.extraHeader`,
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`cms:${token}`).toString('base64')}`,
    };
  }

  // git never prints the header, but a token pasted into the URL could show up in a message.
  private scrub(text: string): string {
    const token = this.location.token;
    const withoutToken = token ? text.split(token).join('***') : text;
    return withoutToken.replace(/(https?:\/\/)[^@/\s]*@/g, '$1');
  }
}
