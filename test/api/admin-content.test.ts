import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import type { TestServer } from '../helpers/server.ts';

describe('admin content routes', () => {
  let server: TestServer;
  let session: AdminSession;

  before(async () => {
    ({ server, admin: session } = await buildAdminServer());
    const token = await issueToken(server, session, FULL_ACCESS);
    await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts', fields: { cover: { type: 'media' } } }, token });
    for (const [title, status] of [['Draft one', 'draft'], ['Live one', 'published'], ['Kept', 'archived']]) {
      await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title, status, cover: ['a.png'] }, token });
    }
  });
  after(() => server.close());

  it('lists every status with the public list parameters, media as filenames', async () => {
    const response = await adminRequest(server, session, 'GET', '/content/posts?sort=title&limit=2');
    expect(response.status).to.equal(200);
    expect(response.body.data.map((entry: { title: string }) => entry.title)).to.deep.equal(['Draft one', 'Kept']);
    expect(response.body.meta).to.include({ total: 3, limit: 2, offset: 0, sort: 'title', order: 'asc' });
    expect(response.body.data[0].data.cover).to.deep.equal(['a.png']);
  });

  it('answers 400 invalid_request for bad list parameters', async () => {
    const response = await adminRequest(server, session, 'GET', '/content/posts?limit=0');
    expect(response.status).to.equal(400);
    expect(response.body.error.code).to.equal('invalid_request');
  });

  it('lists content types with meta.field_types', async () => {
    const response = await adminRequest(server, session, 'GET', '/content-types');
    expect(response.status).to.equal(200);
    expect(response.body.data.map((type: { name: string }) => type.name)).to.deep.equal(['posts']);
    expect(response.body.meta.field_types).to.include.members(['text', 'markdown', 'relation', 'media']);
  });

  it('selects the workspace with X-Service-Workspace', async () => {
    const created = await adminRequest(server, session, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' });
    expect(created.status).to.equal(201);
    const response = await adminRequest(server, session, 'GET', '/content-types', undefined, { 'x-service-workspace': 'shop' });
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal([]);
    const missing = await adminRequest(server, session, 'GET', '/content/posts', undefined, { 'x-service-workspace': 'shop' });
    expect(missing.status).to.equal(404);
    expect(missing.body.error.code).to.equal('not_found');
  });

  it('needs a session', async () => {
    const response = await server.request('GET', '/admin/api/content/posts');
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('unauthenticated');
  });
});
