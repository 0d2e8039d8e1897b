import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('health', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  for (const url of ['/api/v1/health', '/api/v1/workspaces/default/health']) {
    it(`GET ${url} reports the SPEC fields`, async () => {
      const response = await server.request('GET', url);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      const data = response.body.data;
      expect(data).to.have.all.keys('ok', 'name', 'version', 'time', 'extensions', 'git');
      expect(data.ok).to.equal(true);
      expect(data.name).to.equal('git-cms');
      expect(data.version).to.match(/^\d+\.\d+\.\d+/);
      expect(Date.parse(data.time)).to.not.be.NaN;
      expect(data.extensions).to.deep.equal({ gd: true, zip: true });
      expect(data.git).to.deep.equal({ role: 'primary', git_available: true, branch: 'main', head: await server.services.repo.head(), lag_ms: 0 });
    });
  }

  it('answers 404 not_found for an unknown workspace', async () => {
    const response = await server.request('GET', '/api/v1/workspaces/nope/health');
    expect(response.status).to.equal(404);
    expect(response.body.error.code).to.equal('not_found');
  });

  it('answers unknown routes with the error envelope', async () => {
    const response = await server.request('GET', '/api/v2/whatever');
    expect(response.status).to.equal(404);
    expect(response.body).to.deep.equal({ error: { code: 'not_found', message: response.body.error.message } });
  });

  it('creates the content repo with a first commit and the default workspace', async () => {
    const head = await server.services.repo.head();
    expect(head).to.match(/^[0-9a-f]{40}$/);
    expect(server.services.workspaces.get('default').slug).to.equal('default');
  });
});
