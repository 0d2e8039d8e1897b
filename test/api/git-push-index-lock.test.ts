// A push moves the content repo's branch (receive-pack) before the server
// brings the index and working tree along (read-tree). In between, the index
// still describes the old commit: a developer's `git commit` in the content
// folder at that moment would commit it onto the pushed one and undo the
// push. The server holds index.lock across that span (git's rule: whoever
// holds index.lock owns the index), so that commit fails on the lock. The
// server's git is a wrapper that runs the developer's commit right after
// receive-pack exits, before the server takes the push in.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildAdminServer, FULL_ACCESS } from '../helpers/auth.ts';
import { cloneFrom, commitIn, mustGit, pushPostsType, removeFolders, repoUrl, tempFolder } from '../helpers/git-client.ts';
import { contentRepoOf, headOid, statusPorcelain } from '../helpers/git.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';


describe('index.lock during a push', function () {
  this.timeout(60_000);
  let server: TestServer;
  let url: string;
  let marks: string;

  before(async () => {
    marks = await tempFolder();
    const wrapper = path.join(marks, 'git');
    await writeFile(
      wrapper,
      [
        '#!/bin/sh',
        'case " $* " in',
        '  *" --advertise-refs "*) exec git "$@";;',
        `  *" receive-pack "*) if [ -e "${marks}/armed" ]; then`,
        '    git "$@"; status=$?',
        '    for repo; do :; done',
        // The developer's shell knows nothing of the server's git environment.
        '    env -u GIT_DIR -u GIT_INDEX_FILE -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES -u GIT_QUARANTINE_PATH \\',
        `      git -C "$repo" -c user.name=Dev -c user.email=dev@example.com commit -qm "By hand, right after the push" > "${marks}/out" 2>&1`,
        `    echo $? > "${marks}/status"`,
        '    exit $status',
        '  fi;;',
        'esac',
        'exec git "$@"',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    let token: string;
    ({ server, token } = await buildAdminServer({ token: FULL_ACCESS, env: { CMS_GIT_PATH: wrapper } }));
    url = repoUrl(server.baseUrl, token);
    await pushPostsType(url);
  });

  after(async () => {
    await server.close();
    await removeFolders();
  });

  it('keeps a developer’s git commit from committing the old index onto the pushed commit before the server brought the index along', async () => {
    const work = await cloneFrom(url);
    const pushed = await commitIn(work, { 'default/entries/posts/pushed.md': '---\ntitle: "Pushed"\nviews: 1\n---\n' }, 'Push a post');
    await writeFile(path.join(marks, 'armed'), '');
    await mustGit(work, ['push', '--quiet']);
    expect(existsSync(path.join(marks, 'status')), 'the developer’s commit ran').to.equal(true);
    expect((await readFile(path.join(marks, 'status'), 'utf8')).trim(), await readFile(path.join(marks, 'out'), 'utf8')).to.not.equal('0');
    expect(await readFile(path.join(marks, 'out'), 'utf8')).to.contain('index.lock');
    const repo = contentRepoOf(server.dataDir);
    expect(await headOid(repo)).to.equal(pushed);
    expect(await statusPorcelain(repo)).to.equal('');
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/pushed')).status).to.equal(200);
  });

  it('finishes a push whose server was killed while it held index.lock for it, after the branch moved', async () => {
    await rm(path.join(marks, 'armed'), { force: true });
    const work = await cloneFrom(url);
    const pushed = await commitIn(work, { 'default/entries/posts/killed.md': '---\ntitle: "Killed"\nviews: 2\n---\n' }, 'Push while killed');
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    // What a kill between receive-pack's ref update and the index leaves: the branch moved, the move's journal, and the server's lock without a commit journal.
    const repo = contentRepoOf(dataDir);
    const from = await headOid(repo);
    await mustGit(repo, ['fetch', '--quiet', work, 'main']);
    await writeFile(path.join(repo, '.git/cms-branch-move'), `${JSON.stringify({ branch: 'main', from, to: pushed })}\n`);
    await mustGit(repo, ['update-ref', 'refs/heads/main', pushed, from]);
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    await writeFile(path.join(repo, '.git/index.lock'), `git-cms pid=${pid} start=1 host=${os.hostname().replace(/\s+/g, '_')}\n`);
    server = await startTestServer({ dataDir, env: { CMS_GIT_PATH: path.join(marks, 'git') } });
    expect(existsSync(path.join(repo, '.git/index.lock'))).to.equal(false);
    expect(await headOid(repo)).to.equal(pushed);
    expect(await statusPorcelain(repo)).to.equal('');
    expect((await server.request('GET', '/api/v1/workspaces/default/content/posts/killed')).status).to.equal(200);
  });
});
