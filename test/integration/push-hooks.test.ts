// The push hook's socket folder: made under the data root's cache (or, for a
// path too long for a socket address, the temp folder), removed on close,
// and, after a kill -9 left it behind, removed by the next start.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { PushHooks } from '../../src/storage/git-cli/push-hooks.ts';

const PUSH_HOOKS = path.resolve(import.meta.dirname, '../../src/storage/git-cli/push-hooks.ts');

describe('push hook socket folder', () => {
  let root: string;
  let tmp: string;
  let savedTmpdir: string | undefined;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'push-hooks-'));
    tmp = path.join(root, 'tmp');
    await mkdir(tmp);
    // os.tmpdir() reads TMPDIR on each call: the hooks see an empty temp folder of the test's own.
    savedTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
  });

  afterEach(async () => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    await rm(root, { recursive: true, force: true });
  });

  it('lives under the hooks folder and is removed on close, leaving the temp folder untouched', async () => {
    const hooksDir = path.join(root, 'data', 'cache', 'git-hooks');
    const hooks = await PushHooks.install(hooksDir);
    const socket = hooks.register(async () => ({ ok: true, messages: [] })).env.CMS_PUSH_SOCKET;
    expect(path.dirname(path.dirname(socket))).to.equal(hooksDir);
    expect(await pushFolders(hooksDir)).to.have.length(1);
    await hooks.close();
    expect(await pushFolders(hooksDir)).to.deep.equal([]);
    expect(await pushFolders(tmp)).to.deep.equal([]);
  });

  it('removes the folder a killed server left under the hooks folder at the next start', async () => {
    const hooksDir = path.join(root, 'data', 'cache', 'git-hooks');
    await installAndKill(hooksDir, tmp);
    expect(await pushFolders(hooksDir)).to.have.length(1);
    const hooks = await PushHooks.install(hooksDir);
    expect(await pushFolders(hooksDir)).to.have.length(1);
    await hooks.close();
    expect(await pushFolders(hooksDir)).to.deep.equal([]);
  });

  it('falls back to the temp folder for a long data root path, and cleans what killed servers left there', async () => {
    const hooksDir = path.join(root, 'a-data-root-whose-path-is-too-long-for-a-unix-socket-address'.repeat(2), 'cache', 'git-hooks');
    await installAndKill(hooksDir, tmp);
    const stale = await pushFolders(tmp);
    expect(stale).to.have.length(1);
    const hooks = await PushHooks.install(hooksDir);
    const live = await pushFolders(tmp);
    expect(live).to.have.length(1).and.not.include(stale[0]);
    // A second live server's folder is not stale: the next start keeps it.
    const other = await PushHooks.install(hooksDir);
    expect(await pushFolders(tmp)).to.include(live[0]).and.have.length(2);
    await other.close();
    await hooks.close();
    expect(await pushFolders(tmp)).to.deep.equal([]);
  });
});

async function pushFolders(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith('cms-push-'));
}

// Installs the hooks in a process of its own and kills it with SIGKILL once it listens.
async function installAndKill(hooksDir: string, tmp: string): Promise<void> {
  const run = `const { PushHooks } = await import(${JSON.stringify(pathToFileURL(PUSH_HOOKS).href)}); await PushHooks.install(${JSON.stringify(hooksDir)}); console.log('ready');`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', run], { env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`The child exited (${code}) before it listened.`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
