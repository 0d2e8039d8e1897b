// The admin web app at /admin: index.html for the app and its client routes
// (no-cache, CSP), hashed assets (immutable, gzip), and JSON 404s for unknown
// assets, traversal attempts and the admin API's unknown paths. Uses a small
// built-app fixture so these tests do not depend on the real build.
import { expect } from 'chai';
import http from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { rawRequest } from '../helpers/raw-http.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';

const HTML = '<!doctype html><html lang="en"><head><script type="module" src="/admin/assets/index-abc123.js"></script></head><body><div id="app"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

describe('admin app serving', () => {
  let server: TestServer;
  let appDir: string;

  before(async () => {
    appDir = await mkdtemp(path.join(os.tmpdir(), 'cms-app-'));
    await mkdir(path.join(appDir, 'assets'));
    await writeFile(path.join(appDir, 'index.html'), HTML);
    await writeFile(path.join(appDir, 'assets', 'index-abc123.js'), SCRIPT);
    server = await startTestServer({ env: { CMS_ADMIN_APP_DIR: appDir } });
  });

  after(async () => {
    await server.close();
    await rm(appDir, { recursive: true, force: true });
  });

  it('serves the app at /admin with no-cache and a same-origin CSP', async () => {
    const response = await server.request('GET', '/admin');
    expect(response.status).to.equal(200);
    expect(response.text).to.equal(HTML);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).to.equal('no-cache');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("default-src 'self'").and.include("script-src 'self'").and.include("style-src 'self'").and.include("frame-ancestors 'none'");
    expect(csp).not.to.include('unsafe-inline');
    expect(csp).not.to.match(/https?:/);
  });

  it('serves the same HTML for every client route under /admin', async () => {
    for (const route of ['/admin/', '/admin/content/posts', '/admin/content/posts/abc/versions', '/admin/users']) {
      const response = await server.request('GET', route);
      expect(response.status, route).to.equal(200);
      expect(response.text, route).to.equal(HTML);
      expect(response.headers.get('cache-control'), route).to.equal('no-cache');
    }
  });

  it('answers 304 when the HTML has not changed', async () => {
    const first = await server.request('GET', '/admin');
    const again = await server.request('GET', '/admin/profile', { headers: { 'if-none-match': first.headers.get('etag') ?? '' } });
    expect(again.status).to.equal(304);
  });

  it('serves hashed assets as immutable, gzipped when the client accepts it', async () => {
    const plain = await fetch(`${server.baseUrl}/admin/assets/index-abc123.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).to.equal(200);
    expect(plain.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(plain.headers.get('content-encoding')).to.equal(null);
    expect(await plain.text()).to.equal(SCRIPT);

    const raw = await rawGet(server, '/admin/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(raw.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(raw.body).toString()).to.equal(SCRIPT);
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await server.request('HEAD', '/admin/assets/index-abc123.js');
    expect(response.status).to.equal(200);
    expect(response.text).to.equal('');
  });

  it('gives a JSON 404 for an unknown asset', async () => {
    expectError(await server.request('GET', '/admin/assets/missing-123.js'), 404, 'not_found');
    expectError(await server.request('GET', '/admin/assets/'), 404, 'not_found');
  });

  it('refuses paths that try to leave the assets folder', async () => {
    for (const attempt of ['/admin/assets/..%2f..%2fpackage.json', '/admin/assets/..%2findex.html', '/admin/assets/%2e%2e/%2e%2e/package.json', '/admin/assets/..\\..\\package.json']) {
      const response = await rawRequest(server.baseUrl, 'GET', attempt);
      expectError(response, 404, 'not_found');
      expect(response.text).not.to.include('"name"');
    }
  });

  it('leaves unknown admin API paths to the API (JSON 404) and refuses other methods (405)', async () => {
    expectError(await server.request('GET', '/admin/api/nothing-here'), 404, 'not_found');
    expectError(await server.request('GET', '/admin/api'), 404, 'not_found');
    const post = await server.request('POST', '/admin/content');
    expectError(post, 405, 'method_not_allowed');
    expect(post.headers.get('allow')).to.include('GET');
  });

  it('says the app is not built when its folder is empty', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'cms-app-empty-'));
    const bare = await startTestServer({ env: { CMS_ADMIN_APP_DIR: empty } });
    try {
      expectError(await bare.request('GET', '/admin'), 404, 'not_found');
      expectError(await bare.request('GET', '/admin/assets/index-abc123.js'), 404, 'not_found');
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

function expectError(response: TestResponse, status: number, code: string): void {
  expect(response.status).to.equal(status);
  expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  expect(response.body.error.code).to.equal(code);
}

// fetch() decompresses on its own; this reads the bytes as sent.
async function rawGet(server: TestServer, url: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(server.baseUrl + url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}
