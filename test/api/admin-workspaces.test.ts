// Workspaces over HTTP (issue 3: "Workspaces"): list, create, relabel,
// archive and restore, the protected default workspaces, the commit each
// change is, and the X-Service-Workspace header.
import { expect } from 'chai';
import YAML from 'yaml';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { userWithGrants } from '../helpers/admin-users.ts';
import { commitInfo, contentRepoOf, externalCommit, fileAt, statusPorcelain } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';

describe('admin API: workspaces', () => {
  let server: TestServer;
  let admin: AdminSession;

  beforeEach(async () => {
    ({ server, admin } = await buildAdminServer());
  });
  afterEach(async () => {
    await server.close();
  });

  const slugs = (body: { data: Array<{ slug: string }> }) => body.data.map((workspace) => workspace.slug);

  it('lists the default workspace on a fresh install', async () => {
    const response = await adminRequest(server, admin, 'GET', '/workspaces');
    expect(response.status).to.equal(200);
    expect(response.body.data).to.have.length(1);
    expect(response.body.data[0]).to.include({ slug: 'default', label: 'Default', archived: false, protected: true });
    expect(response.body.data[0]).to.have.all.keys('slug', 'label', 'archived', 'protected', 'type_order', 'created_at', 'updated_at');
  });

  it('creates a workspace as one commit by the acting user, with workspace.yaml in the repo', async () => {
    const created = await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' });
    expect(created.status).to.equal(201);
    expect(created.body.data).to.include({ slug: 'shop', label: 'Shop', archived: false, protected: false });
    const repo = contentRepoOf(server.dataDir);
    const commit = await commitInfo(repo);
    expect(commit.authorName).to.equal('admin');
    expect(commit.trailers.Workspace).to.equal('shop');
    expect(commit.trailers.Actor).to.be.a('string');
    const yaml = YAML.parse(await fileAt(repo, 'shop/workspace.yaml')) as Record<string, unknown>;
    expect(yaml).to.include({ label: 'Shop', archived: false });
    expect(yaml.types).to.deep.equal([]);
    expect(await statusPorcelain(repo)).to.equal('');
    expect(slugs((await adminRequest(server, admin, 'GET', '/workspaces')).body)).to.deep.equal(['default', 'shop']);
    expect((await server.request('GET', '/api/v1/workspaces/shop/content-types')).status).to.equal(200);
  });

  it('validates: 422 for a bad slug, missing label or unknown key; 409 for a taken slug', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ slug: 'Bad Slug', label: 'x' }, 'slug'],
      [{ slug: 'a'.repeat(65), label: 'x' }, 'slug'],
      [{ slug: 'ok' }, 'label'],
      [{ slug: 'ok', label: '   ' }, 'label'],
      [{ slug: 'ok', label: 'x', archived: true }, 'archived'],
    ];
    for (const [body, field] of cases) {
      const response = await adminRequest(server, admin, 'POST', '/workspaces', body);
      expect(response.status, JSON.stringify(body)).to.equal(422);
      expect(response.body.error.fields).to.have.property(field);
    }
    const taken = await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'default', label: 'Again' });
    expect(taken.status).to.equal(409);
    expect(taken.body.error.code).to.equal('conflict');
  });

  it('relabels a workspace; the slug cannot be changed', async () => {
    await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' });
    const relabel = await adminRequest(server, admin, 'PUT', '/workspaces/shop', { label: 'Store' });
    expect(relabel.status).to.equal(200);
    expect(relabel.body.data).to.include({ slug: 'shop', label: 'Store' });
    const reslug = await adminRequest(server, admin, 'PUT', '/workspaces/shop', { slug: 'store' });
    expect(reslug.status).to.equal(422);
    expect(reslug.body.error.fields).to.have.property('slug');
    const unknown = await adminRequest(server, admin, 'PUT', '/workspaces/nowhere', { label: 'x' });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
  });

  it('archives with DELETE (files kept, public API 404) and restores with PUT archived=false', async () => {
    await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' });
    const archived = await adminRequest(server, admin, 'DELETE', '/workspaces/shop');
    expect(archived.status).to.equal(200);
    expect(archived.body.data).to.deep.equal({ ok: true });
    const publicRead = await server.request('GET', '/api/v1/workspaces/shop/content-types');
    expect(publicRead.status).to.equal(404);
    expect(publicRead.body.error.code).to.equal('not_found');
    expect(slugs((await adminRequest(server, admin, 'GET', '/workspaces')).body)).to.deep.equal(['default']);
    const all = await adminRequest(server, admin, 'GET', '/workspaces?include_archived=true');
    expect(slugs(all.body)).to.deep.equal(['default', 'shop']);
    const yaml = YAML.parse(await fileAt(contentRepoOf(server.dataDir), 'shop/workspace.yaml')) as Record<string, unknown>;
    expect(yaml.archived).to.equal(true);

    const restored = await adminRequest(server, admin, 'PUT', '/workspaces/shop', { archived: false });
    expect(restored.status).to.equal(200);
    expect(restored.body.data.archived).to.equal(false);
    expect((await server.request('GET', '/api/v1/workspaces/shop/content-types')).status).to.equal(200);
  });

  it('refuses to archive the built-in default workspace (422)', async () => {
    for (const [method, body] of [['DELETE', undefined], ['PUT', { archived: true }]] as const) {
      const response = await adminRequest(server, admin, method, '/workspaces/default', body);
      expect(response.status, method).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
    }
    expect((await server.request('GET', '/api/v1/workspaces/default/content-types')).status).to.equal(200);
  });

  it('refuses to archive the configured default workspace (422)', async () => {
    await server.close();
    ({ server, admin } = await buildAdminServer({ env: { CMS_DEFAULT_WORKSPACE: 'main' } }));
    const listed = (await adminRequest(server, admin, 'GET', '/workspaces')).body.data as Array<{ slug: string; protected: boolean }>;
    // The answer says so (here `default` does not exist), for the app to leave Archive out.
    expect(listed.filter((workspace) => workspace.protected).map((workspace) => workspace.slug)).to.deep.equal(['main']);
    const response = await adminRequest(server, admin, 'DELETE', '/workspaces/main');
    expect(response.status).to.equal(422);
    expect(response.body.error.code).to.equal('validation_failed');
  });

  it('needs workspaces.manage to change workspaces; listing is open to every signed-in user', async () => {
    const { session } = await userWithGrants(server, admin, 'plain', [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
    expect((await adminRequest(server, session, 'GET', '/workspaces')).status).to.equal(200);
    for (const [method, url, body] of [
      ['POST', '/workspaces', { slug: 'mine', label: 'Mine' }],
      ['PUT', '/workspaces/default', { label: 'Renamed' }],
      ['DELETE', '/workspaces/default', undefined],
      ['GET', '/workspaces?include_archived=true', undefined],
    ] as const) {
      const response = await adminRequest(server, session, method, url, body);
      expect(response.status, `${method} ${url}`).to.equal(403);
      expect(response.body.error.code).to.equal('forbidden');
    }
    const anonymous = await server.request('GET', '/admin/api/workspaces');
    expect(anonymous.status).to.equal(401);
  });

  it('answers 400 for a bad include_archived value', async () => {
    for (const query of ['include_archived=yes', 'include_archived=', 'include_archived=true&include_archived=true']) {
      const response = await adminRequest(server, admin, 'GET', `/workspaces?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.error.code, query).to.equal('invalid_request');
    }
  });

  it('selects the admin workspace with X-Service-Workspace; a malformed one is 404', async () => {
    const chosen = await adminRequest(server, admin, 'GET', '/me', undefined, { 'x-service-workspace': 'shop' });
    expect(chosen.body.meta.workspace).to.equal('shop');
    expect((await adminRequest(server, admin, 'GET', '/me')).body.meta.workspace).to.equal('default');
    const bad = await adminRequest(server, admin, 'GET', '/me', undefined, { 'x-service-workspace': '../etc' });
    expect(bad.status).to.equal(404);
    expect(bad.body.error.code).to.equal('not_found');
  });

  it('picks up a workspace.yaml committed outside the server', async () => {
    await externalCommit(contentRepoOf(server.dataDir), { write: { 'docs/workspace.yaml': 'label: Docs\narchived: false\ntypes: []\n' } }, 'Add docs workspace');
    const listed = await pollUntil(
      () => adminRequest(server, admin, 'GET', '/workspaces'),
      (response) => slugs(response.body).includes('docs'),
    );
    expect(listed.body.data.find((workspace: { slug: string }) => workspace.slug === 'docs').label).to.equal('Docs');
  });
});
