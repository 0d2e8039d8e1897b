// API tokens over HTTP (issue 3: "API tokens", "Grants engine"): create,
// list, revoke, expiry, malformed tokens, and a token limited to one workspace.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { adminRequest, buildAdminServer, issueToken, type AdminSession } from '../helpers/auth.ts';
import { userWithGrants } from '../helpers/admin-users.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const TOKEN_FORMAT = /^cms_[0-9a-z]{16}_[0-9A-Za-z]{43}$/;
const TOKEN_KEYS = ['id', 'name', 'description', 'permissions', 'created_at', 'created_by', 'expires_at', 'last_used_at'];
const SCHEMA_READ = [{ effect: 'allow' as const, actions: ['schema.read'], resources: ['*'] }];

describe('admin API: tokens', () => {
  let server: TestServer;
  let admin: AdminSession;

  beforeEach(async () => {
    ({ server, admin } = await buildAdminServer());
  });
  afterEach(async () => {
    await server.close();
  });

  it('creates a token and returns the plain token once', async () => {
    const created = await adminRequest(server, admin, 'POST', '/tokens', { name: 'ci', description: 'build bot', permissions: SCHEMA_READ });
    expect(created.status).to.equal(201);
    expect(created.body.data).to.have.all.keys(...TOKEN_KEYS, 'token');
    expect(created.body.data.token).to.match(TOKEN_FORMAT);
    expect(created.body.data.token).to.include(created.body.data.id);
    expect(created.body.data).to.include({ name: 'ci', description: 'build bot', expires_at: null, last_used_at: null });
    expect(created.body.data.created_by).to.be.a('string');

    const list = await adminRequest(server, admin, 'GET', '/tokens');
    expect(list.status).to.equal(200);
    expect(list.body.meta.total).to.equal(1);
    expect(list.body.data[0]).to.have.all.keys(...TOKEN_KEYS);
    const secret = created.body.data.token.split('_')[2];
    expect(list.text).to.not.include(secret);
    expect(list.text).to.not.include('hash');
  });

  it('refuses a token with more rights than its creator holds (hardening issue, item 7)', async () => {
    const { session: maker } = await userWithGrants(server, admin, 'token-maker', [
      { effect: 'allow', actions: ['tokens.*', 'content.read'], resources: ['*'] },
    ]);
    const wider = await adminRequest(server, maker, 'POST', '/tokens', { name: 'too much', permissions: [{ effect: 'allow', actions: ['*'], resources: ['*'] }] });
    expect(wider.status).to.equal(403);
    expect(wider.body.error.code).to.equal('forbidden');
    const within = await adminRequest(server, maker, 'POST', '/tokens', { name: 'reader', permissions: [{ effect: 'allow', actions: ['content.read'], resources: ['content:posts:*'] }] });
    expect(within.status, within.text).to.equal(201);
  });

  it('keeps token secrets out of the state folder in plain form', async () => {
    const token = await issueToken(server, admin, SCHEMA_READ);
    const state = await readFile(path.join(server.dataDir, 'state', 'tokens.json'), 'utf8');
    expect(state).to.not.include(token.split('_')[2]);
    expect(state).to.include(token.split('_')[1]);
  });

  it('authenticates public requests and shows last_used_at', async () => {
    const token = await issueToken(server, admin, SCHEMA_READ);
    const response = await server.request('GET', '/api/v1/workspaces/default/content-types', { token });
    expect(response.status).to.equal(200);
    const list = await adminRequest(server, admin, 'GET', '/tokens');
    expect(list.body.data[0].last_used_at).to.be.a('string');
    expect(Date.parse(list.body.data[0].last_used_at)).to.not.be.NaN;
  });

  it('answers 401 unauthorized for a token with extra characters, a wrong secret or an unknown id', async () => {
    const token = await issueToken(server, admin, SCHEMA_READ);
    const [, id, secret] = token.split('_');
    // The changed last character must differ from the real one (1 in 62 secrets end in "A").
    const wrongLast = secret.endsWith('A') ? 'B' : 'A';
    const variants = [`${token}x`, `x${token}`, `cms_${id}_${secret.slice(0, -1)}${wrongLast}`, `cms_${'0'.repeat(16)}_${secret}`, `cms_${id}_${secret}_${secret}`, token.toUpperCase()];
    for (const variant of variants) {
      const response = await server.request('GET', '/api/v1/workspaces/default/content-types', { headers: { authorization: `Bearer ${variant}` } });
      expect(response.status, variant).to.equal(401);
      expect(response.body.error.code).to.equal('unauthorized');
    }
    expect((await server.request('GET', '/api/v1/workspaces/default/content-types', { token })).status).to.equal(200);
  });

  it('revokes a token: it stops working at once and leaves the list', async () => {
    const created = await adminRequest(server, admin, 'POST', '/tokens', { name: 'short-lived', permissions: SCHEMA_READ });
    const token = created.body.data.token;
    const revoked = await adminRequest(server, admin, 'DELETE', `/tokens/${created.body.data.id}`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body.data).to.deep.equal({ ok: true });
    const response = await server.request('GET', '/api/v1/workspaces/default/content-types', { token });
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('unauthorized');
    expect((await adminRequest(server, admin, 'GET', '/tokens')).body.data).to.deep.equal([]);
    const again = await adminRequest(server, admin, 'DELETE', `/tokens/${created.body.data.id}`);
    expect(again.status).to.equal(404);
    expect(again.body.error.code).to.equal('not_found');
  });

  it('checks a token on every request of a keep-alive connection: another secret and a revoked token are refused on it', async () => {
    const created = await adminRequest(server, admin, 'POST', '/tokens', { name: 'kept-alive', permissions: SCHEMA_READ });
    const token: string = created.body.data.token;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (authorization: string) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const request = http.get(`${server.baseUrl}/api/v1/workspaces/default/content-types`, { agent, headers: { authorization } }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
        });
        request.on('error', reject);
      });
    try {
      expect(await get(`Bearer ${token}`)).to.deep.equal({ status: 200, reused: false });
      expect(await get(`Bearer ${token}`)).to.deep.equal({ status: 200, reused: true });
      const otherSecret = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
      expect(await get(`Bearer ${otherSecret}`)).to.deep.equal({ status: 401, reused: true });
      expect(await get(`Bearer ${token}`)).to.deep.equal({ status: 200, reused: true });
      expect((await adminRequest(server, admin, 'DELETE', `/tokens/${created.body.data.id}`)).status).to.equal(200);
      expect(await get(`Bearer ${token}`)).to.deep.equal({ status: 401, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('rejects an expired token with 401', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const created = await adminRequest(server, admin, 'POST', '/tokens', { name: 'expiring', permissions: SCHEMA_READ, expires_at: inAnHour });
    expect(created.status).to.equal(201);
    expect(created.body.data.expires_at).to.equal(inAnHour);
    const token = created.body.data.token;
    expect((await server.request('GET', '/api/v1/workspaces/default/content-types', { token })).status).to.equal(200);

    // Move the expiry into the past the way only the clock could, then restart.
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    const file = path.join(dataDir, 'state', 'tokens.json');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(inAnHour, new Date(Date.now() - 1000).toISOString()));
    server = await startTestServer({ dataDir });
    const response = await server.request('GET', '/api/v1/workspaces/default/content-types', { token });
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('unauthorized');
  });

  it('validates new tokens: 422 for bad grants, a missing name, a past or malformed expiry', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', permissions: [{ effect: 'allow', actions: ['tokens.steal'], resources: ['*'] }] }, 'permissions.0.actions.0'],
      [{ name: 'x', permissions: [{ effect: 'allow', actions: ['*'], resources: ['content:'] }] }, 'permissions.0.resources.0'],
      [{ name: 'x' }, 'permissions'],
      [{ permissions: SCHEMA_READ }, 'name'],
      [{ name: 'x', permissions: SCHEMA_READ, expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      [{ name: 'x', permissions: SCHEMA_READ, expires_at: 'tomorrow' }, 'expires_at'],
      [{ name: 'x', permissions: SCHEMA_READ, secret: 'mine' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const response = await adminRequest(server, admin, 'POST', '/tokens', body);
      expect(response.status, JSON.stringify(body)).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(response.body.error.fields).to.have.property(field);
    }
    expect((await adminRequest(server, admin, 'GET', '/tokens')).body.data).to.deep.equal([]);
  });

  it('a token limited to one workspace works there and is refused elsewhere', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    const token = await issueToken(server, admin, [{ effect: 'allow', actions: ['schema.*', 'content.*'], resources: ['workspace:shop:*'] }]);
    const inShop = await server.request('POST', '/api/v1/workspaces/shop/content-types', { token, body: { name: 'products' } });
    expect(inShop.status).to.equal(201);
    const elsewhere = await server.request('POST', '/api/v1/workspaces/default/content-types', { token, body: { name: 'products' } });
    expect(elsewhere.status).to.equal(403);
    expect(elsewhere.body.error.code).to.equal('forbidden');
  });

  it('a token is not an admin session: the admin API answers 401 unauthenticated', async () => {
    const token = await issueToken(server, admin, [{ effect: 'allow', actions: ['*'], resources: ['*'] }]);
    const response = await server.request('GET', '/admin/api/tokens', { token });
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('unauthenticated');
  });

  it('users need tokens.* grants: read-only may list but not create or revoke', async () => {
    const id = (await adminRequest(server, admin, 'POST', '/tokens', { name: 'kept', permissions: SCHEMA_READ })).body.data.id;
    const { session } = await userWithGrants(server, admin, 'auditor', [{ effect: 'allow', actions: ['tokens.read'], resources: ['tokens:*'] }]);
    expect((await adminRequest(server, session, 'GET', '/tokens')).status).to.equal(200);
    const create = await adminRequest(server, session, 'POST', '/tokens', { name: 'mine', permissions: SCHEMA_READ });
    expect(create.status).to.equal(403);
    expect(create.body.error.code).to.equal('forbidden');
    const revoke = await adminRequest(server, session, 'DELETE', `/tokens/${id}`);
    expect(revoke.status).to.equal(403);
  });

  it('tokens survive a restart', async () => {
    const token = await issueToken(server, admin, SCHEMA_READ);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir });
    expect((await server.request('GET', '/api/v1/workspaces/default/content-types', { token })).status).to.equal(200);
  });
});
