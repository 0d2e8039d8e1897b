// Image transformations on media URLs (docs/media.md "Image transformations"):
// real sharp on images made in the test, a real server on port 0, the cache
// checked on disk.
import { expect } from 'chai';
import { readdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makeJpeg, makePng, PDF_BYTES, SVG_WITH_SCRIPT, uploadMedia } from './media-fixtures.ts';

/** Every file under cache/variants/, as `{ws}/{filename}/{variant}`. */
async function variantFiles(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'cache', 'variants');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))).sort();
}

async function imageOf(response: Response): Promise<Metadata> {
  return sharp(Buffer.from(await response.arrayBuffer())).metadata();
}

describe('media image transformations', () => {
  let server: TestServer;
  let session: AdminSession;
  let token: string;
  const get = (url: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${url}`, { headers });

  before(async () => {
    ({ server, admin: session, token } = await buildAdminServer({ token: FULL_ACCESS }));
    const uploaded = await uploadMedia(server, [
      { filename: 'photo.png', bytes: await makePng(1200, 800) },
      { filename: 'wide.jpg', bytes: await makeJpeg(1000, 500) },
      { filename: 'logo.svg', bytes: SVG_WITH_SCRIPT },
      { filename: 'doc.pdf', bytes: PDF_BYTES },
      { filename: 'hidden.png', bytes: await makePng(300, 300) },
      { filename: 'gone.png', bytes: await makePng(100, 100) },
      { filename: 'anim.gif', bytes: await animatedGif() },
      { filename: 'moved.png', bytes: await makePng(100, 100) },
    ], { token });
    expect(uploaded.status).to.equal(201);
    const hidden = await server.request('PUT', '/api/v1/workspaces/default/media/hidden.png/visibility', { body: { visibility: 'private' }, token });
    expect(hidden.status).to.equal(200);
  });
  after(() => server.close());

  it('resizes to the asked width, keeping the aspect ratio and the source format', async () => {
    const response = await get('/media/default/photo.png?w=640');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    expect(response.headers.get('cache-control')).to.equal('public, no-cache');
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    const meta = await imageOf(response);
    expect([meta.format, meta.width, meta.height]).to.deep.equal(['png', 640, 427]);
    const byHeight = await imageOf(await get('/media/default/wide.jpg?h=256'));
    expect([byHeight.format, byHeight.width, byHeight.height]).to.deep.equal(['jpeg', 512, 256]);
  });

  it('converts to webp, avif, jpeg and png with the matching Content-Type', async () => {
    const expected = { webp: ['image/webp', 'webp'], avif: ['image/avif', 'heif'], jpeg: ['image/jpeg', 'jpeg'], png: ['image/png', 'png'] };
    for (const [format, [mime, sharpFormat]] of Object.entries(expected)) {
      const response = await get(`/media/default/photo.png?w=320&format=${format}`);
      expect(response.status, format).to.equal(200);
      expect(response.headers.get('content-type'), format).to.equal(mime);
      const meta = await imageOf(response);
      expect([meta.format, meta.width, meta.height], format).to.deep.equal([sharpFormat, 320, 213]);
      if (format === 'avif') expect(meta.compression).to.equal('av1');
    }
  });

  it('applies cover, contain and inside to a box of both sizes, and never enlarges', async () => {
    const cover = await imageOf(await get('/media/default/photo.png?w=320&h=320&fit=cover'));
    expect([cover.width, cover.height]).to.deep.equal([320, 320]);
    const contain = await get('/media/default/photo.png?w=320&h=320&fit=contain');
    const padded = await sharp(Buffer.from(await contain.arrayBuffer())).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([padded.info.width, padded.info.height]).to.deep.equal([320, 320]);
    expect(padded.data[3], 'the padding is transparent').to.equal(0);
    const centre = (160 * 320 + 160) * 4;
    expect(padded.data[centre + 3], 'the image is opaque').to.equal(255);
    const inside = await imageOf(await get('/media/default/photo.png?w=320&h=320&fit=inside'));
    expect([inside.width, inside.height]).to.deep.equal([320, 213]);
    const byDefault = await imageOf(await get('/media/default/photo.png?w=320&h=320'));
    expect([byDefault.width, byDefault.height], 'inside is the default').to.deep.equal([320, 213]);
    const larger = await imageOf(await get('/media/default/photo.png?w=3840'));
    expect([larger.width, larger.height]).to.deep.equal([1200, 800]);
    const largeCover = await imageOf(await get('/media/default/photo.png?w=1920&h=1920&fit=cover'));
    expect([largeCover.width, largeCover.height], 'the box shrinks to the image, keeping its shape').to.deep.equal([800, 800]);
    const jpegPad = await get('/media/default/photo.png?w=320&h=320&fit=contain&format=jpeg');
    const white = await sharp(Buffer.from(await jpegPad.arrayBuffer())).raw().toBuffer();
    expect([...white.subarray(0, 3)].every((value) => value > 245), 'JPEG padding is white').to.equal(true);
  });

  it('keeps an animation in GIF and WebP and takes the first frame for other formats', async () => {
    const gif = await get('/media/default/anim.gif?w=32');
    expect(gif.headers.get('content-type')).to.equal('image/gif');
    const gifMeta = await imageOf(gif);
    expect([gifMeta.width, gifMeta.height, gifMeta.pages]).to.deep.equal([32, 21, 2]);
    const webp = await imageOf(await get('/media/default/anim.gif?w=32&format=webp'));
    expect([webp.format, webp.width, webp.height, webp.pages]).to.deep.equal(['webp', 32, 21, 2]);
    const png = await imageOf(await get('/media/default/anim.gif?w=32&format=png'));
    expect([png.format, png.width, png.height, png.pages]).to.deep.equal(['png', 32, 21, undefined]);
  });

  it('makes a variant once: the second request is served from the same cache file', async () => {
    const url = '/media/default/wide.jpg?w=256&format=webp&q=60';
    const before = server.services.media.variantStats();
    const first = await get(url);
    expect(first.status).to.equal(200);
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const files = (await variantFiles(server.dataDir)).filter((file) => file.startsWith('default/wide.jpg/') && file.includes('_256xauto_') && file.endsWith('_q60.webp'));
    expect(files).to.have.length(1);
    const cacheFile = path.join(server.dataDir, 'cache', 'variants', files[0]);
    const written = await stat(cacheFile);
    expect(server.services.media.variantStats().made).to.equal(before.made + 1);

    const second = await get(url);
    expect(Buffer.from(await second.arrayBuffer())).to.deep.equal(firstBytes);
    const after = server.services.media.variantStats();
    expect(after.made, 'nothing made again').to.equal(before.made + 1);
    expect(after.hits).to.equal(before.hits + 1);
    const reused = await stat(cacheFile);
    expect([reused.ino, reused.mtimeMs]).to.deep.equal([written.ino, written.mtimeMs]);
    expect(second.headers.get('etag')).to.equal(first.headers.get('etag'));
    const notModified = await get(url, { 'if-none-match': first.headers.get('etag')! });
    expect(notModified.status).to.equal(304);
    const sameOnThumbUrl = await get(url.replace('/media/', '/media-thumbs/'));
    expect(sameOnThumbUrl.headers.get('etag'), 'the thumbnail URL serves the same variant').to.equal(first.headers.get('etag'));
    expect(server.services.media.variantStats().made).to.equal(before.made + 1);
  });

  it('normalizes parameters, so equal results share one cache file', async () => {
    const made = server.services.media.variantStats().made;
    await get('/media/default/photo.png?w=480&format=webp');
    await get('/media/default/photo.png?format=webp&w=480&q=80&fit=cover');
    await get('/media/default/photo.png?w=480&format=webp&cb=123');
    expect(server.services.media.variantStats().made).to.equal(made + 1);
    const original = await get('/media/default/photo.png?format=png&fit=cover');
    expect(original.headers.get('etag'), 'a transformation that changes nothing serves the original').to.match(/^"[0-9a-f]{64}"$/);
    expect(server.services.media.variantStats().made).to.equal(made + 1);
  });

  it('refuses sizes outside the list and malformed parameters with 400 invalid_request, writing nothing', async () => {
    const cached = await variantFiles(server.dataDir);
    const made = server.services.media.variantStats().made;
    const refused: Record<string, string> = {
      'w=500': 'w', 'w=99999': 'w', 'w=0': 'w', 'w=-64': 'w', 'w=abc': 'w', 'w=': 'w', 'w=64.0': 'w', 'w=64&w=128': 'w', 'h=5000': 'h',
      'q=0': 'q', 'q=101': 'q', 'q=high': 'q', 'fit=fill': 'fit', 'fit=': 'fit', 'format=gif': 'format', 'format=tiff': 'format', 'format=jpg': 'format',
    };
    for (const [query, field] of Object.entries(refused)) {
      const response = await server.request('GET', `/media/default/photo.png?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.headers.get('content-type'), query).to.equal('application/json; charset=utf-8');
      expect(response.body.error.code, query).to.equal('invalid_request');
      expect(response.body.error.fields, query).to.have.property(field);
    }
    const listed = await server.request('GET', '/media/default/photo.png?w=500');
    expect(listed.body.error.message).to.include('640');
    expect(await variantFiles(server.dataDir)).to.deep.equal(cached);
    expect(server.services.media.variantStats().made).to.equal(made);
  });

  it('refuses transformations of files that are not images, and serves SVG unchanged', async () => {
    const pdf = await server.request('GET', '/media/default/doc.pdf?w=320');
    expect(pdf.status).to.equal(400);
    expect(pdf.body.error.code).to.equal('invalid_request');
    expect((await get('/media/default/doc.pdf')).status).to.equal(200);
    const svg = await get('/media/default/logo.svg?w=320&format=png');
    expect(svg.status).to.equal(200);
    expect(svg.headers.get('content-type')).to.equal('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).to.include('sandbox');
    expect(Buffer.from(await svg.arrayBuffer())).to.deep.equal(SVG_WITH_SCRIPT);
  });

  it('keeps the rules of private files: 401 without a token, 403 without media.read, 200 with it', async () => {
    const url = '/media/default/hidden.png?w=64&format=webp';
    const anonymous = await server.request('GET', url);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('unauthorized');
    const other = await issueToken(server, session, [{ effect: 'allow', actions: ['media.read'], resources: ['media:photo.png'] }]);
    const forbidden = await server.request('GET', url, { token: other });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body.error.code).to.equal('forbidden');
    const thumbForbidden = await server.request('GET', url.replace('/media/', '/media-thumbs/'), { token: other });
    expect(thumbForbidden.status).to.equal(403);
    const reader = await issueToken(server, session, [{ effect: 'allow', actions: ['media.read'], resources: ['media:hidden.png'] }]);
    const allowed = await get(url, { authorization: `Bearer ${reader}` });
    expect(allowed.status).to.equal(200);
    expect(allowed.headers.get('cache-control')).to.equal('private, no-cache');
    expect(allowed.headers.get('content-type')).to.equal('image/webp');
    expect((await imageOf(allowed)).width).to.equal(64);
    const again = await server.request('GET', url);
    expect(again.status, 'a cached variant is no way around the rule').to.equal(401);
  });

  it('drops the variants of a deleted file', async () => {
    expect((await get('/media/default/gone.png?w=64')).status).to.equal(200);
    expect((await variantFiles(server.dataDir)).some((file) => file.startsWith('default/gone.png/'))).to.equal(true);
    const deleted = await server.request('DELETE', '/api/v1/workspaces/default/media/gone.png', { token });
    expect(deleted.status).to.equal(200);
    expect((await variantFiles(server.dataDir)).some((file) => file.startsWith('default/gone.png/'))).to.equal(false);
    expect((await get('/media/default/gone.png?w=64')).status).to.equal(404);
  });

  it('drops the variants of a renamed file; the new name makes its own', async () => {
    expect((await get('/media/default/moved.png?w=64')).status).to.equal(200);
    const renamed = await adminRequest(server, session, 'PUT', '/media/moved.png/rename', { filename: 'arrived.png' });
    expect(renamed.status).to.equal(200);
    const files = await variantFiles(server.dataDir);
    expect(files.some((file) => file.startsWith('default/moved.png/'))).to.equal(false);
    const arrived = await get('/media/default/arrived.png?w=64');
    expect((await imageOf(arrived)).width).to.equal(64);
    expect((await variantFiles(server.dataDir)).some((file) => file.startsWith('default/arrived.png/'))).to.equal(true);
  });
});

describe('media image transformation cache size', () => {
  let server: TestServer;

  after(() => server?.close());

  it('evicts the least recently used variants past CMS_MEDIA_CACHE_BYTES, also after a restart', async () => {
    ({ server } = await buildAdminServer({ token: FULL_ACCESS }).then(async (built) => {
      const uploaded = await uploadMedia(built.server, [{ filename: 'noise.png', bytes: await noisyPng(600, 400) }], { token: built.token });
      expect(uploaded.status).to.equal(201);
      return built;
    }));
    const urls = { a: '/media/default/noise.png?w=128', b: '/media/default/noise.png?w=160', c: '/media/default/noise.png?w=192' };
    for (const url of Object.values(urls)) expect((await fetch(`${server.baseUrl}${url}`)).status).to.equal(200);
    const files = await variantFiles(server.dataDir);
    expect(files).to.have.length(3);
    const root = path.join(server.dataDir, 'cache', 'variants');
    const [a, b, c] = ['_128x', '_160x', '_192x'].map((size) => path.join(root, files.find((file) => file.includes(size))!));
    const sizes = await Promise.all([a, b, c].map(async (file) => (await stat(file)).size));
    // The order on disk is the order of modification times: a oldest, then b, then c.
    for (const [index, file] of [a, b, c].entries()) await utimes(file, 1_000_000 + index, 1_000_000 + index);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });

    const limit = sizes[0] + sizes[1] + sizes[2] - 1;
    server = await startTestServer({ dataDir, env: { CMS_MEDIA_CACHE_BYTES: String(limit) } });
    const get = (url: string) => fetch(`${server.baseUrl}${url}`);
    expect((await get(urls.b)).status).to.equal(200);
    const afterStart = server.services.media.variantStats();
    expect([afterStart.hits, afterStart.evicted], 'the oldest went to make room; b was a hit').to.deep.equal([1, 1]);
    expect(await exists(a)).to.equal(false);
    expect(await get(urls.a).then((response) => response.status)).to.equal(200);
    const stats = server.services.media.variantStats();
    expect(stats.made).to.equal(1);
    expect(stats.bytes).to.be.at.most(limit);
    expect(await exists(c), 'c was used least recently').to.equal(false);
    expect(await exists(b)).to.equal(true);
    expect(await exists(a)).to.equal(true);
    const onDisk = await variantFiles(server.dataDir);
    expect(onDisk).to.have.length(stats.files);
  });
});

// Two frames, red then green.
async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(['#ff0000', '#00ff00'].map((background) => sharp({ create: { width: 60, height: 40, channels: 3, background } }).png().toBuffer()));
  return sharp(frames, { join: { animated: true } }).gif({ delay: [100, 100] }).toBuffer();
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false);
}

// Random pixels compress badly, so each variant has a size worth counting.
function noisyPng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = (index * 7919 + (index >> 3) * 104729) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}
