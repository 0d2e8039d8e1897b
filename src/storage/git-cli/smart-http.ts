// git's smart HTTP protocol on the content repo, served by the git CLI's own
// upload-pack and receive-pack in stateless-RPC mode: request bodies are
// piped in and answers piped out, so no pack is ever held in memory.
// receive-pack runs with the pre-receive hook of push-hooks.ts and leaves the
// working tree to the server (branch-moves.ts), which updates it under its
// write lock once the branch has moved.
import type { ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { processEnd, type GitRunner, type ProcessEnd } from './git-runner.ts';
import type { PreReceiveHandler, PushHooks } from './push-hooks.ts';

/** The two services of git's HTTP protocol. */
export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** A running service: what to stream to the client, and how the process ended. */
export interface ServiceRun {
  output: Readable;
  ended: Promise<ServiceEnd>;
}

/** How a service's process ended; `readerLeft` when its output was destroyed before the end (the client went away) and git was stopped. */
export interface ServiceEnd extends ProcessEnd {
  readerLeft: boolean;
}

// Remote-tracking refs of the upstream are the server's business, not a client's.
const SHARED_CONFIG = ['-c', 'transfer.hideRefs=refs/remotes'];

/** upload-pack and receive-pack of one content repo. */
export class SmartHttp {
  constructor(
    private readonly runner: GitRunner,
    private readonly root: string,
    private readonly hooks: PushHooks,
  ) {}

  /**
   * The answer to `GET info/refs?service=…`: the refs (protocol v0/v1, after
   * the `# service` line) or the capabilities (v2, upload-pack only).
   */
  advertise(service: GitService, protocolV2: boolean): ServiceRun {
    const isV2 = protocolV2 && service === 'git-upload-pack';
    const child = this.runner.spawn([...this.configOf(service), service.slice(4), '--stateless-rpc', '--advertise-refs', this.root], isV2 ? { GIT_PROTOCOL: 'version=2' } : {});
    child.stdin!.end();
    const output = new PassThrough();
    if (!isV2) output.write(`${pktLine(`# service=${service}\n`)}0000`);
    child.stdout!.pipe(output);
    return { output, ended: stopWhenReaderLeaves(child, output) };
  }

  /** `POST git-upload-pack`: a fetch or clone negotiation; `input` is the (decompressed) request body. */
  uploadPack(input: Readable, protocolV2: boolean): ServiceRun {
    const child = this.serve('git-upload-pack', input, protocolV2 ? { GIT_PROTOCOL: 'version=2' } : {});
    return { output: child.stdout!, ended: stopWhenReaderLeaves(child, child.stdout!) };
  }

  /**
   * `POST git-receive-pack`: a push. `onPreReceive` decides, once the objects
   * are received and before any ref moves, whether the push may land.
   */
  receivePack(input: Readable, onPreReceive: PreReceiveHandler): ServiceRun {
    const registration = this.hooks.register(onPreReceive);
    // A push runs to its end even when the client stops reading: git decides whether the branch moves.
    const child = this.serve('git-receive-pack', input, registration.env);
    const ended = processEnd(child).then((end) => ({ ...end, readerLeft: false }));
    void ended.then(registration.release);
    return { output: child.stdout!, ended };
  }

  private serve(service: GitService, input: Readable, env: Record<string, string>): ChildProcess {
    const child = this.runner.spawn([...this.configOf(service), service.slice(4), '--stateless-rpc', this.root], env);
    child.stdin!.on('error', () => undefined);
    // A client that goes away mid-request must not leave git waiting for the rest.
    input.once('error', () => child.kill());
    input.once('aborted', () => child.kill());
    input.pipe(child.stdin!);
    return child;
  }

  private configOf(service: GitService): string[] {
    if (service === 'git-upload-pack') return SHARED_CONFIG;
    return [
      ...SHARED_CONFIG,
      '-c', `core.hooksPath=${this.hooks.hooksDir}`,
      // The server updates its working tree itself, under its write lock.
      '-c', 'receive.denyCurrentBranch=ignore',
      '-c', 'receive.denyDeleteCurrent=refuse',
      '-c', 'receive.denyNonFastForwards=true',
      '-c', 'receive.fsckObjects=true',
    ];
  }
}

// A reader that destroys `output` before its end (a client that stopped a
// clone) leaves git nothing to write to; it is stopped at once rather than
// left packing until its next write fails.
function stopWhenReaderLeaves(child: ChildProcess, output: Readable): Promise<ServiceEnd> {
  let readerLeft = false;
  output.once('close', () => {
    if (output.readableEnded || child.exitCode !== null || child.signalCode !== null) return;
    readerLeft = true;
    child.kill();
  });
  return processEnd(child).then((end) => ({ ...end, readerLeft }));
}

// git's pkt-line framing: four hex digits of length (including themselves), then the data.
function pktLine(data: string): string {
  return (Buffer.byteLength(data) + 4).toString(16).padStart(4, '0') + data;
}
