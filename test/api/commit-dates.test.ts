// Dates from git (docs/static-sites.md): a commit made with git that changes an
// entry without a new `lastmod` moves its updated_at to the commit's time, and
// the date survives a restart; a commit that sets `lastmod` and a save through
// the API speak for themselves.
import { expect } from 'chai';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { fullAccessToken } from '../helpers/auth.ts';
import { externalCommit, git } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = '/api/v1/workspaces/default';

describe('updated_at from git commits', () => {
  let server: TestServer;
  let token: string;
  let repo: string;
  const file = 'default/entries/posts/hello.md';

  before(async () => {
    server = await startTestServer();
    token = await fullAccessToken(server);
    repo = path.join(server.dataDir, 'content');
    await server.request('POST', `${ROOT}/content-types`, { body: { name: 'posts', fields: { body: { type: 'markdown' } } }, token });
    const created = await server.request('POST', `${ROOT}/content/posts`, { body: { title: 'Hello', slug: 'hello', status: 'published', body: 'First.' }, token });
    expect(created.status).to.equal(201);
  });
  after(() => server.close());

  const updatedAt = async () => (await server.request('GET', `${ROOT}/content/posts/hello`, { token })).body.data.updated_at as string;
  const commitTime = async () => new Date((await git(repo, ['log', '-1', '--format=%aI'])).trim()).toISOString();
  const waitForBody = (text: string) => pollUntil(() => server.request('GET', `${ROOT}/content/posts/hello`, { token }), (response) => response.body.data.data.body === text);

  it('takes the commit\'s time when the commit leaves lastmod as it was', async () => {
    const before = await updatedAt();
    await new Promise((resolve) => setTimeout(resolve, 1100)); // git's dates are whole seconds
    const text = await readFile(path.join(repo, file), 'utf8');
    await externalCommit(repo, { write: { [file]: text.replace('First.', 'Edited with git.') } }, 'Edit the body with git');
    await waitForBody('Edited with git.');
    const at = await commitTime();
    expect(at).to.not.equal(before);
    expect(await updatedAt()).to.equal(at);
  });

  it('keeps that date across a restart, while the file is unchanged', async () => {
    const at = await commitTime();
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir: server.dataDir });
    expect(await updatedAt()).to.equal(at);
  });

  it('takes the file\'s lastmod when the commit sets it', async () => {
    const text = await readFile(path.join(repo, file), 'utf8');
    await externalCommit(repo, { write: { [file]: text.replace(/^lastmod: .*$/m, 'lastmod: 2030-05-06T07:08:09.000Z').replace('Edited with git.', 'Dated by hand.') } }, 'Set lastmod by hand');
    await waitForBody('Dated by hand.');
    expect(await updatedAt()).to.equal('2030-05-06T07:08:09.000Z');
  });

  it('writes the date into the file at the next save through the API', async () => {
    const saved = await server.request('PATCH', `${ROOT}/content/posts/hello`, { body: { body: 'Saved.' }, token });
    expect(saved.status).to.equal(200);
    const text = await readFile(path.join(repo, file), 'utf8');
    expect(text).to.contain(`lastmod: ${saved.body.data.updated_at}`);
  });
});
