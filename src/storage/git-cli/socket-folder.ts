// Where the push hook's Unix socket lives: a private (0700) folder named
// `cms-push-…`, under the data root's cache when the socket's path fits the
// ~107 bytes a socket address holds (and its file system takes sockets),
// else in the system's temp folder. A server removes its folder when it
// closes; one killed (kill -9) leaves it, so each start first removes the
// folders nobody listens in any more.
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { errnoCode } from '../../lib/errno.ts';

const PREFIX = 'cms-push-';
const SOCKET_NAME = 's';
// sun_path is 108 bytes on Linux, with the terminating NUL.
const MAX_SOCKET_PATH_BYTES = 107;
// mkdtemp adds six characters to the prefix.
const FOLDER_NAME_LENGTH = PREFIX.length + 6;

/**
 * Where a socket folder may go, best first: `preferred` (absolute) when the
 * socket's path fits there, then the temp folder.
 */
export function socketBases(preferred: string): string[] {
  const resolved = path.resolve(preferred);
  return socketPathBytes(resolved) <= MAX_SOCKET_PATH_BYTES ? [resolved, os.tmpdir()] : [os.tmpdir()];
}

/**
 * Creates a fresh socket folder under `base` (made when missing), after
 * removing the stale folders there. Returns the socket's path. Throws what
 * the file system throws.
 */
export async function createSocketFolder(base: string): Promise<string> {
  await mkdir(base, { recursive: true });
  await removeStaleSocketFolders(base);
  const folder = await mkdtemp(path.join(base, PREFIX));
  return path.join(folder, SOCKET_NAME);
}

/** Removes the socket folder of `socketPath` (ignores one already gone). */
export async function removeSocketFolder(socketPath: string): Promise<void> {
  await rm(path.dirname(socketPath), { recursive: true, force: true });
}

function socketPathBytes(base: string): number {
  return Buffer.byteLength(path.join(base, 'x'.repeat(FOLDER_NAME_LENGTH), SOCKET_NAME));
}

// A folder is stale when its socket exists and refuses connections: its
// server died without closing. A folder without a socket may be one that a
// starting server has just made, so it stays; so do other users' folders.
async function removeStaleSocketFolders(base: string): Promise<void> {
  const names = (await readdir(base)).filter((name) => name.startsWith(PREFIX));
  const uid = process.getuid?.();
  for (const name of names) {
    const socketPath = path.join(base, name, SOCKET_NAME);
    const info = await stat(path.join(base, name)).catch(() => undefined);
    if (!info?.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
    if (await isRefused(socketPath)) await rm(path.join(base, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

function isRefused(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error) => resolve(errnoCode(error) === 'ECONNREFUSED'));
  });
}
