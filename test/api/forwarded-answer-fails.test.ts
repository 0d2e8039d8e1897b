// A streamed answer that fails before its first byte, through a real route:
// a replica forwards a backup download to its primary (real servers, real
// git clone), and the primary's answer breaks after its headers, before any
// body byte. The replica answers with the 500 internal_error envelope and
// its request id, not a reset connection. The break is made by a small proxy
// between the replica and the primary that passes everything else through.
import { expect } from 'chai';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildAdminServer, FULL_ACCESS, issueToken } from '../helpers/auth.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const BROKEN_PATH = '/admin/api/backups/broken.zip/download';

// Passes requests to `target`; on BROKEN_PATH sends the primary's status and headers, then drops the connection.
function startBreakingProxy(target: string): Promise<Server> {
  const proxy = http.createServer((request, response) => {
    const forwarded = http.request(new URL(request.url ?? '/', target), { method: request.method, headers: request.headers }, (answer) => {
      if (request.url === BROKEN_PATH) {
        response.writeHead(200, { 'content-type': 'application/zip', 'content-length': '1000', 'content-disposition': 'attachment; filename="broken.zip"' });
        response.flushHeaders();
        answer.resume();
        setImmediate(() => response.socket?.destroy());
        return;
      }
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.once('error', () => response.destroy());
    request.pipe(forwarded);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

describe('a forwarded answer that breaks before its first byte', function () {
  this.timeout(120_000);
  let primary: TestServer;
  let replica: TestServer;
  let proxy: Server;

  before(async () => {
    const built = await buildAdminServer({ token: FULL_ACCESS });
    primary = built.server;
    const replicaToken = await issueToken(primary, built.admin, [{ effect: 'allow', actions: ['git.pull', 'replication.read'], resources: ['*'] }], 'replica');
    proxy = await startBreakingProxy(primary.baseUrl);
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    replica = await startTestServer({ env: { CMS_ROLE: 'replica', CMS_PRIMARY_URL: proxyUrl, CMS_GIT_UPSTREAM_TOKEN: replicaToken } });
  });
  after(async () => {
    await replica?.close();
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
    await primary?.close();
  });

  it('is answered by the replica with the 500 internal_error envelope and the request id', async () => {
    const answer = await replica.request('GET', BROKEN_PATH, { headers: { 'X-Request-Id': 'forwarded-1' } });
    expect(answer.status).to.equal(500);
    expect(answer.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(answer.body.error.code).to.equal('internal_error');
    expect(answer.headers.get('x-request-id')).to.equal('forwarded-1');
    expect(answer.headers.has('content-disposition')).to.equal(false);
  });
});
