// Role management over HTTP (issue 3: "Users and roles", "Bad input"):
// built-in roles, grant validation, the admin role's protection, roles in use.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { login, userWithGrants } from '../helpers/admin-users.ts';
import type { TestServer } from '../helpers/server.ts';

const READ_CONTENT = [{ effect: 'allow', actions: ['content.read'], resources: ['content:*'] }];

describe('admin API: roles', () => {
  let server: TestServer;
  let admin: AdminSession;

  beforeEach(async () => {
    ({ server, admin } = await buildAdminServer());
  });
  afterEach(async () => {
    await server.close();
  });

  it('lists the built-in roles with their grants and user counts', async () => {
    const response = await adminRequest(server, admin, 'GET', '/roles');
    expect(response.status).to.equal(200);
    const byId = Object.fromEntries(response.body.data.map((role: { id: string }) => [role.id, role]));
    expect(Object.keys(byId)).to.deep.equal(['admin', 'editor', 'viewer']);
    expect(byId.admin).to.include({ builtin: true, user_count: 1 });
    expect(byId.admin.permissions).to.deep.equal([{ effect: 'allow', actions: ['*'], resources: ['*'] }]);
    expect(byId.viewer.user_count).to.equal(0);
    expect(response.body.meta.total).to.equal(3);
  });

  it('lists the grant actions by area for the grants editor, to any signed-in user', async () => {
    const viewer = await userWithGrants(server, admin, 'reader', [{ effect: 'allow', actions: ['content.read'], resources: ['content:*'] }]);
    const response = await adminRequest(server, viewer.session, 'GET', '/grant-actions');
    expect(response.status).to.equal(200);
    const content = response.body.data.find((group: { area: string }) => group.area === 'content');
    expect(content.actions).to.deep.equal(['content.read', 'content.create', 'content.update', 'content.publish', 'content.delete']);
    expect(response.body.data.map((group: { area: string }) => group.area)).to.include.members(['schema', 'media', 'users', 'roles', 'tokens', 'git']);
    const anonymous = await server.request('GET', '/admin/api/grant-actions');
    expect(anonymous.status).to.equal(401);
  });

  it('creates a role (id from the label), reads, updates and deletes it', async () => {
    const created = await adminRequest(server, admin, 'POST', '/roles', { label: 'Content Reader', permissions: READ_CONTENT });
    expect(created.status).to.equal(201);
    expect(created.body.data).to.include({ id: 'content-reader', label: 'Content Reader', builtin: false, user_count: 0 });
    expect(created.body.data.permissions).to.deep.equal(READ_CONTENT);
    expect((await adminRequest(server, admin, 'GET', '/roles/content-reader')).body.data.label).to.equal('Content Reader');

    const widened = [...READ_CONTENT, { effect: 'deny', actions: ['content.read'], resources: ['workspace:secret:*'], conditions: { status: ['draft'] } }];
    const updated = await adminRequest(server, admin, 'PUT', '/roles/content-reader', { label: 'Readers', permissions: widened });
    expect(updated.status).to.equal(200);
    expect(updated.body.data.label).to.equal('Readers');
    expect(updated.body.data.permissions).to.deep.equal(widened);

    const deleted = await adminRequest(server, admin, 'DELETE', '/roles/content-reader');
    expect(deleted.status).to.equal(200);
    expect(deleted.body.data).to.deep.equal({ ok: true });
    expect((await adminRequest(server, admin, 'GET', '/roles/content-reader')).status).to.equal(404);
  });

  it('answers 409 for a role id that exists and 422 for a bad id', async () => {
    const duplicate = await adminRequest(server, admin, 'POST', '/roles', { id: 'editor', label: 'Again', permissions: READ_CONTENT });
    expect(duplicate.status).to.equal(409);
    expect(duplicate.body.error.code).to.equal('conflict');
    const bad = await adminRequest(server, admin, 'POST', '/roles', { id: 'Bad Id', label: 'Bad', permissions: READ_CONTENT });
    expect(bad.status).to.equal(422);
    expect(bad.body.error.fields).to.have.property('id');
  });

  const badGrants: Array<[string, unknown, string]> = [
    ['an unknown action', [{ effect: 'allow', actions: ['content.fly'], resources: ['*'] }], 'permissions.0.actions.0'],
    ['a malformed resource', [{ effect: 'allow', actions: ['content.read'], resources: ['content:posts'] }], 'permissions.0.resources.0'],
    ['a resource of an unknown type', [{ effect: 'allow', actions: ['content.read'], resources: ['robots:*'] }], 'permissions.0.resources.0'],
    ['an unknown grant key', [{ effect: 'allow', actions: ['*'], resources: ['*'], when: 'always' }], 'permissions.0.when'],
    ['an unknown effect', [{ effect: 'permit', actions: ['*'], resources: ['*'] }], 'permissions.0.effect'],
    ['permissions that are not a list', { effect: 'allow' }, 'permissions'],
    ['missing permissions', undefined, 'permissions'],
  ];
  for (const [name, permissions, field] of badGrants) {
    it(`rejects ${name} with 422 validation_failed and saves nothing`, async () => {
      const body = permissions === undefined ? { id: 'broken', label: 'Broken' } : { id: 'broken', label: 'Broken', permissions };
      const response = await adminRequest(server, admin, 'POST', '/roles', body);
      expect(response.status).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(response.body.error.fields).to.have.property(field);
      expect((await adminRequest(server, admin, 'GET', '/roles/broken')).status).to.equal(404);
    });
  }

  it('rejects bad grants on update and keeps the old ones', async () => {
    await adminRequest(server, admin, 'POST', '/roles', { id: 'keep', label: 'Keep', permissions: READ_CONTENT });
    const response = await adminRequest(server, admin, 'PUT', '/roles/keep', { permissions: [{ effect: 'allow', actions: ['everything'], resources: ['*'] }] });
    expect(response.status).to.equal(422);
    expect((await adminRequest(server, admin, 'GET', '/roles/keep')).body.data.permissions).to.deep.equal(READ_CONTENT);
  });

  it('protects the admin role: no reduced grants (422), no delete (409), label may change', async () => {
    const reduce = await adminRequest(server, admin, 'PUT', '/roles/admin', { permissions: READ_CONTENT });
    expect(reduce.status).to.equal(422);
    expect(reduce.body.error.fields).to.have.property('permissions');
    const remove = await adminRequest(server, admin, 'DELETE', '/roles/admin');
    expect(remove.status).to.equal(409);
    expect(remove.body.error.code).to.equal('conflict');
    const relabel = await adminRequest(server, admin, 'PUT', '/roles/admin', { label: 'Owners' });
    expect(relabel.status).to.equal(200);
    expect(relabel.body.data.label).to.equal('Owners');
    expect((await adminRequest(server, admin, 'GET', '/users')).status).to.equal(200);
  });

  it('refuses to delete a role in use (409) and allows it once unused', async () => {
    await adminRequest(server, admin, 'POST', '/roles', { id: 'used', label: 'Used', permissions: READ_CONTENT });
    const user = await adminRequest(server, admin, 'POST', '/users', { username: 'holder', password: 'long enough', role: 'used' });
    const inUse = await adminRequest(server, admin, 'DELETE', '/roles/used');
    expect(inUse.status).to.equal(409);
    expect(inUse.body.error.code).to.equal('conflict');
    await adminRequest(server, admin, 'PUT', `/users/${user.body.data.id}`, { role: 'viewer' });
    expect((await adminRequest(server, admin, 'DELETE', '/roles/used')).status).to.equal(200);
  });

  it('built-in editor and viewer roles may be edited', async () => {
    const response = await adminRequest(server, admin, 'PUT', '/roles/viewer', { permissions: READ_CONTENT });
    expect(response.status).to.equal(200);
    expect(response.body.data.permissions).to.deep.equal(READ_CONTENT);
  });

  it('applies role changes to signed-in users at once', async () => {
    const { session } = await userWithGrants(server, admin, 'changing', [{ effect: 'allow', actions: ['roles.read'], resources: ['roles:*'] }]);
    expect((await adminRequest(server, session, 'GET', '/roles')).status).to.equal(200);
    await adminRequest(server, admin, 'PUT', '/roles/changing-role', { permissions: READ_CONTENT });
    expect((await adminRequest(server, session, 'GET', '/roles')).status).to.equal(403);
  });

  it('an editor may not manage roles (403), unknown roles are 404', async () => {
    const user = await adminRequest(server, admin, 'POST', '/users', { username: 'ed', password: 'ed-password', role: 'editor' });
    expect(user.status).to.equal(201);
    const editor = await login(server, 'ed', 'ed-password');
    for (const [method, url, body] of [
      ['GET', '/roles', undefined],
      ['POST', '/roles', { label: 'X', permissions: READ_CONTENT }],
      ['PUT', '/roles/viewer', { label: 'X' }],
      ['DELETE', '/roles/viewer', undefined],
    ] as const) {
      const response = await adminRequest(server, editor, method, url, body);
      expect(response.status, `${method} ${url}`).to.equal(403);
      expect(response.body.error.code).to.equal('forbidden');
    }
    for (const [method, url] of [['GET', '/roles/none'], ['PUT', '/roles/none'], ['DELETE', '/roles/none']]) {
      const response = await adminRequest(server, admin, method, url, method === 'PUT' ? { label: 'x' } : undefined);
      expect(response.status, `${method} ${url}`).to.equal(404);
    }
  });
});
