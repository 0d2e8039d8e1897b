import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { commitCount, commitInfo, contentRepoOf, fileAt, statusPorcelain } from '../helpers/git.ts';
import type { TestServer } from '../helpers/server.ts';
import { makeJpeg, makePng, MEDIA_ITEM_FIELDS, PDF_BYTES, SVG_WITH_SCRIPT, TEXT_BYTES, uploadMedia } from './media-fixtures.ts';

async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

describe('media uploads', () => {
  let server: TestServer;
  let session: AdminSession;
  let token: string;
  let repo: string;

  before(async () => {
    ({ server, admin: session, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
  });
  after(() => server.close());

  const mediaDir = () => path.join(server.dataDir, 'media', 'default');
  const stagingDir = () => path.join(server.dataDir, 'media', '.staging');

  it('uploads several files in one commit with all fourteen fields and meta.categories', async () => {
    const before = await commitCount(repo);
    const png = await makePng(800, 600);
    const response = await uploadMedia(server, [
      { filename: 'Team Photo.PNG', bytes: png, type: 'image/png' },
      { filename: 'report.pdf', bytes: PDF_BYTES, type: 'application/pdf' },
      { field: 'category', value: 'Brand/Logos' },
    ], { token });
    expect(response.status).to.equal(201);
    const [photo, report] = response.body.data;
    for (const item of response.body.data) expect(Object.keys(item)).to.have.members(MEDIA_ITEM_FIELDS);
    expect(photo).to.deep.include({
      filename: 'team-photo.png', name: 'Team Photo.PNG', size: png.length, mime: 'image/png', category: 'Brand / Logos',
      alt: '', title: '', visibility: 'public', width: 800, height: 600,
      url: `${server.baseUrl}/media/default/team-photo.png`, thumb_url: `${server.baseUrl}/media-thumbs/default/team-photo.png`,
    });
    expect(photo.uploaded_by).to.match(/^token:/);
    expect(Date.parse(photo.uploaded_at)).to.be.a('number').and.not.NaN;
    expect(report).to.deep.include({ filename: 'report.pdf', mime: 'application/pdf', width: null, height: null, thumb_url: report.url });
    expect(response.body.meta.categories).to.deep.equal(['Brand', 'Brand / Logos']);

    expect(await commitCount(repo)).to.equal(before + 1);
    const commit = await commitInfo(repo);
    expect(commit.trailers.Workspace).to.equal('default');
    expect(commit.subject).to.equal('Upload 2 media files');
    expect(await fileAt(repo, 'default/media/team-photo.png.yaml')).to.include('visibility: public').and.include('width: 800');
    expect(await fileAt(repo, 'default/media/_categories.yaml')).to.equal('- Brand\n- Brand / Logos\n');
    expect(await statusPorcelain(repo)).to.equal('');
    expect(await readFile(path.join(mediaDir(), 'team-photo.png'))).to.deep.equal(png);
    const thumb = await sharp(path.join(server.dataDir, 'cache', 'thumbs', 'default', 'team-photo.png')).metadata();
    expect([thumb.format, thumb.width, thumb.height]).to.deep.equal(['png', 400, 300]);
    expect(await filesIn(stagingDir())).to.deep.equal([]);
  });

  it('records the SHA-256 of every byte of a file that arrives in many chunks', async () => {
    // Several MB reach the staging folder in many writes; the hash is taken on the way (docs/media.md "Validators").
    const bytes = Buffer.concat([PDF_BYTES, randomBytes(5 * 1024 * 1024 + 7)]);
    const response = await uploadMedia(server, [{ filename: 'several-mb.pdf', bytes }], { token });
    expect(response.status).to.equal(201);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(await fileAt(repo, 'default/media/several-mb.pdf.yaml')).to.include(`sha256: ${sha256}\n`);
    expect(await readFile(path.join(mediaDir(), 'several-mb.pdf'))).to.deep.equal(bytes);
  });

  it('makes names unique with -2, -3 and keeps the sniffed extension form', async () => {
    const jpeg = await makeJpeg(10, 10);
    const first = await uploadMedia(server, [{ filename: 'dup.jpeg', bytes: jpeg }, { filename: 'DUP.jpeg', bytes: jpeg }], { token });
    const second = await uploadMedia(server, [{ filename: 'Dup.JPEG', bytes: jpeg }], { token });
    expect(first.body.data.map((item: { filename: string }) => item.filename)).to.deep.equal(['dup.jpeg', 'dup-2.jpeg']);
    expect(second.body.data[0].filename).to.equal('dup-3.jpeg');
    const plain = await uploadMedia(server, [{ filename: 'no extension', bytes: jpeg }], { token });
    expect(plain.body.data[0]).to.deep.include({ filename: 'no-extension.jpg', mime: 'image/jpeg' });
  });

  it('stores an SVG (with a script) with its size but no thumbnail', async () => {
    const response = await uploadMedia(server, [{ filename: 'logo.svg', bytes: SVG_WITH_SCRIPT, type: 'image/svg+xml' }], { token });
    expect(response.status).to.equal(201);
    expect(response.body.data[0]).to.deep.include({ filename: 'logo.svg', mime: 'image/svg+xml', width: 20, height: 10 });
    expect(response.body.data[0].thumb_url).to.equal(response.body.data[0].url);
  });

  it('stores a truncated image with null width and height and no thumbnail', async () => {
    const png = await makePng(300, 200);
    const response = await uploadMedia(server, [{ filename: 'broken.png', bytes: png.subarray(0, Math.floor(png.length / 2)) }], { token });
    expect(response.status).to.equal(201);
    expect(response.body.data[0]).to.deep.include({ filename: 'broken.png', mime: 'image/png', width: null, height: null });
    expect(response.body.data[0].thumb_url).to.equal(response.body.data[0].url);
    expect(await filesIn(path.join(server.dataDir, 'cache', 'thumbs', 'default'))).not.to.include('broken.png');
  });

  it('answers 422 file_type_not_allowed for a text file renamed .png, trusting neither name nor header', async () => {
    const before = await commitCount(repo);
    const response = await uploadMedia(server, [{ filename: 'fake.png', bytes: TEXT_BYTES, type: 'image/png' }], { token });
    expect(response.status).to.equal(422);
    expect(response.body.error.code).to.equal('file_type_not_allowed');
    expect(await commitCount(repo)).to.equal(before);
    expect(await filesIn(mediaDir())).not.to.include('fake.png');
    expect(await filesIn(stagingDir())).to.deep.equal([]);
  });

  it('answers 422 file_type_not_allowed for bytes of no allowed type (an executable)', async () => {
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);
    exe.writeUInt32LE(0x80, 0x3c);
    exe.write('PE\0\0', 0x80, 'latin1');
    const response = await uploadMedia(server, [{ filename: 'setup.exe', bytes: exe }], { token });
    expect(response.status).to.equal(422);
    expect(response.body.error.code).to.equal('file_type_not_allowed');
  });

  it('stores none of the files when one of them fails', async () => {
    const before = await commitCount(repo);
    const listed = await filesIn(mediaDir());
    const response = await uploadMedia(server, [
      { filename: 'good-one.png', bytes: await makePng(5, 5) },
      { filename: 'bad.png', bytes: TEXT_BYTES },
    ], { token });
    expect(response.status).to.equal(422);
    expect(await commitCount(repo)).to.equal(before);
    expect(await filesIn(mediaDir())).to.deep.equal(listed);
    expect(await filesIn(stagingDir())).to.deep.equal([]);
    const list = await server.request('GET', '/api/v1/workspaces/default/media?q=good-one');
    expect(list.body.data).to.deep.equal([]);
  });

  it('answers 422 validation_failed for an empty media[] and for an empty file', async () => {
    const none = await uploadMedia(server, [{ field: 'category', value: 'x' }], { token });
    expect(none.status).to.equal(422);
    expect(none.body.error.code).to.equal('validation_failed');
    expect(none.body.error.fields).to.have.property('media[]');
    const empty = await uploadMedia(server, [{ filename: 'empty.txt', bytes: new Uint8Array(0) }], { token });
    expect(empty.status).to.equal(422);
    expect(empty.body.error.code).to.equal('validation_failed');
  });

  it('answers 422 for unknown fields and 415 for a body that is not multipart', async () => {
    const unknown = await uploadMedia(server, [{ field: 'file', filename: 'a.pdf', bytes: PDF_BYTES }], { token });
    expect(unknown.status).to.equal(422);
    expect(unknown.body.error.fields).to.have.property('file');
    const json = await server.request('POST', '/api/v1/workspaces/default/media', { body: { media: [] }, token });
    expect(json.status).to.equal(415);
    expect(json.body.error.code).to.equal('unsupported_media_type');
    expect(await filesIn(stagingDir())).to.deep.equal([]);
  });

  it('makes hostile file names safe and never writes outside the media folder', async () => {
    const pdf = PDF_BYTES;
    const names = [
      '../../../state/evil.pdf', '..\\..\\evil2.pdf', 'nul\u0000byte.pdf', '..%2f..%2fescaped.pdf', '\u202efdp.exe.pdf',
      '\uff0e\uff0e\uff0fwide.pdf', `${'x'.repeat(300)}.pdf`, '.hidden.pdf', 'ünïcødé name.pdf',
    ];
    const response = await uploadMedia(server, names.map((filename) => ({ filename, bytes: pdf })), { token });
    expect(response.status).to.equal(201);
    const stored = response.body.data.map((item: { filename: string }) => item.filename);
    for (const filename of stored) expect(filename).to.match(/^[a-z0-9][a-z0-9-]*\.pdf$/);
    expect(stored).to.deep.equal(['evil.pdf', 'evil2.pdf', 'nul-byte.pdf', '2f-2fescaped.pdf', 'fdp-exe.pdf', 'wide.pdf', `${'x'.repeat(100)}.pdf`, 'hidden.pdf', 'uenicode-name.pdf']);
    expect(await filesIn(path.join(server.dataDir, 'state'))).not.to.include('evil.pdf');
    expect(await filesIn(path.join(server.dataDir, 'media'))).to.deep.equal(['.staging', 'default']);
  });

  it('checks permissions: 401 anonymous, 403 without media.upload, category grants for their category only', async () => {
    const pdf = [{ filename: 'perm.pdf', bytes: PDF_BYTES }];
    const anonymous = await uploadMedia(server, pdf);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('unauthorized');
    // Refused before the body is read: nothing of a large anonymous upload is staged.
    const large = await uploadMedia(server, [{ filename: 'large.pdf', bytes: Buffer.concat([PDF_BYTES, Buffer.alloc(3 * 1024 * 1024)]) }]);
    expect(large.status).to.equal(401);
    expect(await filesIn(stagingDir())).to.deep.equal([]);
    const reader = await issueToken(server, session, [{ effect: 'allow', actions: ['media.read'], resources: ['media:*'] }]);
    const forbidden = await uploadMedia(server, pdf, { token: reader });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body.error.code).to.equal('forbidden');
    const brand = await issueToken(server, session, [{ effect: 'allow', actions: ['media.upload'], resources: ['media:category:Brand'] }]);
    expect((await uploadMedia(server, pdf, { token: brand })).status).to.equal(403);
    expect((await uploadMedia(server, [...pdf, { field: 'category', value: 'Other' }], { token: brand })).status).to.equal(403);
    const allowed = await uploadMedia(server, [...pdf, { field: 'category', value: 'Brand' }], { token: brand });
    expect(allowed.status).to.equal(201);
    expect(allowed.body.data[0].category).to.equal('Brand');
    expect(await filesIn(stagingDir())).to.deep.equal([]);
  });

  it('uploads through the admin API with a session, into the selected workspace', async () => {
    const created = await adminRequest(server, session, 'POST', '/workspaces', { slug: 'shop', label: 'Shop' });
    expect(created.status).to.equal(201);
    const response = await uploadMedia(server, [{ filename: 'shop.pdf', bytes: PDF_BYTES }], { session, workspace: 'shop' });
    expect(response.status).to.equal(201);
    expect(response.body.data[0]).to.deep.include({ filename: 'shop.pdf', url: `${server.baseUrl}/media/shop/shop.pdf` });
    expect(response.body.data[0].uploaded_by).to.be.a('string').and.not.match(/^token:/);
    expect(await filesIn(path.join(server.dataDir, 'media', 'shop'))).to.deep.equal(['shop.pdf']);
    const noCsrf = await server.request('POST', '/admin/api/media', { headers: { cookie: session.cookie }, rawBody: new Uint8Array(0) });
    expect(noCsrf.status).to.equal(403);
    expect(noCsrf.body.error.code).to.equal('csrf_failed');
  });

  it('answers 404 for an unknown workspace', async () => {
    const response = await uploadMedia(server, [{ filename: 'a.pdf', bytes: PDF_BYTES }], { token, workspace: 'nope' });
    expect(response.status).to.equal(404);
    expect(response.body.error.code).to.equal('not_found');
  });
});

describe('media upload limits and allow-list', () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    ({ server, token } = await buildAdminServer({ env: { CMS_MAX_UPLOAD_BYTES: '2048', CMS_MAX_UPLOAD_FILES: '2', CMS_MEDIA_TYPES: 'image,text' }, token: FULL_ACCESS }));
  });
  after(() => server.close());

  it('answers 413 payload_too_large for a file over the limit and stores nothing', async () => {
    const response = await uploadMedia(server, [{ filename: 'big.txt', bytes: Buffer.alloc(1024 * 1024, 'a') }], { token });
    expect(response.status).to.equal(413);
    expect(response.body.error.code).to.equal('payload_too_large');
    expect(await filesIn(path.join(server.dataDir, 'media', '.staging'))).to.deep.equal([]);
    expect(await filesIn(path.join(server.dataDir, 'media', 'default'))).to.deep.equal([]);
  });

  it('answers 413 payload_too_large for too many files', async () => {
    const small = { filename: 'a.txt', bytes: Buffer.from('a') };
    const response = await uploadMedia(server, [small, small, small], { token });
    expect(response.status).to.equal(413);
    expect(response.body.error.code).to.equal('payload_too_large');
    expect(await filesIn(path.join(server.dataDir, 'media', '.staging'))).to.deep.equal([]);
  });

  it('refuses types left out of CMS_MEDIA_TYPES', async () => {
    const response = await uploadMedia(server, [{ filename: 'a.pdf', bytes: PDF_BYTES }], { token });
    expect(response.status).to.equal(422);
    expect(response.body.error.code).to.equal('file_type_not_allowed');
    const text = await uploadMedia(server, [{ filename: 'notes.md', bytes: Buffer.from('# Notes\n') }], { token });
    expect(text.status).to.equal(201);
    expect(text.body.data[0]).to.deep.include({ filename: 'notes.md', mime: 'text/markdown' });
  });
});
