import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { userWithGrants } from '../helpers/admin-users.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import type { TestServer } from '../helpers/server.ts';
import { makePng, PDF_BYTES, SVG_WITH_SCRIPT, uploadMedia } from './media-fixtures.ts';

describe('media file serving', () => {
  let server: TestServer;
  let session: AdminSession;
  let token: string;
  let png: Buffer;
  const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(4), Buffer.from('mp42isom'), Buffer.alloc(1000, 7)]);

  before(async () => {
    ({ server, admin: session, token } = await buildAdminServer({ token: FULL_ACCESS }));
    png = await makePng(900, 300);
    const uploaded = await uploadMedia(server, [
      { filename: 'photo.png', bytes: png },
      { filename: 'logo.svg', bytes: SVG_WITH_SCRIPT },
      { filename: 'clip.mp4', bytes: video },
      { filename: 'notes.txt', bytes: Buffer.from('héllo\n') },
      { filename: 'secret.pdf', bytes: PDF_BYTES },
      { filename: 'hidden.png', bytes: await makePng(50, 50) },
    ], { token });
    expect(uploaded.status).to.equal(201);
    for (const file of ['secret.pdf', 'hidden.png']) {
      const changed = await server.request('PUT', `/api/v1/workspaces/default/media/${file}/visibility`, { body: { visibility: 'private' }, token });
      expect(changed.status).to.equal(200);
    }
  });
  after(() => server.close());

  const get = (url: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${url}`, { headers });

  it('serves a file with its type, length, validators and nosniff', async () => {
    const response = await get('/media/default/photo.png');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    expect(response.headers.get('content-length')).to.equal(String(png.length));
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(response.headers.get('accept-ranges')).to.equal('bytes');
    expect(response.headers.get('etag'), 'the SHA-256 of the bytes').to.equal(`"${createHash('sha256').update(png).digest('hex')}"`);
    expect(response.headers.get('last-modified')).to.be.a('string');
    expect(response.headers.get('content-security-policy')).to.equal(null);
    expect(Buffer.from(await response.arrayBuffer())).to.deep.equal(png);
    const text = await get('/media/default/notes.txt');
    expect(text.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(await text.text()).to.equal('héllo\n');
  });

  it('answers HEAD with the headers only', async () => {
    const response = await fetch(`${server.baseUrl}/media/default/photo.png`, { method: 'HEAD' });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-length')).to.equal(String(png.length));
    expect(response.headers.get('content-type')).to.equal('image/png');
  });

  it('answers 304 for a matching If-None-Match or an If-Modified-Since not older than the file', async () => {
    const first = await get('/media/default/photo.png');
    const etag = first.headers.get('etag')!;
    const byTag = await get('/media/default/photo.png', { 'if-none-match': etag });
    expect(byTag.status).to.equal(304);
    expect(byTag.headers.get('etag')).to.equal(etag);
    const byDate = await get('/media/default/photo.png', { 'if-modified-since': first.headers.get('last-modified')! });
    expect(byDate.status).to.equal(304);
    const stale = await get('/media/default/photo.png', { 'if-none-match': '"other"' });
    expect(stale.status).to.equal(200);
    const older = await get('/media/default/photo.png', { 'if-modified-since': new Date(0).toUTCString() });
    expect(older.status).to.equal(200);
  });

  it('answers Range requests with 206 and the requested bytes', async () => {
    const response = await get('/media/default/clip.mp4', { range: 'bytes=10-19' });
    expect(response.status).to.equal(206);
    expect(response.headers.get('content-type')).to.equal('video/mp4');
    expect(response.headers.get('content-range')).to.equal(`bytes 10-19/${video.length}`);
    expect(response.headers.get('content-length')).to.equal('10');
    expect(Buffer.from(await response.arrayBuffer())).to.deep.equal(video.subarray(10, 20));
    const open = await get('/media/default/clip.mp4', { range: `bytes=${video.length - 5}-` });
    expect(open.status).to.equal(206);
    expect(Buffer.from(await open.arrayBuffer())).to.deep.equal(video.subarray(video.length - 5));
    const suffix = await get('/media/default/clip.mp4', { range: 'bytes=-4' });
    expect(suffix.headers.get('content-range')).to.equal(`bytes ${video.length - 4}-${video.length - 1}/${video.length}`);
    const beyond = await get('/media/default/clip.mp4', { range: `bytes=${video.length + 10}-` });
    expect(beyond.status).to.equal(416);
    expect(beyond.headers.get('content-range')).to.equal(`bytes */${video.length}`);
    const ignored = await get('/media/default/clip.mp4', { range: 'bytes=0-1,5-6' });
    expect(ignored.status).to.equal(200);
    const stale = await get('/media/default/clip.mp4', { range: 'bytes=0-1', 'if-range': '"old"' });
    expect(stale.status).to.equal(200);
  });

  it('serves SVG with a Content-Security-Policy that blocks scripts', async () => {
    const response = await get('/media/default/logo.svg');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/svg+xml');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).to.include("default-src 'none'").and.include('sandbox');
    expect(csp).not.to.include('script-src');
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
  });

  it('serves thumbnails at /media-thumbs, and the original where there is none', async () => {
    const response = await get('/media-thumbs/default/photo.png');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).to.deep.equal([400, 133]);
    const svg = await get('/media-thumbs/default/logo.svg');
    expect(svg.status).to.equal(200);
    expect(svg.headers.get('content-security-policy')).to.include('sandbox');
  });

  it('makes a thumbnail again when the cache was cleared', async () => {
    await rm(path.join(server.dataDir, 'cache'), { recursive: true, force: true });
    const response = await get('/media-thumbs/default/photo.png');
    expect(response.status).to.equal(200);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.width).to.equal(400);
  });

  it('guards private files and their thumbnails: 401 without a token, 403 without media.read, 200 with it', async () => {
    for (const url of ['/media/default/secret.pdf', '/media/default/hidden.png', '/media-thumbs/default/hidden.png']) {
      const anonymous = await get(url);
      expect(anonymous.status, url).to.equal(401);
      expect((await anonymous.json()).error.code).to.equal('unauthorized');
    }
    const other = await issueToken(server, session, [{ effect: 'allow', actions: ['media.read'], resources: ['media:photo.png'] }]);
    const forbidden = await get('/media/default/secret.pdf', { authorization: `Bearer ${other}` });
    expect(forbidden.status).to.equal(403);
    expect((await forbidden.json()).error.code).to.equal('forbidden');
    const reader = await issueToken(server, session, [{ effect: 'allow', actions: ['media.read'], resources: ['media:secret.pdf'] }]);
    const allowed = await get('/media/default/secret.pdf', { authorization: `Bearer ${reader}` });
    expect(allowed.status).to.equal(200);
    expect(allowed.headers.get('cache-control')).to.equal('private, no-cache');
    expect(Buffer.from(await allowed.arrayBuffer())).to.deep.equal(PDF_BYTES);
    const bad = await get('/media/default/secret.pdf', { authorization: 'Bearer cms_nope_nope' });
    expect(bad.status).to.equal(401);
  });

  it('lets an admin session with media.read view private files', async () => {
    const response = await get('/media/default/secret.pdf', { cookie: session.cookie });
    expect(response.status).to.equal(200);
    const thumb = await get('/media-thumbs/default/hidden.png', { cookie: session.cookie });
    expect(thumb.status).to.equal(200);
    const editor = await userWithGrants(server, session, 'writer', [{ effect: 'allow', actions: ['content.*'], resources: ['*'] }]);
    const denied = await get('/media/default/secret.pdf', { cookie: editor.session.cookie });
    expect(denied.status).to.equal(403);
    expect((await denied.json()).error.code).to.equal('forbidden');
    expect((await get('/media/default/photo.png', { cookie: editor.session.cookie })).status).to.equal(200);
  });

  it('answers 404 for unknown files and workspaces and for names outside the media folder', async () => {
    for (const rawPath of [
      '/media/default/missing.png', '/media/nope/photo.png', '/media/default/..%2f..%2fstate%2fsession-keys',
      '/media/default/%2e%2e%2fcontent%2fREADME.md', '/media/default/..%5c..%5cREADME.md', '/media/default/photo.png%00.txt',
      '/media/.staging/photo.png', '/media/default/.staging', '/media/default/photo.png.yaml', '/media-thumbs/default/..%2fphoto.png',
      '/media/..%2fcontent/README.md', '/media/default/%EF%BC%8E%EF%BC%8E%EF%BC%8Fx.png', `/media/default/${'a'.repeat(300)}.png`,
    ]) {
      const response = await rawRequest(server.baseUrl, 'GET', rawPath);
      expect(response.status, rawPath).to.be.oneOf([400, 404]);
      expect(response.body.error.code, rawPath).to.be.oneOf(['not_found', 'invalid_request']);
    }
    const dotted = await rawRequest(server.baseUrl, 'GET', '/media/default/../../state/session-keys');
    expect(dotted.status).to.equal(404);
  });

  it('answers 405 for other methods on file URLs', async () => {
    const response = await fetch(`${server.baseUrl}/media/default/photo.png`, { method: 'DELETE' });
    expect(response.status).to.equal(405);
  });
});
