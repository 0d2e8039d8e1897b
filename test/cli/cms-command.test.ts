// The `cms` command as a user runs it: a child process per run, its exit
// code and the lines it prints; the server it starts is reached over real HTTP.
import { expect } from 'chai';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { runCms, type CliRun } from '../helpers/cli.ts';
import { commitIn, mustGit, removeFolders, tempFolder } from '../helpers/git-client.ts';
import { spawnServer, type ServerProcess } from '../helpers/server-process.ts';

const POSTS_TYPE = ['label: Posts', 'fields:', '  views:', '    type: number', ''].join('\n');
const WORKSPACE = 'label: Default\n';

function post(title: string, extra = ''): string {
  return ['---', `title: ${JSON.stringify(title)}`, 'status: published', ...(extra ? [extra] : []), '---', ''].join('\n');
}

/** One line on stderr, a non-zero exit code, and no stack trace. */
function expectOneLineError(run: CliRun, code: number, ...parts: string[]): void {
  expect(run.code, run.stderr).to.equal(code);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).to.have.length(1);
  expect(lines[0]).to.match(/^cms: /);
  for (const part of parts) expect(lines[0]).to.include(part);
  expect(run.stderr).not.to.match(/\n\s+at /);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('the cms command', function () {
  this.timeout(120_000);

  after(() => removeFolders());

  describe('help and mistakes', () => {
    it('cms --help lists every command with its options', async () => {
      const run = await runCms(['--help']);
      expect(run.code).to.equal(0);
      for (const line of ['cms serve [--port N]', 'cms check [--data DIR] [--since COMMIT] [--json]', 'cms user create USERNAME', 'cms user list', 'cms user reset-password USERNAME', 'cms user delete USERNAME', 'cms token create [--data DIR] --name NAME --grant ACTION:RESOURCE …', 'cms media hash [--data DIR] [--dry-run]', 'cms gc', 'cms version']) {
        expect(run.stdout).to.include(line);
      }
    });

    it('each command has --help', async () => {
      for (const command of [['serve'], ['check'], ['user', 'create'], ['user', 'list'], ['user', 'reset-password'], ['user', 'delete'], ['token', 'create'], ['media', 'hash'], ['gc'], ['version']]) {
        const run = await runCms([...command, '--help']);
        expect(run.code, command.join(' ')).to.equal(0);
        expect(run.stdout).to.include(`Usage: cms ${command.join(' ')}`);
      }
    });

    it('cms version prints the package version', async () => {
      const { version } = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
      const run = await runCms(['version']);
      expect(run).to.include({ code: 0, stdout: `git-cms ${version}\n` });
    });

    it('an unknown option, a missing value, a stray argument or an unknown command is one line and exit code 2', async () => {
      expectOneLineError(await runCms(['serve', '--prot', '3000']), 2, 'Unknown option --prot');
      expectOneLineError(await runCms(['serve', '--port']), 2, '--port needs a value');
      expectOneLineError(await runCms(['serve', 'extra']), 2, 'Unexpected argument "extra"');
      expectOneLineError(await runCms(['check', '--json=yes']), 2, '--json takes no value');
      expectOneLineError(await runCms(['serve', '--port', '70000']), 2, '--port must be between 0 and 65535');
      expectOneLineError(await runCms(['launch']), 2, 'Unknown command "launch"');
      expectOneLineError(await runCms(['user']), 2, 'create, list, reset-password, delete');
      expectOneLineError(await runCms(['user', 'create']), 2, 'needs USERNAME');
      expectOneLineError(await runCms(['token', 'create', '--name', 'ci']), 2, 'needs --grant');
    });
  });

  describe('serve', () => {
    let occupied: Server;
    let port: number;

    before(async () => {
      occupied = createServer();
      await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
      port = (occupied.address() as { port: number }).port;
    });

    after(() => new Promise<void>((resolve) => occupied.close(() => resolve())));

    it('refuses a port in use in one line naming --port, before it creates the data folder', async () => {
      const data = path.join(await tempFolder('cms-cli-'), 'data');
      const run = await runCms(['serve', '--port', String(port), '--data', data]);
      expectOneLineError(run, 1, `Port ${port}`, 'already in use', '--port');
      expect(await exists(data)).to.equal(false);
    });

    it('names PORT when the port came from the environment', async () => {
      const data = path.join(await tempFolder('cms-cli-'), 'data');
      expectOneLineError(await runCms(['serve', '--data', data], { env: { PORT: String(port) } }), 1, 'with PORT');
    });

    it('refuses a data path that is a file, naming --data or CMS_DATA_DIR', async () => {
      const file = path.join(await tempFolder('cms-cli-'), 'file');
      await writeFile(file, 'not a folder');
      expectOneLineError(await runCms(['serve', '--port', '0', '--data', file]), 1, `--data ${file} is a file, not a folder`);
      expectOneLineError(await runCms(['serve', '--port', '0'], { env: { CMS_DATA_DIR: path.join(file, 'inner') } }), 1, 'CMS_DATA_DIR', 'lies inside a file');
    });
  });

  describe('check', () => {
    let repo: string;

    before(async () => {
      repo = path.join(await tempFolder('cms-cli-'), 'content');
      await mustGit(path.dirname(repo), ['init', '--quiet', '--initial-branch=main', repo]);
      await commitIn(repo, { 'default/workspace.yaml': WORKSPACE, 'default/types/posts.yaml': POSTS_TYPE, 'default/entries/posts/first.md': post('First', 'views: 1') }, 'Start');
    });

    it('exits 0 for a clean content repository', async () => {
      const run = await runCms(['check', '--data', repo]);
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(run.stdout).to.equal('');
    });

    it('prints each problem as path: field: message and exits 1, reading uncommitted files too', async () => {
      await writeFile(path.join(repo, 'default/entries/posts/second.md'), post('Second', 'views: many'));
      await writeFile(path.join(repo, 'default/types/broken.yaml'), 'fields:\n  x:\n    type: nope\n');
      const run = await runCms(['check', '--data', repo]);
      expect(run.code).to.equal(1);
      const lines = run.stdout.trim().split('\n');
      expect(lines).to.have.length(2);
      expect(lines[0]).to.match(/^default\/entries\/posts\/second\.md: views: /);
      expect(lines[1]).to.match(/^default\/types\/broken\.yaml: fields\.x\.type: Field type must be one of/);
      const json = await runCms(['check', '--data', repo, '--json']);
      expect(json.code).to.equal(1);
      const { problems } = JSON.parse(json.stdout) as { problems: { workspace: string; path: string; reason: string }[] };
      expect(problems.map((problem) => problem.path)).to.deep.equal(['default/entries/posts/second.md', 'default/types/broken.yaml']);
      expect(problems[0].workspace).to.equal('default');
    });

    it('--since reports only the files changed since that commit', async () => {
      await commitIn(repo, { 'default/entries/posts/second.md': post('Second', 'views: many') }, 'A bad entry');
      const head = (await mustGit(repo, ['rev-parse', 'HEAD'])).trim();
      const sinceHead = await runCms(['check', '--data', repo, '--since', head]);
      expect(sinceHead.code).to.equal(1);
      // The entry is committed at HEAD; the broken type is still an untracked file.
      expect(sinceHead.stdout.trim().split('\n')).to.have.length(1);
      expect(sinceHead.stdout).to.match(/^default\/types\/broken\.yaml: /);
      const sinceStart = await runCms(['check', '--data', repo, '--since', 'HEAD~1']);
      expect(sinceStart.stdout.trim().split('\n')).to.have.length(2);
    });

    it('refuses an unknown --since commit and a missing folder in one line', async () => {
      expectOneLineError(await runCms(['check', '--data', repo, '--since', 'no-such-commit']), 2, '--since no-such-commit', 'no commit');
      expectOneLineError(await runCms(['check', '--data', path.join(repo, 'missing')]), 2, '--data', 'does not exist');
    });
  });

  describe('user and token', () => {
    let data: string;

    before(async () => {
      data = path.join(await tempFolder('cms-cli-'), 'data');
    });

    it('creates users, lists them, resets a password and deletes a user; the server then accepts them', async () => {
      const created = await runCms(['user', 'create', 'root', '--data', data]);
      expect(created.code, created.stderr).to.equal(0);
      const password = /Password \(shown once\): (\S+)/.exec(created.stdout)![1];
      const editor = await runCms(['user', 'create', 'eve', '--role', 'editor', '--password-stdin', '--data', data], { input: 'eve password 1\n' });
      expect(editor.stdout).to.include('Created editor "eve"').and.not.to.include('Password');
      expectOneLineError(await runCms(['user', 'create', 'eve', '--data', data]), 1, 'The username "eve" is taken.');

      const list = await runCms(['user', 'list', '--json', '--data', data]);
      const users = JSON.parse(list.stdout) as Record<string, unknown>[];
      expect(users.map((user) => [user.username, user.role])).to.deep.equal([['root', 'admin'], ['eve', 'editor']]);
      expect(list.stdout).not.to.include('password_hash');

      const reset = await runCms(['user', 'reset-password', 'eve', '--password-stdin', '--data', data], { input: 'eve password 2\n' });
      expect(reset.code).to.equal(0);
      expectOneLineError(await runCms(['user', 'delete', 'root', '--data', data]), 1, 'last administrator');
      expectOneLineError(await runCms(['user', 'delete', 'nobody', '--data', data]), 1, 'No user "nobody"');

      const token = await runCms(['token', 'create', '--name', 'ci', '--grant', 'schema.read:*', '--data', data]);
      expect(token.code, token.stderr).to.equal(0);
      const plain = /^(cms_\S+)$/m.exec(token.stdout)![1];

      const server = await spawnServer(data, {});
      try {
        const login = (username: string, pass: string) =>
          fetch(`${server.url}/admin/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: pass }) });
        expect((await login('root', password)).status).to.equal(200);
        expect((await login('eve', 'eve password 2')).status).to.equal(200);
        expect((await login('eve', 'eve password 1')).status).to.equal(401);
        const types = await fetch(`${server.url}/api/v1/workspaces/default/content-types`, { headers: { authorization: `Bearer ${plain}` } });
        expect(types.status).to.equal(200);
      } finally {
        await server.kill('SIGTERM');
      }
      const deleted = await runCms(['user', 'delete', 'eve', '--data', data]);
      expect(deleted.code).to.equal(0);
      expect((JSON.parse((await runCms(['user', 'list', '--json', '--data', data])).stdout) as unknown[]).length).to.equal(1);
    });

    it('refuses to write while a server holds the data root, and a second server too', async () => {
      let server: ServerProcess | undefined;
      try {
        server = await spawnServer(data, {});
        const before = await readFile(path.join(data, 'state', 'users.json'), 'utf8');
        expectOneLineError(await runCms(['user', 'create', 'mallory', '--data', data]), 1, `--data ${data} is in use by process ${server.child.pid}`);
        expectOneLineError(await runCms(['token', 'create', '--name', 'x', '--grant', '*:*', '--data', data]), 1, 'is in use');
        expectOneLineError(await runCms(['serve', '--port', '0', '--data', data]), 1, 'is in use');
        expect(await readFile(path.join(data, 'state', 'users.json'), 'utf8')).to.equal(before);
      } finally {
        await server?.kill('SIGKILL');
      }
      // A killed server's lock is taken over.
      const after = await runCms(['user', 'list', '--data', data]);
      expect(after.code, after.stderr).to.equal(0);
    });
  });
});
