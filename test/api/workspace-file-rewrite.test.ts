// The server's own writes of a hand-edited `{ws}/workspace.yaml` (docs/cli.md,
// "The same list from a running server"): a change through the API rewrites
// the file with the settings in use, and GET /problems, at once, lists what
// is still wrong with the file it wrote (the same as `cms check`): nothing
// for bad values and unknown keys, which the rewrite replaces; names in
// `types` that are no content type, which it keeps. Creating or deleting a
// type through the API judges those names again too.
import { expect } from 'chai';
import YAML from 'yaml';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { removeFolders } from '../helpers/git-client.ts';
import { contentRepoOf, externalCommit, fileAt } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { checkedProblems, listedProblems } from '../helpers/problems.ts';
import type { TestServer } from '../helpers/server.ts';

const API = '/api/v1/workspaces/default';
const FILE = 'default/workspace.yaml';

describe('rewriting a bad workspace.yaml through the API', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let repo: string;

  beforeEach(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    expect((await server.request('POST', `${API}/content-types`, { body: { name: 'posts', fields: {} }, token })).status).to.equal(201);
  });
  afterEach(async () => {
    await server?.close();
    await removeFolders();
  });

  const problems = () => listedProblems(server, 'default', token);

  const checked = () => checkedProblems(repo);

  // Commits `text` by hand and waits until the server lists `count` problems of it.
  async function editByHand(text: string, count: number): Promise<void> {
    await externalCommit(repo, { write: { [FILE]: text } }, 'Edit workspace.yaml by hand');
    await pollUntil(problems, (list) => list.length === count);
  }

  function relabel(label: string) {
    return adminRequest(server, admin, 'PUT', '/workspaces/default', { label });
  }

  it('writes a good file over bad values and unknown keys, and their problems go at once', async () => {
    await editByHand('label: 12\ntypes: posts\ncolour: blue\ncreated_at: [1]\n', 4);
    expect((await relabel('Renamed')).status).to.equal(200);
    const written = YAML.parse(await fileAt(repo, FILE)) as Record<string, unknown>;
    expect(Object.keys(written).sort()).to.deep.equal(['archived', 'created_at', 'label', 'types', 'updated_at']);
    expect(written).to.include({ label: 'Renamed', archived: false });
    expect(await problems()).to.deep.equal([]);
    expect(await checked()).to.deep.equal([]);
  });

  it('keeps listing a name in types that is no content type, which the rewrite keeps', async () => {
    await editByHand('label: Default\ntypes:\n  - posts\n  - gone\n', 1);
    expect((await relabel('Renamed')).status).to.equal(200);
    expect(await fileAt(repo, FILE)).to.contain('gone');
    const listed = await problems();
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ path: FILE, field: 'types' });
    expect(listed[0].message).to.contain('"gone"');
    expect(await checked()).to.deep.equal(listed);
  });

  it('drops a name in types once the API creates that type', async () => {
    await editByHand('label: Default\ntypes:\n  - pages\n  - posts\n', 1);
    expect((await server.request('POST', `${API}/content-types`, { body: { name: 'pages', fields: {} }, token })).status).to.equal(201);
    expect(await problems()).to.deep.equal([]);
    expect(await checked()).to.deep.equal([]);
  });

  it('keeps listing the other names that are no content type when the API deletes a type', async () => {
    expect((await server.request('POST', `${API}/content-types`, { body: { name: 'pages', fields: {} }, token })).status).to.equal(201);
    await editByHand('label: Default\ntypes:\n  - pages\n  - gone\n  - posts\n', 1);
    expect((await server.request('DELETE', `${API}/content-types/pages`, { token })).status).to.equal(200);
    expect(await fileAt(repo, FILE)).to.not.contain('pages');
    const listed = await problems();
    expect(listed.map((problem) => problem.message)).to.have.length(1).and.match(/"gone"/);
    expect(await checked()).to.deep.equal(listed);
  });
});
