// The parts a server loads with their first request, not with its start
// (docs/architecture.md, "Loaded on first use"): a fresh server process, so
// that its first requests are the ones that load them; requests arriving
// while a part loads wait for it.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USERNAME, cookieHeaderOf, FULL_ACCESS } from '../helpers/auth.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';

describe('parts loaded on first use', () => {
  let dataDir: string;
  let child: ChildServer;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'first-use-'));
    child = await startChildServer(dataDir, { env: { CMS_LOG_LEVEL: 'error' } });
  });

  after(async () => {
    await child?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  const answer = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(child.url + url, init);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  };

  it('answers the admin requests that arrive together first, and the admin API and the services only it uses work on', async () => {
    const first = await Promise.all(Array.from({ length: 5 }, () => answer('/admin/api/me')));
    expect(first.map(({ status, body }) => [status, body.error?.code])).to.deep.equal(Array.from({ length: 5 }, () => [503, 'not_set_up']));

    const setup = await answer('/admin/api/setup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }) });
    expect(setup.status).to.equal(201);
    const cookie = cookieHeaderOf(setup.headers);
    const me = await answer('/admin/api/me', { headers: { cookie } });
    expect([me.status, me.body.data?.username]).to.deep.equal([200, ADMIN_USERNAME]);
    const backups = await answer('/admin/api/backups', { headers: { cookie } });
    expect([backups.status, backups.body.data]).to.deep.equal([200, []]);
    const update = await answer('/admin/api/update', { headers: { cookie } });
    expect([update.status, update.body.data?.state]).to.deep.equal([200, 'not_configured']);
    const [roles, dashboard, app] = await Promise.all(['/admin/api/roles', '/admin/api/dashboard', '/admin/api/app'].map((url) => answer(url, { headers: { cookie } })));
    expect([roles.status, dashboard.status, app.status]).to.deep.equal([200, 200, 200]);
    expect(roles.body.data.map((role: { id: string }) => role.id)).to.include('admin');
    expect(app.body.data.default_workspace).to.equal('default');
  });

  it('builds the OpenAPI documents for the requests that arrive together first', async () => {
    const documents = await Promise.all(['/api/v1/openapi.json', '/api/v1/openapi.json', '/api/v1/workspaces/default/openapi.json', '/api/v1/workspaces/default/openapi.json'].map((url) => answer(url)));
    expect(documents.map(({ status }) => status)).to.deep.equal([200, 200, 200, 200]);
    for (const { body } of documents) expect(body.paths).to.have.property('/api/v1/workspaces/{ws}/content/{type}');
    expect(documents[1].body).to.deep.equal(documents[0].body);
    expect(documents[3].body).to.deep.equal(documents[2].body);
  });
});

describe('the slug library, loaded on first use', () => {
  let dataDir: string;
  let child: ChildServer;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'first-slug-'));
    child = await startChildServer(dataDir, { env: { CMS_LOG_LEVEL: 'error' } });
  });

  after(async () => {
    await child?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  const send = async (method: string, url: string, body: unknown, headers: Record<string, string>) => {
    const response = await fetch(child.url + url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  };

  it('makes the slugs of the entries and the role a fresh server creates together first', async () => {
    const setup = await send('POST', '/admin/api/setup', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, {});
    const session = { cookie: cookieHeaderOf(setup.headers), 'x-csrf-token': setup.body.meta.csrf_token as string };
    const issued = await send('POST', '/admin/api/tokens', { name: 'writer', permissions: FULL_ACCESS }, session);
    const auth = { authorization: `Bearer ${issued.body.data.token as string}` };
    expect((await send('POST', '/api/v1/workspaces/default/content-types', { name: 'notes', fields: {} }, auth)).status).to.equal(201);

    const [role, ...created] = await Promise.all([
      send('POST', '/admin/api/roles', { label: 'Crème Brûlée Editors', permissions: [] }, session),
      ...Array.from({ length: 3 }, () => send('POST', '/api/v1/workspaces/default/content/notes', { title: 'Crème Brûlée' }, auth)),
    ]);
    expect([role.status, role.body.data?.id]).to.deep.equal([201, 'creme-brulee-editors']);
    expect(created.map(({ status }) => status)).to.deep.equal([201, 201, 201]);
    expect(created.map(({ body }) => body.data.slug as string).sort()).to.deep.equal(['creme-brulee', 'creme-brulee-2', 'creme-brulee-3']);
  });
});
