// A developer's git against the server over HTTP: clones in temp folders,
// commits as a named author, and git commands whose failure is an answer
// (a refused push), with the exit code and stderr to look at.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** What a git command printed and how it ended. */
export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The developer identity commits are made with. */
export const DEVELOPER = { name: 'Ada Developer', email: 'ada@example.com' };

const HERMETIC: NodeJS.ProcessEnv = (() => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('GIT_') || key.startsWith('CMS_')) delete env[key];
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, GIT_TERMINAL_PROMPT: '0' };
})();

/** The server's repository URL with `token` as the Basic password (no token: no credentials). */
export function repoUrl(baseUrl: string, token?: string): string {
  const withCredentials = token === undefined ? baseUrl : baseUrl.replace('://', `://dev:${token}@`);
  return `${withCredentials}/git/content.git`;
}

/** Runs git in `cwd` and resolves with its exit code and output, whatever the code. */
export function runGit(cwd: string, args: string[], env: Record<string, string> = {}): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: { ...HERMETIC, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** Runs git and fails the test with git's stderr when it does not exit 0. */
export async function mustGit(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const run = await runGit(cwd, args, env);
  if (run.code !== 0) throw new Error(`git ${args.join(' ')} failed (${run.code}): ${run.stderr}`);
  return run.stdout;
}

/** A fresh temp folder (removed with removeFolders()). */
const folders: string[] = [];
export async function tempFolder(prefix = 'cms-git-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

/** Removes every folder tempFolder() made. */
export async function removeFolders(): Promise<void> {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Clones `url` into a new temp folder and returns the working copy. */
export async function cloneFrom(url: string): Promise<string> {
  const dir = path.join(await tempFolder(), 'work');
  await mustGit(os.tmpdir(), ['clone', '--quiet', url, dir]);
  return dir;
}

/** Writes (text) and deletes (null) files in a working copy and commits them as DEVELOPER; returns the commit. */
export async function commitIn(dir: string, files: Record<string, string | null>, message: string): Promise<string> {
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(dir, file);
    if (text === null) {
      await mustGit(dir, ['rm', '-q', '--', file]);
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    await mustGit(dir, ['add', '--', file]);
  }
  await mustGit(dir, ['-c', `user.name=${DEVELOPER.name}`, '-c', `user.email=${DEVELOPER.email}`, 'commit', '-q', '-m', message]);
  return (await mustGit(dir, ['rev-parse', 'HEAD'])).trim();
}

/** A type `posts` with a number field `views`, as a developer writes it. */
export const POSTS_TYPE = ['label: Posts', 'fields:', '  views:', '    type: number', ''].join('\n');

/** Clones `url`, adds POSTS_TYPE to the default workspace and pushes it: the start of most push tests. */
export async function pushPostsType(url: string): Promise<void> {
  const work = await cloneFrom(url);
  await commitIn(work, { 'default/types/posts.yaml': POSTS_TYPE }, 'Add posts');
  await mustGit(work, ['push', '--quiet']);
}

/** A bare repository in a temp folder, with `main` as its default branch. */
export async function bareRepository(): Promise<string> {
  const dir = path.join(await tempFolder('cms-bare-'), 'upstream.git');
  await mustGit(os.tmpdir(), ['init', '--quiet', '--bare', '--initial-branch=main', dir]);
  return dir;
}

/** The commit a ref points to in `repo` (a bare repository or a working copy), or '' when it does not exist. */
export async function refOf(repo: string, ref: string): Promise<string> {
  const run = await runGit(repo, ['rev-parse', '--verify', '-q', ref]);
  return run.code === 0 ? run.stdout.trim() : '';
}
