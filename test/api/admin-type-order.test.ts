import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { createType, sessionWithGrants } from '../helpers/editorial.ts';
import { commitCount, contentRepoOf, fileAt } from '../helpers/git.ts';
import type { TestServer } from '../helpers/server.ts';

describe('admin content-type order', () => {
  let server: TestServer;
  let admin: AdminSession;
  let repo: string;

  before(async () => {
    ({ server, admin } = await buildAdminServer());
    repo = contentRepoOf(server.dataDir);
    for (const name of ['articles', 'books', 'contact']) await createType(server, admin, { name, singleton: name === 'contact', fields: {} });
  });
  after(() => server.close());

  const names = (body: { data: { name: string }[] }) => body.data.map((type) => type.name);

  it('stores the order in workspace.yaml in one commit; lists follow it', async () => {
    const before = await commitCount(repo);
    const response = await adminRequest(server, admin, 'PATCH', '/content-types/order', { names: ['contact', 'books', 'articles'] });
    expect(response.status).to.equal(200);
    expect(names(response.body)).to.deep.equal(['contact', 'books', 'articles']);
    expect(response.body.meta.field_types).to.include.members(['text', 'markdown', 'relation']);
    expect(await commitCount(repo)).to.equal(before + 1);
    expect(await fileAt(repo, 'default/workspace.yaml')).to.include('types:\n  - contact\n  - books\n  - articles\n');
    expect(names((await adminRequest(server, admin, 'GET', '/content-types')).body)).to.deep.equal(['contact', 'books', 'articles']);
    expect(names((await server.request('GET', '/api/v1/workspaces/default/content-types')).body)).to.deep.equal(['contact', 'books', 'articles']);
  });

  it('puts the types left out after the named ones, in their previous order', async () => {
    await adminRequest(server, admin, 'PATCH', '/content-types/order', { names: ['contact', 'books', 'articles'] });
    const response = await adminRequest(server, admin, 'PATCH', '/content-types/order', { names: ['articles'] });
    expect(names(response.body)).to.deep.equal(['articles', 'contact', 'books']);
  });

  it('answers 422 for unknown or repeated names and malformed bodies, changing nothing', async () => {
    const before = await commitCount(repo);
    const unknown = await adminRequest(server, admin, 'PATCH', '/content-types/order', { names: ['books', 'nope'] });
    expect(unknown.status).to.equal(422);
    expect(unknown.body.error.fields).to.have.keys(['names.1']);
    const repeated = await adminRequest(server, admin, 'PATCH', '/content-types/order', { names: ['books', 'books'] });
    expect(repeated.status).to.equal(422);
    expect(repeated.body.error.fields).to.have.keys(['names.1']);
    for (const body of [{}, { names: 'books' }, { names: [1] }, { names: [], other: true }]) {
      const response = await adminRequest(server, admin, 'PATCH', '/content-types/order', body);
      expect(response.status, JSON.stringify(body)).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
    }
    expect(await commitCount(repo)).to.equal(before);
  });

  it('needs schema.update', async () => {
    const viewer = await sessionWithGrants(server, admin, 'viewer-only', [{ effect: 'allow', actions: ['schema.read'], resources: ['*'] }]);
    const response = await adminRequest(server, viewer, 'PATCH', '/content-types/order', { names: ['books'] });
    expect(response.status).to.equal(403);
    expect(response.body.error.code).to.equal('forbidden');
  });
});
