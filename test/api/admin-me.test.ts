// GET /admin/api/me, meta.can: what the signed-in user may do per action on
// the whole area, for the admin app to hide what it may not use.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { userWithGrants } from '../helpers/admin-users.ts';
import type { TestServer } from '../helpers/server.ts';

describe('admin me: capabilities', () => {
  let server: TestServer;
  let admin: AdminSession;

  before(async () => {
    ({ server, admin } = await buildAdminServer());
  });

  after(() => server.close());

  const capabilitiesOf = async (session: AdminSession, workspace?: string) => {
    const response = await adminRequest(server, session, 'GET', '/me', undefined, workspace ? { 'x-service-workspace': workspace } : {});
    expect(response.status).to.equal(200);
    return response.body.meta.can as Record<string, boolean>;
  };

  it('lists every known action as allowed for an administrator', async () => {
    const can = await capabilitiesOf(admin);
    expect(Object.keys(can)).to.include.members(['content.read', 'schema.update', 'media.read', 'users.read', 'webhooks.manage', 'updates.install']);
    expect(Object.values(can).every((allowed) => allowed === true)).to.equal(true);
  });

  it('answers for a limited role: content yes, administration no', async () => {
    const viewer = await userWithGrants(server, admin, 'reader', [{ effect: 'allow', actions: ['content.read', 'schema.read', 'media.read'], resources: ['*'] }]);
    const can = await capabilitiesOf(viewer.session);
    expect(can).to.include({ 'content.read': true, 'schema.read': true, 'media.read': true, 'content.update': false, 'schema.update': false, 'users.read': false, 'roles.read': false, 'tokens.read': false, 'activity.read': false });
  });

  it('counts a workspace-scoped grant only in its workspace, and never for global areas', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'blog', label: 'Blog' })).status).to.equal(201);
    const scoped = await userWithGrants(server, admin, 'blogger', [{ effect: 'allow', actions: ['content.*', 'users.read'], resources: ['workspace:blog:*'] }]);
    expect(await capabilitiesOf(scoped.session, 'blog')).to.include({ 'content.update': true, 'users.read': false });
    expect(await capabilitiesOf(scoped.session, 'default')).to.include({ 'content.update': false });
  });

  it('does not count a grant on part of an area', async () => {
    const partial = await userWithGrants(server, admin, 'partial', [{ effect: 'allow', actions: ['content.read'], resources: ['content:posts:*'] }]);
    expect(await capabilitiesOf(partial.session)).to.include({ 'content.read': false });
  });
});
