// User management over HTTP (issue 3: "Users and roles"): CRUD, the
// last-admin rules, and a non-admin role allowed some things and refused others.
import { expect } from 'chai';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { login, postLogin, userWithGrants } from '../helpers/admin-users.ts';
import type { TestServer } from '../helpers/server.ts';

const USER_KEYS = ['id', 'username', 'display_name', 'email', 'role', 'avatar_url', 'created_at', 'updated_at'];

describe('admin API: users', () => {
  let server: TestServer;
  let admin: AdminSession;
  let adminId: string;

  beforeEach(async () => {
    ({ server, admin, adminId } = await buildAdminServer());
  });
  afterEach(async () => {
    await server.close();
  });

  async function createUser(body: Record<string, unknown>) {
    return adminRequest(server, admin, 'POST', '/users', body);
  }

  it('creates a user (viewer by default) and never shows a hash', async () => {
    const created = await createUser({ username: 'ann', password: 'ann-password', email: 'ann@example.com' });
    expect(created.status).to.equal(201);
    expect(created.body.data).to.have.all.keys(...USER_KEYS);
    expect(created.body.data).to.include({ username: 'ann', role: 'viewer', display_name: 'ann', email: 'ann@example.com' });
    const list = await adminRequest(server, admin, 'GET', '/users');
    expect(list.status).to.equal(200);
    expect(list.body.meta.total).to.equal(2);
    expect(list.body.data.map((user: { username: string }) => user.username)).to.deep.equal(['admin', 'ann']);
    expect(list.text).to.not.match(/hash|\$2[aby]\$/);
  });

  it('lists every author\'s name to any signed-in user, without users.read; a token gets 401', async () => {
    await createUser({ username: 'ann', password: 'ann-password', display_name: 'Ann Lee' });
    const reader = await userWithGrants(server, admin, 'reader', [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
    expect((await adminRequest(server, reader.session, 'GET', '/users')).status).to.equal(403);
    const authors = await adminRequest(server, reader.session, 'GET', '/authors');
    expect(authors.status).to.equal(200);
    expect(authors.body.data).to.deep.include.members([
      { id: adminId, name: 'admin' },
      { id: reader.id, name: 'reader' },
    ]);
    expect(authors.body.data.map((author: { name: string }) => author.name)).to.include('Ann Lee');
    expect(authors.text).to.not.match(/email|hash/);
    const anonymous = await server.request('GET', '/admin/api/authors');
    expect(anonymous.status).to.equal(401);
  });

  it('validates new users: 422 for short password, unknown role, unknown key, bad username; 409 for a taken username', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: 'bob', password: 'short' }, 'password'],
      [{ username: 'bob', password: 'long enough', role: 'wizard' }, 'role'],
      [{ username: 'bob', password: 'long enough', admin: true }, 'admin'],
      [{ username: 'bad name!', password: 'long enough' }, 'username'],
      [{ password: 'long enough' }, 'username'],
    ];
    for (const [body, field] of cases) {
      const response = await createUser(body);
      expect(response.status, JSON.stringify(body)).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(response.body.error.fields).to.have.property(field);
    }
    await createUser({ username: 'bob', password: 'long enough' });
    const duplicate = await createUser({ username: 'BOB', password: 'long enough' });
    expect(duplicate.status).to.equal(409);
    expect(duplicate.body.error.code).to.equal('conflict');
  });

  it('gets, updates and deletes a user; unknown ids are 404', async () => {
    const id = (await createUser({ username: 'cy', password: 'cy-password' })).body.data.id;
    const got = await adminRequest(server, admin, 'GET', `/users/${id}`);
    expect(got.status).to.equal(200);
    expect(got.body.data.username).to.equal('cy');
    const updated = await adminRequest(server, admin, 'PUT', `/users/${id}`, { display_name: 'Cy', role: 'editor', email: 'cy@example.com' });
    expect(updated.status).to.equal(200);
    expect(updated.body.data).to.include({ display_name: 'Cy', role: 'editor', email: 'cy@example.com', username: 'cy' });
    const renamed = await adminRequest(server, admin, 'PUT', `/users/${id}`, { username: 'other' });
    expect(renamed.status).to.equal(422);
    const deleted = await adminRequest(server, admin, 'DELETE', `/users/${id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body.data).to.deep.equal({ ok: true });
    for (const [method, url] of [['GET', `/users/${id}`], ['PUT', `/users/${id}`], ['DELETE', `/users/${id}`], ['GET', '/users/no-such-user']]) {
      const response = await adminRequest(server, admin, method, url, method === 'PUT' ? { display_name: 'x' } : undefined);
      expect(response.status, `${method} ${url}`).to.equal(404);
      expect(response.body.error.code).to.equal('not_found');
    }
  });

  it('resetting a password ends the user\'s sessions and the new password works', async () => {
    const id = (await createUser({ username: 'dee', password: 'dee-password' })).body.data.id;
    const dee = await login(server, 'dee', 'dee-password');
    const reset = await adminRequest(server, admin, 'PUT', `/users/${id}`, { password: 'fresh-password' });
    expect(reset.status).to.equal(200);
    expect((await adminRequest(server, dee, 'GET', '/me')).status).to.equal(401);
    expect((await postLogin(server, 'dee', 'dee-password')).status).to.equal(401);
    await login(server, 'dee', 'fresh-password');
  });

  it('deleting a user ends their sessions', async () => {
    const id = (await createUser({ username: 'eve', password: 'eve-password' })).body.data.id;
    const eve = await login(server, 'eve', 'eve-password');
    expect((await adminRequest(server, admin, 'DELETE', `/users/${id}`)).status).to.equal(200);
    const after = await adminRequest(server, eve, 'GET', '/me');
    expect(after.status).to.equal(401);
    expect(after.body.error.code).to.equal('unauthenticated');
  });

  it('keeps the last admin: 409 on deleting or demoting them, allowed once a second admin exists', async () => {
    const remove = await adminRequest(server, admin, 'DELETE', `/users/${adminId}`);
    expect(remove.status).to.equal(409);
    expect(remove.body.error.code).to.equal('conflict');
    const demote = await adminRequest(server, admin, 'PUT', `/users/${adminId}`, { role: 'editor' });
    expect(demote.status).to.equal(409);
    expect(demote.body.error.code).to.equal('conflict');
    expect((await adminRequest(server, admin, 'GET', '/me')).body.data.role).to.equal('admin');

    const second = await createUser({ username: 'second', password: ADMIN_PASSWORD, role: 'admin' });
    expect(second.status).to.equal(201);
    expect((await adminRequest(server, admin, 'PUT', `/users/${adminId}`, { role: 'editor' })).status).to.equal(200);
    const secondSession = await login(server, 'second', ADMIN_PASSWORD);
    expect((await adminRequest(server, secondSession, 'DELETE', `/users/${second.body.data.id}`)).status).to.equal(409);
  });

  it('a role with users.read only may list users but not create, update or delete them', async () => {
    const { session: reader } = await userWithGrants(server, admin, 'reader', [{ effect: 'allow', actions: ['users.read'], resources: ['users:*'] }]);
    expect((await adminRequest(server, reader, 'GET', '/users')).status).to.equal(200);
    expect((await adminRequest(server, reader, 'GET', `/users/${adminId}`)).status).to.equal(200);
    for (const [method, url, body] of [
      ['POST', '/users', { username: 'x', password: 'long enough' }],
      ['PUT', `/users/${adminId}`, { display_name: 'hacked' }],
      ['DELETE', `/users/${adminId}`, undefined],
      ['GET', '/roles', undefined],
      ['GET', '/tokens', undefined],
    ] as const) {
      const response = await adminRequest(server, reader, method, url, body);
      expect(response.status, `${method} ${url}`).to.equal(403);
      expect(response.body.error.code).to.equal('forbidden');
    }
  });

  it('a user without grants may read only their own record', async () => {
    const { session, id } = await userWithGrants(server, admin, 'nobody', []);
    expect((await adminRequest(server, session, 'GET', `/users/${id}`)).status).to.equal(200);
    const other = await adminRequest(server, session, 'GET', `/users/${adminId}`);
    expect(other.status).to.equal(403);
    expect(other.body.error.code).to.equal('forbidden');
  });

  it('only admins may give the admin role, and nobody a role with more rights than their own', async () => {
    const { session: manager } = await userWithGrants(server, admin, 'manager', [{ effect: 'allow', actions: ['users.*'], resources: ['*'] }]);
    const promote = await adminRequest(server, manager, 'POST', '/users', { username: 'sneaky', password: 'long enough', role: 'admin' });
    expect(promote.status).to.equal(403);
    expect(promote.body.error.code).to.equal('forbidden');
    const editor = await adminRequest(server, manager, 'POST', '/users', { username: 'editor-one', password: 'long enough', role: 'editor' });
    expect(editor.status, 'the editor role holds content rights the manager lacks').to.equal(403);
    expect((await adminRequest(server, admin, 'POST', '/roles', { id: 'user-readers', label: 'User readers', permissions: [{ effect: 'allow', actions: ['users.read'], resources: ['*'] }] })).status).to.equal(201);
    const within = await adminRequest(server, manager, 'POST', '/users', { username: 'fine', password: 'long enough', role: 'user-readers' });
    expect(within.status, within.text).to.equal(201);
  });

  it('lets a user manager change, reset or delete no one who holds more rights (hardening issue, item 7)', async () => {
    const { session: manager } = await userWithGrants(server, admin, 'manager', [
      { effect: 'allow', actions: ['users.*', 'roles.read'], resources: ['*'] },
    ]);
    const takeover = await adminRequest(server, manager, 'PUT', `/users/${adminId}`, { password: 'taken over now' });
    expect(takeover.status).to.equal(403);
    expect(takeover.body.error.code).to.equal('forbidden');
    expect((await adminRequest(server, manager, 'DELETE', `/users/${adminId}`)).status).to.equal(403);
    expect((await postLogin(server, ADMIN_USERNAME, 'taken over now')).status, 'the password did not change').to.equal(401);
    const roleGrab = await adminRequest(server, manager, 'POST', '/roles', { label: 'Everything', permissions: [{ effect: 'allow', actions: ['*'], resources: ['*'] }] });
    expect(roleGrab.status, 'roles.create is not held either').to.equal(403);
  });

  it('a deny grant beats the allow for one user', async () => {
    expect((await adminRequest(server, admin, 'POST', '/roles', { id: 'user-viewers', label: 'User viewers', permissions: [{ effect: 'allow', actions: ['users.read'], resources: ['users:*'] }] })).status).to.equal(201);
    const { session } = await userWithGrants(server, admin, 'limited', [
      { effect: 'allow', actions: ['users.*'], resources: ['users:*'] },
      { effect: 'deny', actions: ['users.delete'], resources: [`users:*`] },
    ]);
    const target = (await createUser({ username: 'target', password: 'long enough', role: 'user-viewers' })).body.data.id;
    expect((await adminRequest(server, session, 'PUT', `/users/${target}`, { display_name: 'T' })).status).to.equal(200);
    expect((await adminRequest(server, session, 'DELETE', `/users/${target}`)).status).to.equal(403);
  });

  it('serves 404 for the avatar of a user without one and needs a session', async () => {
    const none = await adminRequest(server, admin, 'GET', `/users/${adminId}/avatar`);
    expect(none.status).to.equal(404);
    const anonymous = await server.request('GET', `/admin/api/users/${adminId}/avatar`);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('unauthenticated');
  });

  it('answers 405 for a wrong method on a known path', async () => {
    const response = await adminRequest(server, admin, 'PATCH', '/users');
    expect(response.status).to.equal(405);
    expect(response.body.error.code).to.equal('method_not_allowed');
    expect(response.headers.get('allow')).to.include('GET').and.include('POST');
  });
});
