// The content repo as a git peer, through the git CLI: smart HTTP (clone,
// fetch, push), reading commits that arrived, moving the branch to them, and
// syncing with an upstream. The git CLI is optional at run time: without it
// open() answers undefined and the server works without these features.
import path from 'node:path';
import { BranchMoves } from './branch-moves.ts';
import { GitCommitFiles, type CommitFiles } from './commit-files.ts';
import { GitRemote, type RemoteLocation } from './git-remote.ts';
import { GitRunner, type GitRunnerOptions } from './git-runner.ts';
import { PushHooks } from './push-hooks.ts';
import { SmartHttp } from './smart-http.ts';
import { Tags } from './tags.ts';

export type { CommitFiles } from './commit-files.ts';
export { GitCommandError } from './git-runner.ts';
export type { PushOutcome, RemoteLocation } from './git-remote.ts';
export { displayUrl, GitRemote, trackingRef } from './git-remote.ts';
export type { PushVerdict, QuarantineEnv, RefUpdate } from './push-hooks.ts';
export { ZERO_OID } from './push-hooks.ts';
export type { GitService, ServiceRun } from './smart-http.ts';
export { WorkingTreeBehind, type BranchMoves } from './branch-moves.ts';
export type { NewTag, TagRecord, Tags } from './tags.ts';

/** Where the repository is and where the push hook may be installed. */
export interface GitPeerOptions extends GitRunnerOptions {
  /** The content repo's folder (with `.git`). */
  root: string;
  /** A folder of rebuildable files for the pre-receive hook (under the data root's cache/). */
  hooksDir: string;
}

/** The git CLI's view of the content repo. */
export class GitPeer {
  readonly gitdir: string;
  /** The repository's tags (releases); create and remove only while holding the write lock. */
  readonly tags: Tags;

  private constructor(
    private readonly runner: GitRunner,
    readonly smartHttp: SmartHttp,
    readonly branches: BranchMoves,
    private readonly hooks: PushHooks,
    root: string,
  ) {
    this.gitdir = path.join(root, '.git');
    this.tags = new Tags(runner, this.gitdir);
  }

  /** Checks the git CLI and installs the push hook; undefined when git cannot be run. Throws what installing the hook throws. */
  static async open(options: GitPeerOptions): Promise<GitPeer | undefined> {
    const runner = new GitRunner(options);
    if ((await runner.version()) === undefined) return undefined;
    const hooks = await PushHooks.install(options.hooksDir);
    return new GitPeer(runner, new SmartHttp(runner, options.root, hooks), new BranchMoves(runner, options.root), hooks, options.root);
  }

  /**
   * Clones `branch` of an upstream into `dir` before the content repo exists
   * (a new replica, a new server with existing content). Returns false when
   * git is missing or the upstream has no such branch yet; throws
   * GitCommandError when the upstream cannot be reached.
   */
  static async cloneInto(options: GitRunnerOptions, location: RemoteLocation, dir: string, branch: string): Promise<boolean> {
    const runner = new GitRunner(options);
    if ((await runner.version()) === undefined) return false;
    const remote = new GitRemote(runner, location);
    if ((await remote.headOf(branch)) === undefined) return false;
    await remote.clone(dir, branch);
    return true;
  }

  /** Reads commits of this repository; `env` adds a push's quarantined objects. */
  commitFiles(env: Record<string, string> = {}): CommitFiles {
    return new GitCommitFiles(this.runner, this.gitdir, env);
  }

  /** An upstream to fetch from and push to. */
  remote(location: RemoteLocation): GitRemote {
    return new GitRemote(this.runner, location);
  }

  /** Removes the push hook's socket. */
  close(): Promise<void> {
    return this.hooks.close();
  }
}
