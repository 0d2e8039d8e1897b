// How receive-pack asks the server whether a push may land: a pre-receive
// hook (a few lines of JavaScript run by this very Node binary) sends the
// ref updates and the location of the quarantined objects over a Unix
// socket that only the server's user can open, and prints the server's
// answer, which git shows the developer as `remote:` lines. Each push
// registers under a random id, so a stray connection can never answer for it.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createSocketFolder, removeSocketFolder, socketBases } from './socket-folder.ts';

/** One ref a push wants to move; `from` or `to` is ZERO_OID for a ref created or deleted. */
export interface RefUpdate {
  ref: string;
  from: string;
  to: string;
}

/** The id git uses for "no commit". */
export const ZERO_OID = '0'.repeat(40);

/** What the hook tells git: accept the push, and lines for the developer (shown as `remote: …`). */
export interface PushVerdict {
  ok: boolean;
  messages: string[];
}

/** The environment under which the pushed objects (still in quarantine) can be read. */
export type QuarantineEnv = Record<string, string>;

/** Decides about one push; called once, while receive-pack waits. */
export type PreReceiveHandler = (updates: RefUpdate[], objects: QuarantineEnv) => Promise<PushVerdict>;

// The hook itself. It gets its socket and push id from the environment
// receive-pack passes down, and fails closed when it cannot reach the server.
const HOOK_SCRIPT = `import net from 'node:net';
const { env } = process;
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = {
  push: env.CMS_PUSH_ID,
  updates: Buffer.concat(chunks).toString('utf8'),
  objects: env.GIT_OBJECT_DIRECTORY ?? '',
  alternates: env.GIT_ALTERNATE_OBJECT_DIRECTORIES ?? '',
  quarantine: env.GIT_QUARANTINE_PATH ?? '',
};
let reply = '';
try {
  const socket = net.connect(env.CMS_PUSH_SOCKET ?? '');
  socket.setEncoding('utf8');
  socket.write(JSON.stringify(request) + '\\n');
  for await (const chunk of socket) {
    reply += chunk;
    if (reply.includes('\\n')) break;
  }
  socket.destroy();
} catch {
  reply = '';
}
let verdict = { ok: false, messages: ['The server could not check this push; nothing was changed. Try again.'] };
try {
  if (reply !== '') verdict = JSON.parse(reply);
} catch {}
for (const line of verdict.messages) process.stderr.write(line + '\\n');
process.exit(verdict.ok ? 0 : 1);
`;

const MAX_REQUEST_BYTES = 1024 * 1024;

/** The installed hook and the socket it reports to; one per server. */
export class PushHooks {
  private readonly handlers = new Map<string, PreReceiveHandler>();

  private constructor(
    /** The folder to pass as `core.hooksPath` to receive-pack. */
    readonly hooksDir: string,
    private readonly socketPath: string,
    private readonly server: net.Server,
  ) {}

  /** Writes the hook into `hooksDir` (created) and listens on a private socket. Throws what the file system throws. */
  static async install(hooksDir: string): Promise<PushHooks> {
    await mkdir(hooksDir, { recursive: true });
    const script = path.join(hooksDir, 'pre-receive.mjs');
    await writeFile(script, HOOK_SCRIPT, { mode: 0o600 });
    const hook = path.join(hooksDir, 'pre-receive');
    await writeFile(hook, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(script)}\n`, { mode: 0o700 });
    await chmod(hook, 0o700);
    // A folder of our own (0700) holds the socket, so no other user can connect to it.
    // A data root on a file system without sockets (some network mounts) leaves the temp folder.
    const [preferred, ...fallbacks] = socketBases(hooksDir);
    try {
      return await PushHooks.listen(hooksDir, preferred);
    } catch (error) {
      if (fallbacks.length === 0) throw error;
      return PushHooks.listen(hooksDir, fallbacks[0]);
    }
  }

  private static async listen(hooksDir: string, base: string): Promise<PushHooks> {
    const socketPath = await createSocketFolder(base);
    const hooks = new PushHooks(hooksDir, socketPath, net.createServer());
    hooks.server.on('connection', (socket) => hooks.answer(socket));
    try {
      await new Promise<void>((resolve, reject) => {
        hooks.server.once('error', reject);
        hooks.server.listen(socketPath, resolve);
      });
    } catch (error) {
      await removeSocketFolder(socketPath);
      throw error;
    }
    return hooks;
  }

  /** Registers `handler` for one push; returns the environment receive-pack must run with and the function that unregisters it. */
  register(handler: PreReceiveHandler): { env: Record<string, string>; release: () => void } {
    const id = randomBytes(24).toString('base64url');
    this.handlers.set(id, handler);
    return { env: { CMS_PUSH_ID: id, CMS_PUSH_SOCKET: this.socketPath }, release: () => this.handlers.delete(id) };
  }

  /** Stops listening and removes the socket's folder. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await removeSocketFolder(this.socketPath);
  }

  private answer(socket: net.Socket): void {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_REQUEST_BYTES) socket.destroy();
      const end = received.indexOf('\n');
      if (end === -1) return;
      socket.removeAllListeners('data');
      void this.decide(received.slice(0, end)).then((verdict) => socket.end(`${JSON.stringify(verdict)}\n`));
    });
  }

  private async decide(line: string): Promise<PushVerdict> {
    const request = parseRequest(line);
    const handler = request && this.handlers.get(request.push);
    if (!request || !handler) return { ok: false, messages: ['This push is not known to the server; nothing was changed.'] };
    this.handlers.delete(request.push);
    const env: QuarantineEnv = { GIT_OBJECT_DIRECTORY: request.objects, GIT_ALTERNATE_OBJECT_DIRECTORIES: request.alternates };
    if (request.quarantine !== '') env.GIT_QUARANTINE_PATH = request.quarantine;
    try {
      return await handler(parseUpdates(request.updates), env);
    } catch {
      return { ok: false, messages: ['The server failed while checking this push; nothing was changed. Try again.'] };
    }
  }
}

interface HookRequest {
  push: string;
  updates: string;
  objects: string;
  alternates: string;
  quarantine: string;
}

function parseRequest(line: string): HookRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { push, updates, objects, alternates, quarantine } = value as Record<string, unknown>;
  if (typeof push !== 'string' || typeof updates !== 'string' || typeof objects !== 'string') return undefined;
  if (typeof alternates !== 'string' || typeof quarantine !== 'string') return undefined;
  return { push, updates, objects, alternates, quarantine };
}

// pre-receive's stdin: one `<old> <new> <ref>` line per ref.
function parseUpdates(text: string): RefUpdate[] {
  return text
    .split('\n')
    .map((line) => /^([0-9a-f]{40}) ([0-9a-f]{40}) (\S+)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ from: match[1], to: match[2], ref: match[3] }));
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
