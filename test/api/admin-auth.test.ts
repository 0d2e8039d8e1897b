// Setup, login, sessions, CSRF, throttling, profile and avatars over HTTP
// (issue 3: "Setup and sessions", "Passwords").
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, cookieHeaderOf, setupAdmin, type AdminSession } from '../helpers/auth.ts';
import { login, postLogin } from '../helpers/admin-users.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

function uploadAvatar(server: TestServer, session: AdminSession, bytes: Buffer, filename = 'me.png'): Promise<Response> {
  const form = new FormData();
  form.append('avatar', new Blob([new Uint8Array(bytes)]), filename);
  return fetch(`${server.baseUrl}/admin/api/profile/avatar`, { method: 'POST', body: form, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
}

describe('admin API: setup, sessions and profile', () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('before setup', () => {
    for (const [method, url] of [['GET', '/me'], ['POST', '/login'], ['GET', '/users'], ['GET', '/roles'], ['GET', '/tokens'], ['GET', '/workspaces'], ['POST', '/logout']]) {
      it(`${method} ${url} answers 503 not_set_up`, async () => {
        const response = await server.request(method, `/admin/api${url}`, { body: method === 'POST' ? { username: 'a', password: 'b' } : undefined });
        expect(response.status).to.equal(503);
        expect(response.body.error.code).to.equal('not_set_up');
      });
    }

    it('rejects a password shorter than 8 characters with 422 and creates nobody', async () => {
      const response = await server.request('POST', '/admin/api/setup', { body: { username: 'admin', password: 'short' } });
      expect(response.status).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(response.body.error.fields).to.have.property('password');
      expect((await server.request('GET', '/admin/api/me')).body.error.code).to.equal('not_set_up');
    });

    it('rejects unknown keys and a bad workspace slug with 422', async () => {
      const unknown = await server.request('POST', '/admin/api/setup', { body: { username: 'admin', password: ADMIN_PASSWORD, role: 'x' } });
      expect(unknown.status).to.equal(422);
      expect(unknown.body.error.fields).to.have.property('role');
      const slug = await server.request('POST', '/admin/api/setup', { body: { username: 'admin', password: ADMIN_PASSWORD, workspace_slug: 'Bad Slug' } });
      expect(slug.status).to.equal(422);
      expect(slug.body.error.fields).to.have.property('workspace_slug');
    });
  });

  describe('setup', () => {
    it('creates the first admin, logs it in and sets a safe session cookie', async () => {
      const response = await server.request('POST', '/admin/api/setup', { body: { username: 'root', password: ADMIN_PASSWORD, email: 'root@example.com', display_name: 'Root' } });
      expect(response.status).to.equal(201);
      expect(response.body.data).to.include({ username: 'root', role: 'admin', email: 'root@example.com', display_name: 'Root', avatar_url: null });
      expect(response.body.data).to.have.all.keys('id', 'username', 'display_name', 'email', 'role', 'avatar_url', 'created_at', 'updated_at');
      expect(response.body.meta.csrf_token).to.be.a('string').with.length.greaterThan(20);
      const cookie = response.headers.getSetCookie().find((line) => line.startsWith('cms_session='));
      expect(cookie).to.be.a('string');
      expect(cookie?.toLowerCase()).to.include('httponly').and.include('samesite=lax').and.not.include('secure');
      const me = await server.request('GET', '/admin/api/me', { headers: { cookie: cookieHeaderOf(response.headers) } });
      expect(me.status).to.equal(200);
      expect(me.body.data.username).to.equal('root');
      expect(me.body.meta.csrf_token).to.equal(response.body.meta.csrf_token);
    });

    it('answers 409 already_set_up once a user exists', async () => {
      await setupAdmin(server);
      const again = await server.request('POST', '/admin/api/setup', { body: { username: 'other', password: ADMIN_PASSWORD } });
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('already_set_up');
      // Whatever the body: invalid, unknown keys, not JSON at all (hardening issue, item 9).
      for (const attempt of [{ body: { username: '' } }, { body: { nonsense: true } }, { rawBody: '{not json', headers: { 'content-type': 'application/json' } }]) {
        const refused = await server.request('POST', '/admin/api/setup', attempt);
        expect(refused.status, JSON.stringify(attempt)).to.equal(409);
        expect(refused.body.error.code).to.equal('already_set_up');
      }
    });

    it('creates the first workspace from workspace and workspace_slug', async () => {
      const response = await server.request('POST', '/admin/api/setup', { body: { username: 'root', password: ADMIN_PASSWORD, workspace: 'My Blog', workspace_slug: 'blog' } });
      expect(response.status).to.equal(201);
      const session = { cookie: cookieHeaderOf(response.headers), csrf: response.body.meta.csrf_token };
      const list = await adminRequest(server, session, 'GET', '/workspaces');
      expect(list.body.data.map((workspace: { slug: string; label: string }) => [workspace.slug, workspace.label])).to.deep.equal([['blog', 'My Blog'], ['default', 'Default']]);
    });
  });

  describe('sessions', () => {
    let admin: AdminSession;
    beforeEach(async () => {
      admin = await setupAdmin(server);
    });

    it('answers 401 unauthenticated without a session cookie', async () => {
      const response = await server.request('GET', '/admin/api/me');
      expect(response.status).to.equal(401);
      expect(response.body.error.code).to.equal('unauthenticated');
    });

    it('treats a tampered cookie as no session', async () => {
      const forged = admin.cookie.replace(/cms_session=([^;]+)/, (_match, value: string) => `cms_session=${value.slice(0, -2)}xx`);
      expect(forged).to.not.equal(admin.cookie);
      const response = await server.request('GET', '/admin/api/me', { headers: { cookie: forged } });
      expect(response.status).to.equal(401);
      expect(response.body.error.code).to.equal('unauthenticated');
      const unsigned = await server.request('GET', '/admin/api/me', { headers: { cookie: admin.cookie.split('; ').filter((part) => part.startsWith('cms_session=')).join('') } });
      expect(unsigned.status).to.equal(401);
    });

    it('needs X-CSRF-Token on writes: 403 csrf_failed when missing or wrong', async () => {
      const missing = await server.request('POST', '/admin/api/roles', { body: { label: 'X', permissions: [] }, headers: { cookie: admin.cookie } });
      expect(missing.status).to.equal(403);
      expect(missing.body.error.code).to.equal('csrf_failed');
      const wrong = await server.request('POST', '/admin/api/logout', { headers: { cookie: admin.cookie, 'x-csrf-token': `${admin.csrf}x` } });
      expect(wrong.status).to.equal(403);
      expect(wrong.body.error.code).to.equal('csrf_failed');
      expect((await adminRequest(server, admin, 'GET', '/me')).status).to.equal(200);
    });

    it('logs in with the right password and gets a fresh CSRF token', async () => {
      const response = await postLogin(server, ADMIN_USERNAME, ADMIN_PASSWORD);
      expect(response.status).to.equal(200);
      expect(response.body.data.username).to.equal(ADMIN_USERNAME);
      expect(response.body.data).to.not.have.property('password_hash');
      expect(response.body.meta.csrf_token).to.be.a('string').and.not.equal(admin.csrf);
      const me = await server.request('GET', '/admin/api/me', { headers: { cookie: cookieHeaderOf(response.headers) } });
      expect(me.body.data.username).to.equal(ADMIN_USERNAME);
    });

    it('answers 401 invalid_credentials for a wrong password or an unknown user', async () => {
      for (const [username, password] of [[ADMIN_USERNAME, 'wrong password'], ['nobody', ADMIN_PASSWORD]]) {
        const response = await postLogin(server, username, password);
        expect(response.status).to.equal(401);
        expect(response.body.error.code).to.equal('invalid_credentials');
        expect(response.headers.getSetCookie().some((line) => line.startsWith('cms_session=') && !line.startsWith('cms_session=;'))).to.equal(false);
      }
    });

    it('rejects a login body with a missing password with 422', async () => {
      const response = await server.request('POST', '/admin/api/login', { body: { username: ADMIN_USERNAME } });
      expect(response.status).to.equal(422);
      expect(response.body.error.fields).to.have.property('password');
    });

    it('logout destroys the session', async () => {
      const response = await adminRequest(server, admin, 'POST', '/logout');
      expect(response.status).to.equal(200);
      expect(response.body.data).to.deep.equal({ ok: true });
      const after = await adminRequest(server, admin, 'GET', '/me');
      expect(after.status).to.equal(401);
      expect(after.body.error.code).to.equal('unauthenticated');
    });

    it('keeps sessions across a restart on the same data root', async () => {
      const dataDir = server.dataDir;
      await server.close({ keepData: true });
      server = await startTestServer({ dataDir });
      const me = await adminRequest(server, admin, 'GET', '/me');
      expect(me.status).to.equal(200);
      expect(me.body.data.username).to.equal(ADMIN_USERNAME);
      expect(me.body.meta.csrf_token).to.equal(admin.csrf);
    });

    it('stores only a hash of the session key in the state folder', async () => {
      const stateText = await readFile(path.join(server.dataDir, 'state', 'sessions.json'), 'utf8').catch(() => '');
      const rawKey = /cms_session=([^;]+)/.exec(admin.cookie)?.[1] ?? '';
      expect(rawKey).to.not.equal('');
      expect(stateText).to.not.include(rawKey);
    });
  });

  describe('login throttling', () => {
    beforeEach(async () => {
      await setupAdmin(server);
    });

    it('answers 429 rate_limited with Retry-After after 5 failures for one username, even with the right password', async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await postLogin(server, ADMIN_USERNAME, 'wrong password')).status).to.equal(401);
      }
      const limited = await postLogin(server, ADMIN_USERNAME, ADMIN_PASSWORD);
      expect(limited.status).to.equal(429);
      expect(limited.body.error.code).to.equal('rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).to.be.greaterThan(0);
      expect(retryAfter).to.be.at.most(900);
    });

    it('answers 429 after 5 failures from one address across usernames', async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await postLogin(server, `user${attempt}`, 'wrong password')).status).to.equal(401);
      }
      const limited = await postLogin(server, 'someone-else', 'whatever-password');
      expect(limited.status).to.equal(429);
      expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
    });
  });

  describe('bearer tokens on any route', () => {
    it('answers 401 unauthorized for a malformed Authorization header, even on public reads', async () => {
      for (const header of ['Bearer nope', 'Basic YWRtaW46YWRtaW4=', 'Bearer ', 'Bearer cms_abc_def']) {
        const response = await server.request('GET', '/api/v1/health', { headers: { authorization: header } });
        expect(response.status, header).to.equal(401);
        expect(response.body.error.code).to.equal('unauthorized');
      }
    });
  });

  describe('profile', () => {
    let admin: AdminSession;
    beforeEach(async () => {
      admin = await setupAdmin(server);
    });

    it('updates display name and email', async () => {
      const response = await adminRequest(server, admin, 'PUT', '/profile', { display_name: 'The Admin', email: 'admin@example.org' });
      expect(response.status).to.equal(200);
      expect(response.body.data).to.include({ display_name: 'The Admin', email: 'admin@example.org' });
      const bad = await adminRequest(server, admin, 'PUT', '/profile', { email: 'not an email' });
      expect(bad.status).to.equal(422);
      expect(bad.body.error.fields).to.have.property('email');
    });

    it('changes the password only with the right old_password', async () => {
      const missing = await adminRequest(server, admin, 'PUT', '/profile', { password: 'a new password' });
      expect(missing.status).to.equal(422);
      expect(missing.body.error.fields).to.have.property('old_password');
      const wrong = await adminRequest(server, admin, 'PUT', '/profile', { password: 'a new password', old_password: 'not it at all' });
      expect(wrong.status).to.equal(401);
      expect(wrong.body.error.code).to.equal('invalid_credentials');
      const short = await adminRequest(server, admin, 'PUT', '/profile', { password: 'short', old_password: ADMIN_PASSWORD });
      expect(short.status).to.equal(422);
      const elsewhere = await login(server, ADMIN_USERNAME, ADMIN_PASSWORD);
      const ok = await adminRequest(server, admin, 'PUT', '/profile', { password: 'a new password', old_password: ADMIN_PASSWORD });
      expect(ok.status).to.equal(200);
      expect((await postLogin(server, ADMIN_USERNAME, ADMIN_PASSWORD)).status).to.equal(401);
      // The other session ended; this browser got a fresh one with a new CSRF token (hardening issue, item 8).
      expect((await adminRequest(server, elsewhere, 'GET', '/me')).status).to.equal(401);
      expect((await adminRequest(server, admin, 'GET', '/me')).status, 'the old cookie is gone too').to.equal(401);
      const fresh = { cookie: cookieHeaderOf(ok.headers), csrf: ok.body.meta.csrf_token as string };
      expect(fresh.csrf).to.be.a('string');
      expect((await adminRequest(server, fresh, 'GET', '/me')).status).to.equal(200);
      expect((await adminRequest(server, fresh, 'PUT', '/profile', { display_name: 'Still me' })).status).to.equal(200);
      await login(server, ADMIN_USERNAME, 'a new password');
    });

    it('needs a session', async () => {
      const response = await server.request('PUT', '/admin/api/profile', { body: { display_name: 'x' } });
      expect(response.status).to.equal(401);
      expect(response.body.error.code).to.equal('unauthenticated');
    });

    it('uploads, serves and removes an avatar', async () => {
      const upload = await uploadAvatar(server, admin, PNG);
      expect(upload.status).to.equal(200);
      const user = ((await upload.json()) as { data: { id: string; avatar_url: string } }).data;
      expect(user.avatar_url).to.match(new RegExp(`/admin/api/users/${user.id}/avatar`));
      const image = await fetch(user.avatar_url, { headers: { cookie: admin.cookie } });
      expect(image.status).to.equal(200);
      expect(image.headers.get('content-type')).to.equal('image/png');
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).to.equal(true);
      const anonymous = await fetch(user.avatar_url);
      expect(anonymous.status).to.equal(401);

      const removed = await adminRequest(server, admin, 'DELETE', '/profile/avatar');
      expect(removed.status).to.equal(200);
      expect(removed.body.data.avatar_url).to.equal(null);
      const gone = await adminRequest(server, admin, 'GET', `/users/${user.id}/avatar`);
      expect(gone.status).to.equal(404);
      expect(gone.body.error.code).to.equal('not_found');
    });

    it('refuses non-images, oversized files and non-multipart bodies', async () => {
      const text = await uploadAvatar(server, admin, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg');
      expect(text.status).to.equal(422);
      expect(((await text.json()) as { error: { code: string } }).error.code).to.equal('file_type_not_allowed');
      const big = await uploadAvatar(server, admin, Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
      expect(big.status).to.equal(413);
      expect(((await big.json()) as { error: { code: string } }).error.code).to.equal('payload_too_large');
      const json = await adminRequest(server, admin, 'POST', '/profile/avatar', { avatar: 'x' });
      expect(json.status).to.equal(415);
      expect(json.body.error.code).to.equal('unsupported_media_type');
      const withoutCsrf = await fetch(`${server.baseUrl}/admin/api/profile/avatar`, { method: 'POST', body: new FormData(), headers: { cookie: admin.cookie } });
      expect(withoutCsrf.status).to.equal(403);
    });
  });

  describe('session store file', () => {
    it('drops sessions whose store entry was removed (logout on another server process)', async () => {
      const admin = await setupAdmin(server);
      const dataDir = server.dataDir;
      await server.close({ keepData: true });
      await writeFile(path.join(dataDir, 'state', 'sessions.json'), '{}');
      server = await startTestServer({ dataDir });
      const me = await adminRequest(server, admin, 'GET', '/me');
      expect(me.status).to.equal(401);
      expect(me.body.error.code).to.equal('unauthenticated');
    });
  });
});
