// Git over HTTP (API.md "Git over HTTP, upstream, replicas"): who may clone,
// fetch and push, and how a push lands. A push is decided while receive-pack
// waits in its pre-receive hook: the write lock is taken, the branch must
// still be where the developer fetched it, and the pushed files must pass
// the API's rules (push-validation.ts). Only then does git move the branch;
// the server brings its working tree along and takes the commits in through
// the write path (receiveCommits: index, events, webhooks) before it lets
// the next write run.
import { PassThrough, type Readable } from 'node:stream';
import { AppError } from '../../errors/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import { ZERO_OID, type GitPeer, type GitService, type PushVerdict, type QuarantineEnv, type RefUpdate, type ServiceRun } from '../../storage/git-cli/git-peer.ts';
import type { ActivityLog } from '../activity/activity-log.ts';
import { authorize, can } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import { actorIdOf, type Principal } from '../auth/principal.ts';
import type { ContentIndex } from '../content/content-index.ts';
import type { ContentReader, ContentWriter } from '../content/content-writer.ts';
import { formatProblem } from '../content/file-rules.ts';
import { holdWriteLock, type HeldLock } from './held-lock.ts';

export type { GitService } from '../../storage/git-cli/git-peer.ts';
import { validatePush } from './push-validation.ts';
import { unlessWorkingTreeBehind } from './working-tree-behind.ts';
import { counted } from '../../lib/counted.ts';

/** What the git HTTP service works with; `peer` is undefined when the git CLI is missing. */
export interface GitHttpDeps {
  peer: GitPeer | undefined;
  repo: ContentReader;
  writer: ContentWriter;
  content: ContentIndex;
  activity: ActivityLog;
  logger: Logger;
  /** Told after a push moved the branch (the upstream sync pushes it on). */
  onLanded?: () => void;
}

/** The last push this server took in, for GET /admin/api/git and docs/deployment.md's figures. */
export interface ReceivedPush {
  at: string;
  from: string;
  to: string;
  /** Milliseconds the validation of the pushed files took. */
  validation_ms: number;
  files: number;
}

// A push that passed and waits for git to move the branch, holding the lock.
interface Landing {
  lock: HeldLock;
  branch: string;
  from: string;
  to: string;
  principal: Principal;
  validationMs: number;
  files: number;
}

/** Serves git's smart HTTP protocol for the content repo. */
export class GitHttpService {
  private lastPush: ReceivedPush | undefined;

  constructor(private readonly deps: GitHttpDeps) {}

  /** The last push that landed, if any since start. */
  lastReceivedPush(): ReceivedPush | undefined {
    return this.lastPush;
  }

  /**
   * The ref advertisement of `service`. Needs `git.pull` (upload-pack) or
   * `git.push` (receive-pack). Throws unauthorized, forbidden, git_unavailable.
   */
  advertise(principal: Principal, service: GitService, protocolV2: boolean): Readable {
    const peer = this.authorizeService(principal, service);
    return this.logFailure(service, peer.smartHttp.advertise(service, protocolV2));
  }

  /** A fetch or clone: streams upload-pack's answer to `input`. Throws unauthorized, forbidden, git_unavailable. */
  uploadPack(principal: Principal, input: Readable, protocolV2: boolean): Readable {
    const peer = this.authorizeService(principal, 'git-upload-pack');
    return this.logFailure('git-upload-pack', peer.smartHttp.uploadPack(input, protocolV2));
  }

  /**
   * A push: streams receive-pack's answer, in which git tells the developer
   * whether the branch moved and, if not, why (`remote:` lines naming each
   * file and field). The answer ends only once the pushed commits are in
   * the index, so a read right after `git push` sees them. Throws
   * unauthorized, forbidden, git_unavailable.
   */
  receivePack(principal: Principal, input: Readable): Readable {
    const peer = this.authorizeService(principal, 'git-receive-pack');
    let landing: Landing | undefined;
    let hasEnded = false;
    const run = peer.smartHttp.receivePack(input, async (updates, objects) => {
      const decision = await this.decide(peer, principal, updates, objects);
      landing = decision.landing;
      // receive-pack was killed while the lock was awaited: land (nothing moved) and let go at once.
      if (hasEnded && landing) void this.land(peer, landing);
      return decision.verdict;
    });
    const output = new PassThrough();
    run.output.pipe(output, { end: false });
    void run.ended
      .then(async () => {
        hasEnded = true;
        if (landing) await this.land(peer, landing);
      })
      .finally(() => output.end());
    return output;
  }

  private authorizeService(principal: Principal, service: GitService): GitPeer {
    const action = service === 'git-upload-pack' ? 'git.pull' : 'git.push';
    authorize(principal, { action, resource: 'git:*', workspace: ALL_WORKSPACES });
    if (!this.deps.peer) throw gitUnavailable();
    return this.deps.peer;
  }

  private async decide(peer: GitPeer, principal: Principal, updates: RefUpdate[], objects: QuarantineEnv): Promise<{ verdict: PushVerdict; landing?: Landing }> {
    const tagsRefused = refusedTagUpdates(principal, updates);
    if (tagsRefused.length > 0) return refuse(tagsRefused);
    const branch = await this.deps.repo.currentBranch();
    const served = updates.find((update) => update.ref === `refs/heads/${branch}`);
    if (branch === null || served === undefined) return { verdict: { ok: true, messages: [] } };
    if (served.to === ZERO_OID) return refuse([`${branch} is the branch this server serves; it cannot be deleted.`]);
    const lock = await holdWriteLock(this.deps.writer);
    try {
      const head = await this.deps.repo.head();
      if (head !== served.from) {
        lock.release();
        return refuse([`${branch} has moved on the server since you fetched it (non-fast-forward).`, 'Run git pull --rebase, then push again.']);
      }
      const started = performance.now();
      const files = peer.commitFiles(objects);
      const problems = await validatePush(files, async (workspace, type) => this.deps.content.findType(workspace, type)?.index.all() ?? [], { from: head, to: served.to });
      const validationMs = performance.now() - started;
      if (problems.length > 0) {
        lock.release();
        return refuse([...problems.map(formatProblem), `The push was refused (${counted(problems.length, 'problem', 'problems')}); nothing was changed.`]);
      }
      await peer.branches.beginMove(branch, head, served.to);
      const changed = (await files.changedPaths(head, served.to)).length;
      return { verdict: { ok: true, messages: [] }, landing: { lock, branch, from: head, to: served.to, principal, validationMs, files: changed } };
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  // receive-pack has exited: if it moved the branch, the working tree follows
  // and the commits come in through the write path; then the lock goes.
  private async land(peer: GitPeer, landing: Landing): Promise<void> {
    const { lock, branch, from, to } = landing;
    try {
      if ((await peer.branches.resolve(`refs/heads/${branch}`)) !== to) {
        await peer.branches.endMove();
        return;
      }
      await peer.branches.finishMove(from, to).catch(unlessWorkingTreeBehind(this.deps.logger));
      await lock.tx.receiveCommits(from, to);
      this.lastPush = { at: new Date().toISOString(), from, to, validation_ms: Math.round(landing.validationMs * 10) / 10, files: landing.files };
      this.deps.logger.info('took in a push', { from, to, files: landing.files, validationMs: this.lastPush.validation_ms });
      void this.deps.activity.record({
        type: 'git.push',
        message: `Pushed ${from.slice(0, 7)}..${to.slice(0, 7)} to ${branch} (${counted(landing.files, 'file', 'files')}).`,
        user_id: actorIdOf(landing.principal) ?? null,
        details: { branch, from, to, files: landing.files },
      });
      this.deps.onLanded?.();
    } catch (error) {
      this.deps.logger.error('could not take in a push', { from, to, error });
    } finally {
      lock.release();
    }
  }

  // A client that stopped reading is the normal end of a clone, not a failure (docs/operations.md "Logs").
  private logFailure(service: GitService, run: ServiceRun): Readable {
    void run.ended.then(({ code, stderr, readerLeft }) => {
      if (code !== 0 && !readerLeft) this.deps.logger.error('a git request failed', { service, exitCode: code, stderr: stderr.trim().slice(-500) });
    });
    return run.output;
  }
}

/** The 503 of every git feature when the git CLI is not installed. */
export function gitUnavailable(): AppError {
  return new AppError('git_unavailable', 'The git CLI is not installed on this server, so git over HTTP, upstream sync and replicas are off. Install git and restart.');
}

function refuse(messages: string[]): { verdict: PushVerdict } {
  return { verdict: { ok: false, messages } };
}

const TAG_PREFIX = 'refs/tags/';

// Tags are releases (docs/releases.md): pushing one needs the grant the
// releases API needs, releases.create to make or move it and releases.delete
// to remove it.
function refusedTagUpdates(principal: Principal, updates: RefUpdate[]): string[] {
  const refused: string[] = [];
  for (const update of updates) {
    if (!update.ref.startsWith(TAG_PREFIX)) continue;
    const name = update.ref.slice(TAG_PREFIX.length);
    const action = update.to === ZERO_OID ? 'releases.delete' : 'releases.create';
    if (!can(principal, { action, resource: `releases:${name}`, workspace: ALL_WORKSPACES })) refused.push(`The tag ${name} is a release: pushing it needs ${action}.`);
  }
  return refused;
}
