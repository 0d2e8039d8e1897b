// Moving the content repo's branch to commits that came from outside (a push,
// an upstream, a primary) and bringing the working tree and index along, so
// `git status` stays clean. A move is journaled in `.git/cms-branch-move`
// first: a process killed between moving the ref and updating the files is
// finished by recover() on the next start. Callers hold the content repo's
// write lock; this file only knows git.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isNotFound } from '../../lib/errno.ts';
import type { Logger } from '../../lib/logger.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { SYSTEM_AUTHOR, type IndexHold } from '../content-repo.ts';
import { removeDeadMoveLock } from '../git/commit-journal.ts';
import type { GitRunner } from './git-runner.ts';
import { finishInterruptedMove, type RunGit } from './interrupted-move.ts';

const JOURNAL = 'cms-branch-move';

interface Journal {
  branch: string;
  from: string;
  to: string;
}

/** What a rebased commit keeps of the original: its author (name, email, date) and its message. */
interface CommitMeta {
  authorName: string;
  authorEmail: string;
  authorDate: string;
  message: string;
}

/**
 * A move whose branch points at the new commit while the working tree could
 * not follow it (finishMove()): a file in the way, a full disk. The index
 * follows the branch where it can, so `git status` shows the working tree
 * behind rather than the new commits undone, and the move's journal is
 * cleared (when even the index could not follow, it stays for the next
 * start to finish the move). `cause` is git's failure.
 */
export class WorkingTreeBehind extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    options: { cause: unknown },
  ) {
    super(`The branch moved to ${to} but the content folder's working tree could not follow it: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
    this.name = 'WorkingTreeBehind';
  }
}

/** Branch queries and moves on one non-bare repository. */
export class BranchMoves {
  private readonly gitdir: string;
  private holdIndex: (() => Promise<IndexHold>) | undefined;
  // index.lock from beginMove() until the index has followed the branch (finishMove()) or the move is off (endMove()).
  private held: IndexHold | undefined;

  constructor(
    private readonly runner: GitRunner,
    private readonly root: string,
  ) {
    this.gitdir = path.join(root, '.git');
  }

  /**
   * Has each move hold index.lock through `hold` (ContentRepo.holdIndex,
   * which first writes an index the content repo's last commits left
   * pending) from before the branch moves until the index has followed it,
   * as git's rule says: whoever holds index.lock owns the index. Meanwhile
   * the index describes the old commit, and a developer's `git commit` in
   * the content folder would commit it onto the new one, undoing the move;
   * it fails on the lock instead. Without it, moves work on the index as
   * git leaves it.
   */
  holdIndexWith(hold: () => Promise<IndexHold>): void {
    this.holdIndex = hold;
  }

  /** The commit a ref points to, or undefined when it does not exist. */
  async resolve(ref: string): Promise<string | undefined> {
    const { stdout, code } = await this.git(['rev-parse', '--verify', '-q', `${ref}^{commit}`], [1]);
    return code === 0 ? stdout.trim() : undefined;
  }

  /** The best common ancestor of two commits, or undefined when their histories are unrelated. */
  async mergeBase(a: string, b: string): Promise<string | undefined> {
    const { stdout, code } = await this.git(['merge-base', a, b], [1]);
    return code === 0 ? stdout.trim() : undefined;
  }

  /** Whether `ancestor` is `descendant` or one of its ancestors. */
  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    return (await this.git(['merge-base', '--is-ancestor', ancestor, descendant], [1])).code === 0;
  }

  /** How many commits each side has that the other lacks. */
  async aheadBehind(local: string, upstream: string): Promise<{ ahead: number; behind: number }> {
    const { stdout } = await this.git(['rev-list', '--left-right', '--count', `${local}...${upstream}`]);
    const [ahead, behind] = stdout.trim().split(/\s+/).map(Number);
    return { ahead, behind };
  }

  /**
   * Replays the first-parent commits after `base` up to `tip` onto `onto`,
   * each keeping its author and message (a rebase without a working tree:
   * each new tree is git's merge of `onto` with the commit). Commits that
   * change nothing any more are dropped. Returns the new tip, or undefined
   * when a commit conflicts; nothing the branch points to changes either way.
   */
  async replay(base: string | undefined, tip: string, onto: string): Promise<string | undefined> {
    const range = base === undefined ? [tip] : [`${base}..${tip}`];
    const commits = (await this.git(['rev-list', '--reverse', '--first-parent', ...range])).stdout.split('\n').filter(Boolean);
    let current = onto;
    for (const commit of commits) {
      const merged = await this.git(['merge-tree', '--write-tree', '--allow-unrelated-histories', onto, commit], [1]);
      if (merged.code !== 0) return undefined;
      const tree = merged.stdout.split('\n')[0].trim();
      if (tree === (await this.git(['rev-parse', `${current}^{tree}`])).stdout.trim()) continue;
      current = await this.commitTree(tree, current, await this.commitMeta(commit));
    }
    return current;
  }

  /** How many commits `oid` has in its history, itself included. */
  async countCommits(oid: string): Promise<number> {
    return Number((await this.git(['rev-list', '--count', oid])).stdout.trim());
  }

  /** Points `ref` (a tracking ref, never the branch HEAD is on) at `oid`. */
  async setRef(ref: string, oid: string): Promise<void> {
    await this.git(['update-ref', '-m', 'cms: pushed', ref, oid]);
  }

  /** Creates branch `name` at `oid`; fails when it exists. */
  async createBranch(name: string, oid: string): Promise<void> {
    await this.git(['update-ref', '-m', 'cms: keep local commits', `refs/heads/${name}`, oid, '0'.repeat(40)]);
  }

  /**
   * Moves `branch` (HEAD's) from `from` to `to` and the index and working
   * tree with it. Throws GitCommandError when the branch is no longer at
   * `from` or the working tree has uncommitted changes on the paths that
   * differ; the journal then finishes or forgets the move.
   */
  async move(branch: string, from: string, to: string): Promise<void> {
    await this.beginMove(branch, from, to);
    await this.git(['update-ref', '-m', 'cms: adopt commits', `refs/heads/${branch}`, to, from]).catch(async (error: unknown) => {
      await this.endMove();
      throw error;
    });
    await this.finishMove(from, to);
  }

  /**
   * Takes index.lock (holdIndexWith()) and journals a move whose ref update
   * someone else makes (receive-pack); finish with finishMove() or
   * endMove(). Throws `conflict` while a git command holds index.lock.
   */
  async beginMove(branch: string, from: string, to: string): Promise<void> {
    this.held = await this.holdIndex?.();
    try {
      await writeFileAtomic(path.join(this.gitdir, JOURNAL), `${JSON.stringify({ branch, from, to } satisfies Journal)}\n`);
    } catch (error) {
      this.releaseIndex();
      throw error;
    }
  }

  /**
   * Brings index and working tree from `from` to `to` (the branch already
   * points at `to`), gives index.lock back and clears the journal. Throws
   * WorkingTreeBehind when the working tree cannot follow.
   */
  async finishMove(from: string, to: string): Promise<void> {
    const env = this.held === undefined ? undefined : { GIT_INDEX_FILE: this.held.indexFile };
    let indexFollowed = false;
    try {
      // The index normally holds fresh file stats; refreshing them (a stat of every file) only when git finds one stale.
      if ((await this.git(['read-tree', '-u', '-m', from, to], [128], env)).code !== 0) {
        await this.git(['update-index', '-q', '--refresh'], [1], env);
        await this.git(['read-tree', '-u', '-m', from, to], [], env).catch(async (error: unknown) => {
          // The index alone still follows: a developer's `git commit` must not commit `from`'s files onto `to`.
          indexFollowed = await this.git(['read-tree', '-m', from, to], [], env).then(
            () => (this.installIndex(), true),
            () => false,
          );
          throw error;
        });
      }
      this.installIndex();
    } catch (error) {
      // With branch and index at `to`, only the files in the way lag behind,
      // and they are the developer's to clear: a restart finishing the move
      // from its journal would move them aside (recover()).
      if (indexFollowed) await this.endMove();
      else this.releaseIndex();
      throw new WorkingTreeBehind(from, to, { cause: error });
    }
    await this.endMove();
  }

  /** Clears the journal of a move that did not happen, and gives index.lock back. */
  async endMove(): Promise<void> {
    this.releaseIndex();
    await rm(path.join(this.gitdir, JOURNAL), { force: true });
  }

  private installIndex(): void {
    this.held?.install();
    this.held = undefined;
  }

  private releaseIndex(): void {
    this.held?.release();
    this.held = undefined;
  }

  /**
   * Finishes a move a killed process left half done: when the branch already
   * points at the new commit, the paths the move changes are set to it in
   * the index and working tree (interrupted-move.ts), and a developer's
   * uncommitted bytes on them are kept aside and logged; every other
   * uncommitted change stays. When the branch does not point at it, nothing
   * had changed. Call before the content is read at start. Returns whether
   * a move was finished.
   */
  async recover(logger: Logger): Promise<boolean> {
    const journal = await this.readJournal();
    if (journal === undefined) return false;
    const at = await this.resolve(`refs/heads/${journal.branch}`);
    // The killed process held index.lock for the move.
    removeDeadMoveLock(path.join(this.gitdir, 'index.lock'));
    if (at === journal.to) {
      for (const kept of await finishInterruptedMove(this.runGit, this.root, journal.from, journal.to)) {
        logger.error('finishing an interrupted branch move: an uncommitted change to a file the move changed was kept aside, and the file set to the moved-to commit', { ...kept, from: journal.from, to: journal.to });
      }
    }
    await this.endMove();
    return at === journal.to;
  }

  private async readJournal(): Promise<Journal | undefined> {
    try {
      const parsed: unknown = JSON.parse(await readFile(path.join(this.gitdir, JOURNAL), 'utf8'));
      const journal = parsed as Partial<Journal>;
      const isOid = (value: unknown) => typeof value === 'string' && /^[0-9a-f]{40}$/.test(value);
      return typeof journal.branch === 'string' && isOid(journal.from) && isOid(journal.to) ? (journal as Journal) : undefined;
    } catch (error) {
      if (isNotFound(error) || error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  private async commitMeta(commit: string): Promise<CommitMeta> {
    const out = (await this.git(['show', '-s', '--format=%an%x00%ae%x00%ad%x00%B', '--date=raw', commit])).stdout;
    const [authorName, authorEmail, authorDate, ...message] = out.split('\0');
    return { authorName, authorEmail, authorDate, message: message.join('\0').replace(/\n+$/, '\n') };
  }

  private async commitTree(tree: string, parent: string, meta: CommitMeta): Promise<string> {
    const env = {
      GIT_AUTHOR_NAME: meta.authorName,
      GIT_AUTHOR_EMAIL: meta.authorEmail,
      GIT_AUTHOR_DATE: meta.authorDate,
      GIT_COMMITTER_NAME: SYSTEM_AUTHOR.name,
      GIT_COMMITTER_EMAIL: SYSTEM_AUTHOR.email,
    };
    const { stdout } = await this.runner.run(['--git-dir', this.gitdir, 'commit-tree', tree, '-p', parent, '-F', '-'], { input: meta.message, env });
    return stdout.toString('utf8').trim();
  }

  private async git(args: string[], okCodes: number[] = [], env?: Record<string, string>): Promise<{ stdout: string; code: number }> {
    return this.runGit(args, { okCodes, env });
  }

  private readonly runGit: RunGit = async (args, options) => {
    const result = await this.runner.run(['--git-dir', this.gitdir, '--work-tree', this.root, ...args], options);
    return { stdout: result.stdout.toString('utf8'), code: result.code };
  };
}
