import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DomainEvent } from '../../src/domain/model/events.ts';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { changedFiles, commitCount, commitInfo, contentRepoOf, externalCommit, fileAt, statusPorcelain } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import type { TestServer } from '../helpers/server.ts';
import { makePng, PDF_BYTES, uploadMedia } from './media-fixtures.ts';

const API = '/api/v1/workspaces/default';

async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

describe('media library', () => {
  let server: TestServer;
  let session: AdminSession;
  let token: string;
  let repo: string;
  const events: DomainEvent[] = [];

  before(async () => {
    ({ server, admin: session, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    server.services.events.on((event) => {
      events.push(event);
    });
    const png = await makePng(40, 30);
    const uploads = [
      { filename: 'sunset.png', category: 'Photos / Nature' },
      { filename: 'city.png', category: 'Photos' },
      { filename: 'brand.png', category: 'Brand' },
      { filename: 'plain.png', category: '' },
    ];
    for (const { filename, category } of uploads) {
      const parts = [{ filename, bytes: png }, ...(category ? [{ field: 'category', value: category }] : [])];
      expect((await uploadMedia(server, parts, { token })).status).to.equal(201);
    }
    expect((await uploadMedia(server, [{ filename: 'manual.pdf', bytes: PDF_BYTES }], { token })).status).to.equal(201);
  });
  after(() => server.close());

  const names = (response: { body: { data: { filename: string }[] } }) => response.body.data.map((item) => item.filename).sort();

  describe('listing', () => {
    it('lists everything with list meta and the sorted categories', async () => {
      const response = await server.request('GET', `${API}/media`);
      expect(response.status).to.equal(200);
      expect(names(response)).to.deep.equal(['brand.png', 'city.png', 'manual.pdf', 'plain.png', 'sunset.png']);
      expect(response.body.meta).to.deep.equal({ total: 5, limit: 5, offset: 0, categories: ['Brand', 'Photos', 'Photos / Nature'] });
      expect(response.headers.get('etag')).to.be.a('string');
    });

    it('filters by category including subcategories, and searches file name, title and alt', async () => {
      expect(names(await server.request('GET', `${API}/media?category=Photos`))).to.deep.equal(['city.png', 'sunset.png']);
      expect(names(await server.request('GET', `${API}/media?category=${encodeURIComponent('Photos / Nature')}`))).to.deep.equal(['sunset.png']);
      expect(names(await server.request('GET', `${API}/media?category=Photos/Nature`))).to.deep.equal(['sunset.png']);
      expect(names(await server.request('GET', `${API}/media?category=Phot`))).to.deep.equal([]);
      const meta = await server.request('PUT', `${API}/media/plain.png/meta`, { body: { title: 'Évening Sky', alt: 'orange clouds' }, token });
      expect(meta.status).to.equal(200);
      expect(names(await server.request('GET', `${API}/media?q=SUNS`))).to.deep.equal(['sunset.png']);
      expect(names(await server.request('GET', `${API}/media?q=evening`))).to.deep.equal(['plain.png']);
      expect(names(await server.request('GET', `${API}/media?q=orange%20cloud`))).to.deep.equal(['plain.png']);
      expect(names(await server.request('GET', `${API}/media?q=pdf`))).to.deep.equal(['manual.pdf']);
    });

    it('filters by kind of file and by visibility (the library screen\'s filters)', async () => {
      expect(names(await server.request('GET', `${API}/media?kind=pdf`))).to.deep.equal(['manual.pdf']);
      expect(names(await server.request('GET', `${API}/media?kind=image&category=Photos`))).to.deep.equal(['city.png', 'sunset.png']);
      expect(names(await server.request('GET', `${API}/media?kind=video`))).to.deep.equal([]);
      expect((await adminRequest(server, session, 'PUT', '/media/brand.png/visibility', { visibility: 'private' })).status).to.equal(200);
      expect(names(await adminRequest(server, session, 'GET', '/media?visibility=private'))).to.deep.equal(['brand.png']);
      expect(names(await adminRequest(server, session, 'GET', '/media?visibility=public&kind=image'))).to.deep.equal(['city.png', 'plain.png', 'sunset.png']);
      expect((await adminRequest(server, session, 'PUT', '/media/brand.png/visibility', { visibility: 'public' })).status).to.equal(200);
      for (const query of ['kind=movie', 'visibility=hidden', 'kind=image&kind=pdf']) {
        const response = await server.request('GET', `${API}/media?${query}`);
        expect(response.status, query).to.equal(400);
        expect(response.body.error.code, query).to.equal('invalid_request');
      }
    });

    it('pages with limit and offset, newest first', async () => {
      const page = await server.request('GET', `${API}/media?limit=2&offset=1`);
      expect(page.body.data).to.have.length(2);
      expect(page.body.meta).to.deep.include({ total: 5, limit: 2, offset: 1 });
      expect(page.body.data[0].filename).to.equal('plain.png');
      const all = await server.request('GET', `${API}/media`);
      expect(all.body.data[0].filename).to.equal('manual.pdf');
    });

    it('answers 400 invalid_request for bad list parameters', async () => {
      for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'limit=1&limit=2', `q=${'x'.repeat(501)}`, 'category=a//b']) {
        const response = await server.request('GET', `${API}/media?${query}`);
        expect(response.status, query).to.equal(400);
        expect(response.body.error.code, query).to.equal('invalid_request');
      }
    });

    it('shows private files only to holders of media.read on media:*', async () => {
      const changed = await server.request('PUT', `${API}/media/city.png/visibility`, { body: { visibility: 'private' }, token });
      expect(changed.status).to.equal(200);
      expect(changed.body.data.visibility).to.equal('private');
      expect(names(await server.request('GET', `${API}/media`))).not.to.include('city.png');
      const reader = await issueToken(server, session, [{ effect: 'allow', actions: ['media.read'], resources: ['media:*'] }]);
      expect(names(await server.request('GET', `${API}/media`, { token: reader }))).to.include('city.png');
      const other = await issueToken(server, session, [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
      expect(names(await server.request('GET', `${API}/media`, { token: other }))).not.to.include('city.png');
      const admin = await adminRequest(server, session, 'GET', '/media');
      expect(names(admin)).to.include('city.png');
      const back = await server.request('PATCH', `${API}/media/city.png/visibility`, { body: { visibility: 'public' }, token });
      expect(back.body.data.visibility).to.equal('public');
    });

    it('answers workspace_required without a workspace and 404 for an unknown one', async () => {
      const unscoped = await server.request('GET', '/api/v1/media');
      expect(unscoped.status).to.equal(400);
      expect(unscoped.body.error.code).to.equal('workspace_required');
      const unknown = await server.request('GET', '/api/v1/workspaces/nope/media');
      expect(unknown.status).to.equal(404);
    });
  });

  describe('metadata', () => {
    it('sets and clears alt and title in one commit each, with media.updated', async () => {
      const before = await commitCount(repo);
      const set = await server.request('PATCH', `${API}/media/brand.png/meta`, { body: { alt: 'Our logo', title: 'Logo' }, token });
      expect(set.status).to.equal(200);
      expect(set.body.data).to.deep.include({ filename: 'brand.png', alt: 'Our logo', title: 'Logo' });
      expect(await commitCount(repo)).to.equal(before + 1);
      expect(await fileAt(repo, 'default/media/brand.png.yaml')).to.include('alt: Our logo');
      const cleared = await server.request('PUT', `${API}/media/brand.png/meta`, { body: { alt: '' }, token });
      expect(cleared.body.data).to.deep.include({ alt: '', title: 'Logo' });
      const same = await server.request('PUT', `${API}/media/brand.png/meta`, { body: { alt: '' }, token });
      expect(same.status).to.equal(200);
      expect(await commitCount(repo)).to.equal(before + 2);
      await pollUntil(async () => events.length, () => events.some((event) => event.type === 'media.updated' && event.data.filename === 'brand.png'));
      expect(events.some((event) => event.type === 'media.updated' && event.data.filename === 'brand.png')).to.equal(true);
      expect(await statusPorcelain(repo)).to.equal('');
    });

    it('validates bodies and answers 404 for unknown files', async () => {
      const unknownKey = await server.request('PUT', `${API}/media/brand.png/meta`, { body: { caption: 'x' }, token });
      expect(unknownKey.status).to.equal(422);
      expect(unknownKey.body.error.fields).to.have.property('caption');
      const badVisibility = await server.request('PUT', `${API}/media/brand.png/visibility`, { body: { visibility: 'secret' }, token });
      expect(badVisibility.status).to.equal(422);
      const missing = await server.request('PUT', `${API}/media/nope.png/meta`, { body: { alt: 'x' }, token });
      expect(missing.status).to.equal(404);
      expect(missing.body.error.code).to.equal('not_found');
      const traversal = await rawRequest(server.baseUrl, 'PUT', `${API}/media/..%2f..%2fworkspace.yaml/meta`, { body: { alt: 'x' }, token });
      expect(traversal.status).to.equal(404);
    });

    it('needs media.update on media:* for meta and visibility', async () => {
      const anonymous = await server.request('PUT', `${API}/media/brand.png/meta`, { body: { alt: 'x' } });
      expect(anonymous.status).to.equal(401);
      const fileOnly = await issueToken(server, session, [{ effect: 'allow', actions: ['media.update'], resources: ['media:brand.png'] }]);
      const forbidden = await server.request('PUT', `${API}/media/brand.png/visibility`, { body: { visibility: 'private' }, token: fileOnly });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body.error.code).to.equal('forbidden');
    });

    it('assigns and clears a category, creating a new path (media.update on media:{filename})', async () => {
      const fileOnly = await issueToken(server, session, [{ effect: 'allow', actions: ['media.update'], resources: ['media:plain.png'] }]);
      const assigned = await server.request('PUT', `${API}/media/plain.png/category`, { body: { category: 'Sky/Evening' }, token: fileOnly });
      expect(assigned.status).to.equal(200);
      expect(assigned.body.data.category).to.equal('Sky / Evening');
      expect(assigned.body.meta.categories).to.include.members(['Sky', 'Sky / Evening']);
      const other = await server.request('PUT', `${API}/media/brand.png/category`, { body: { category: '' }, token: fileOnly });
      expect(other.status).to.equal(403);
      const cleared = await server.request('PATCH', `${API}/media/plain.png/category`, { body: { category: '' }, token });
      expect(cleared.body.data.category).to.equal('');
      const missing = await server.request('PUT', `${API}/media/nope.png/category`, { body: { category: 'x' }, token });
      expect(missing.status).to.equal(404);
    });

    it('changes visibility in bulk, or nothing when a file is unknown', async () => {
      const before = await commitCount(repo);
      const bad = await server.request('PUT', `${API}/media/bulk-visibility`, { body: { files: ['brand.png', 'ghost.png'], visibility: 'private' }, token });
      expect(bad.status).to.equal(422);
      expect(bad.body.error.code).to.equal('validation_failed');
      expect(bad.body.error.fields).to.have.property('files.1');
      expect(await commitCount(repo)).to.equal(before);
      expect(names(await server.request('GET', `${API}/media`))).to.include('brand.png');
      const empty = await server.request('PUT', `${API}/media/bulk-visibility`, { body: { files: [], visibility: 'private' }, token });
      expect(empty.status).to.equal(422);
      const ok = await server.request('PUT', `${API}/media/bulk-visibility`, { body: { files: ['brand.png', 'sunset.png'], visibility: 'private' }, token });
      expect(ok.status).to.equal(200);
      expect(ok.body.data.map((item: { visibility: string }) => item.visibility)).to.deep.equal(['private', 'private']);
      expect(await commitCount(repo)).to.equal(before + 1);
      const back = await server.request('PUT', `${API}/media/bulk-visibility`, { body: { files: ['brand.png', 'sunset.png'], visibility: 'public' }, token });
      expect(back.status).to.equal(200);
    });
  });

  describe('categories', () => {
    it('creates categories (name may be a path, parent must exist), idempotently', async () => {
      const created = await server.request('POST', `${API}/media/categories`, { body: { name: 'Logos', parent: 'Brand' }, token });
      expect(created.status).to.equal(201);
      expect(created.body.data).to.deep.equal({ name: 'Brand / Logos' });
      expect(created.body.meta.categories).to.include('Brand / Logos');
      const nested = await server.request('POST', `${API}/media/categories`, { body: { name: 'Docs/Manuals' }, token });
      expect(nested.body.data.name).to.equal('Docs / Manuals');
      expect(nested.body.meta.categories).to.include.members(['Docs', 'Docs / Manuals']);
      const again = await server.request('POST', `${API}/media/categories`, { body: { name: 'Docs / Manuals' }, token });
      expect(again.status).to.equal(201);
      const noParent = await server.request('POST', `${API}/media/categories`, { body: { name: 'X', parent: 'Missing' }, token });
      expect(noParent.status).to.equal(422);
      expect(noParent.body.error.fields).to.have.property('parent');
      const blank = await server.request('POST', `${API}/media/categories`, { body: { name: ' ' }, token });
      expect(blank.status).to.equal(422);
      const stored = await fileAt(repo, 'default/media/_categories.yaml');
      expect(stored).to.include('- Docs / Manuals');
    });

    it('renames a category with its subcategories and files, in one commit', async () => {
      const before = await commitCount(repo);
      const renamed = await server.request('PUT', `${API}/media/categories/Photos`, { body: { name: 'Pictures' }, token });
      expect(renamed.status).to.equal(200);
      expect(renamed.body.data).to.deep.equal({ name: 'Pictures' });
      expect(renamed.body.meta.categories).to.include.members(['Pictures', 'Pictures / Nature']);
      expect(renamed.body.meta.categories).not.to.include('Photos');
      expect(await commitCount(repo)).to.equal(before + 1);
      expect((await changedFiles(repo)).map((file) => file.path)).to.deep.equal(['default/media/_categories.yaml', 'default/media/city.png.yaml', 'default/media/sunset.png.yaml']);
      expect(names(await server.request('GET', `${API}/media?category=Pictures`))).to.deep.equal(['city.png', 'sunset.png']);
      const child = await server.request('PATCH', `${API}/media/categories/${encodeURIComponent('Pictures / Nature')}`, { body: { name: 'Wild' }, token });
      expect(child.body.data.name).to.equal('Pictures / Wild');
      const list = await server.request('GET', `${API}/media?category=${encodeURIComponent('Pictures / Wild')}`);
      expect(list.body.data[0]).to.deep.include({ filename: 'sunset.png', category: 'Pictures / Wild' });
    });

    it('refuses renames onto an existing path, into itself and of unknown categories (422)', async () => {
      const taken = await server.request('PUT', `${API}/media/categories/Pictures`, { body: { name: 'Brand' }, token });
      expect(taken.status).to.equal(422);
      const inside = await server.request('PUT', `${API}/media/categories/Pictures`, { body: { name: 'Pictures/Inner' }, token });
      expect(inside.status).to.equal(422);
      const unknown = await server.request('PUT', `${API}/media/categories/Nope`, { body: { name: 'Other' }, token });
      expect(unknown.status).to.equal(422);
      expect(unknown.body.error.code).to.equal('validation_failed');
    });

    it('needs media.update on media:category:{category} to rename or delete, and media:* to create', async () => {
      const brand = await issueToken(server, session, [{ effect: 'allow', actions: ['media.update'], resources: ['media:category:Docs'] }]);
      expect((await server.request('PUT', `${API}/media/categories/Pictures`, { body: { name: 'P' }, token: brand })).status).to.equal(403);
      expect((await server.request('DELETE', `${API}/media/categories/Pictures`, { token: brand })).status).to.equal(403);
      expect((await server.request('POST', `${API}/media/categories`, { body: { name: 'New' }, token: brand })).status).to.equal(403);
      expect((await server.request('POST', `${API}/media/categories`, { body: { name: 'New' } })).status).to.equal(401);
      const renamed = await server.request('PUT', `${API}/media/categories/Docs`, { body: { name: 'Documents' }, token: brand });
      expect(renamed.status).to.equal(200);
      expect(renamed.body.meta.categories).to.include.members(['Documents', 'Documents / Manuals']);
    });

    it('deletes a category and its subcategories, keeping their files without a category', async () => {
      const before = await commitCount(repo);
      const deleted = await server.request('DELETE', `${API}/media/categories/Pictures`, { token });
      expect(deleted.status).to.equal(200);
      expect(deleted.body.data).to.deep.equal({ ok: true });
      expect(deleted.body.meta.categories.filter((name: string) => name.startsWith('Pictures'))).to.deep.equal([]);
      expect(await commitCount(repo)).to.equal(before + 1);
      const list = await server.request('GET', `${API}/media?q=sunset`);
      expect(list.body.data[0].category).to.equal('');
      const again = await server.request('DELETE', `${API}/media/categories/Pictures`, { token });
      expect(again.status).to.equal(422);
    });
  });

  describe('deleting', () => {
    it('deletes a file, its thumbnail and its metadata (media.delete on media:{filename})', async () => {
      expect((await uploadMedia(server, [{ filename: 'gone.png', bytes: await makePng(10, 10) }], { token })).status).to.equal(201);
      const other = await issueToken(server, session, [{ effect: 'allow', actions: ['media.delete'], resources: ['media:other.png'] }]);
      expect((await server.request('DELETE', `${API}/media/gone.png`, { token: other })).status).to.equal(403);
      expect((await server.request('DELETE', `${API}/media/gone.png`)).status).to.equal(401);
      const allowed = await issueToken(server, session, [{ effect: 'allow', actions: ['media.delete'], resources: ['media:gone.png'] }]);
      const before = await commitCount(repo);
      const deleted = await server.request('DELETE', `${API}/media/gone.png`, { token: allowed });
      expect(deleted.status).to.equal(200);
      expect(deleted.body.data).to.deep.equal({ ok: true });
      expect(await commitCount(repo)).to.equal(before + 1);
      expect(await filesIn(path.join(server.dataDir, 'media', 'default'))).not.to.include('gone.png');
      expect(await filesIn(path.join(server.dataDir, 'cache', 'thumbs', 'default'))).not.to.include('gone.png');
      expect((await fetch(`${server.baseUrl}/media/default/gone.png`)).status).to.equal(404);
      await pollUntil(async () => events.length, () => events.some((event) => event.type === 'media.deleted'));
      expect(events.find((event) => event.type === 'media.deleted')?.data).to.deep.equal({ filename: 'gone.png' });
      const again = await server.request('DELETE', `${API}/media/gone.png`, { token });
      expect(again.status).to.equal(404);
    });
  });

  describe('admin routes', () => {
    it('assigns a category in bulk, or nothing when a file is unknown', async () => {
      const before = await commitCount(repo);
      const bad = await adminRequest(server, session, 'PUT', '/media/bulk-category', { files: ['city.png', 'ghost.png'], category: 'Bulk' });
      expect(bad.status).to.equal(422);
      expect(await commitCount(repo)).to.equal(before);
      const ok = await adminRequest(server, session, 'PUT', '/media/bulk-category', { files: ['city.png', 'sunset.png'], category: 'Bulk / Set' });
      expect(ok.status).to.equal(200);
      expect(ok.body.data.map((item: { category: string }) => item.category)).to.deep.equal(['Bulk / Set', 'Bulk / Set']);
      expect(ok.body.meta.categories).to.include.members(['Bulk', 'Bulk / Set']);
      expect(await commitCount(repo)).to.equal(before + 1);
    });

    it('deletes in bulk, or nothing when a file is unknown', async () => {
      const png = await makePng(8, 8);
      expect((await uploadMedia(server, [{ filename: 'b1.png', bytes: png }, { filename: 'b2.png', bytes: png }], { session })).status).to.equal(201);
      const before = await commitCount(repo);
      const bad = await adminRequest(server, session, 'POST', '/media/bulk-delete', { files: ['b1.png', 'nope.png'] });
      expect(bad.status).to.equal(422);
      expect(bad.body.error.code).to.equal('validation_failed');
      expect(await commitCount(repo)).to.equal(before);
      expect(await filesIn(path.join(server.dataDir, 'media', 'default'))).to.include.members(['b1.png', 'b2.png']);
      const ok = await adminRequest(server, session, 'POST', '/media/bulk-delete', { files: ['b1.png', 'b2.png'] });
      expect(ok.status).to.equal(200);
      expect(await commitCount(repo)).to.equal(before + 1);
      expect(await filesIn(path.join(server.dataDir, 'media', 'default'))).not.to.include.members(['b1.png']);
      expect(await filesIn(path.join(server.dataDir, 'media', 'default'))).not.to.include.members(['b2.png']);
    });

    it('has no rename, bulk-category or bulk-delete on the public API', async () => {
      expect((await server.request('PUT', `${API}/media/city.png/rename`, { body: { filename: 'x.png' }, token })).status).to.equal(404);
      expect((await server.request('POST', `${API}/media/bulk-delete`, { body: { files: ['city.png'] }, token })).status).to.be.oneOf([404, 405]);
    });
  });

  describe('renaming', () => {
    before(async () => {
      const type = await server.request('POST', `${API}/content-types`, {
        body: { name: 'posts', locales: ['en', 'de'], fields: { cover: { type: 'media' }, gallery: { type: 'media', multiple: true }, body: { type: 'markdown' } } },
        token,
      });
      expect(type.status).to.equal(201);
      const post = await server.request('POST', `${API}/content/posts`, {
        body: { title: 'Hello', slug: 'hello', status: 'published', cover: ['city.png'], gallery: ['sunset.png', 'city.png'], body: 'Text' },
        token,
      });
      expect(post.status).to.equal(201);
      const translation = await server.request('PUT', `${API}/content/posts/hello`, { body: { locale: 'de', title: 'Hallo', cover: ['city.png'] }, token });
      expect(translation.status).to.equal(200);
      const other = await server.request('POST', `${API}/content/posts`, { body: { title: 'Other', slug: 'other', cover: ['sunset.png'] }, token });
      expect(other.status).to.equal(201);
    });

    it('tells which entries use a file (what a rename rewrites), only to readers of the file', async () => {
      const used = await adminRequest(server, session, 'GET', '/media/city.png/used-by');
      expect(used.status, used.text).to.equal(200);
      expect(used.body.data).to.deep.equal([{ type: 'posts', id: used.body.data[0].id, slug: 'hello', title: 'Hello' }]);
      expect((await adminRequest(server, session, 'GET', '/media/sunset.png/used-by')).body.data.map((entry: { slug: string }) => entry.slug).sort()).to.deep.equal(['hello', 'other']);
      expect((await adminRequest(server, session, 'GET', '/media/plain.png/used-by')).body.data).to.deep.equal([]);
      expect((await adminRequest(server, session, 'GET', '/media/missing.png/used-by')).status).to.equal(404);
    });

    it('renames the file, thumbnail and metadata and rewrites every reference, in one commit', async () => {
      const before = await commitCount(repo);
      const response = await adminRequest(server, session, 'PUT', '/media/city.png/rename', { filename: 'skyline.png' });
      expect(response.status).to.equal(200);
      expect(response.body.data).to.deep.include({ filename: 'skyline.png', url: `${server.baseUrl}/media/default/skyline.png`, thumb_url: `${server.baseUrl}/media-thumbs/default/skyline.png` });
      expect(await commitCount(repo)).to.equal(before + 1);
      const commit = await commitInfo(repo);
      expect(commit.subject).to.equal('Rename media city.png to skyline.png');
      expect((await changedFiles(repo)).map((file) => `${file.status} ${file.path}`)).to.deep.equal([
        'D default/media/city.png.yaml',
        'A default/media/skyline.png.yaml',
        'D default/public/media/city.png',
        'A default/public/media/skyline.png',
        'M default/entries/posts/hello.de.md',
        'M default/entries/posts/hello.md',
      ].sort((a, b) => a.slice(2).localeCompare(b.slice(2))));
      const root = await fileAt(repo, 'default/entries/posts/hello.md');
      expect(root).to.include('cover: skyline.png').and.include('gallery:\n  - sunset.png\n  - skyline.png');
      expect(root).not.to.include('city.png');
      expect(await fileAt(repo, 'default/entries/posts/hello.de.md')).to.include('cover: skyline.png').and.not.include('city.png');
      expect(await fileAt(repo, 'default/entries/posts/other.md')).to.include('cover: sunset.png');
      expect(await statusPorcelain(repo)).to.equal('');

      expect(await filesIn(path.join(server.dataDir, 'media', 'default'))).to.include('skyline.png').and.not.include('city.png');
      expect(await filesIn(path.join(server.dataDir, 'cache', 'thumbs', 'default'))).to.include('skyline.png').and.not.include('city.png');
      expect((await fetch(`${server.baseUrl}/media/default/skyline.png`)).status).to.equal(200);
      expect((await fetch(`${server.baseUrl}/media/default/city.png`)).status).to.equal(404);
      const entry = await server.request('GET', `${API}/content/posts/hello`);
      expect(entry.body.data.data.cover).to.deep.equal([`${server.baseUrl}/media/default/skyline.png`]);
      const german = await server.request('GET', `${API}/content/posts/hello?locale=de`);
      expect(german.body.data.data.cover).to.deep.equal([`${server.baseUrl}/media/default/skyline.png`]);
    });

    it('refuses invalid, traversing, extension-changing and taken names, and unknown files', async () => {
      for (const filename of ['../escape.png', 'a/b.png', 'Upper.png', 'sky line.png', 'skyline.jpg', 'noext', '.hidden.png', 'a\u0000.png', `${'x'.repeat(300)}.png`]) {
        const response = await adminRequest(server, session, 'PUT', '/media/skyline.png/rename', { filename });
        expect(response.status, JSON.stringify(filename)).to.equal(422);
        expect(response.body.error.code).to.equal('validation_failed');
      }
      const taken = await adminRequest(server, session, 'PUT', '/media/skyline.png/rename', { filename: 'sunset.png' });
      expect(taken.status).to.equal(409);
      expect(taken.body.error.code).to.equal('conflict');
      const missing = await adminRequest(server, session, 'PUT', '/media/nope.png/rename', { filename: 'x.png' });
      expect(missing.status).to.equal(404);
      const noName = await adminRequest(server, session, 'PUT', '/media/skyline.png/rename', {});
      expect(noName.status).to.equal(422);
      expect(await filesIn(path.join(server.dataDir, 'media', 'default'))).to.include('skyline.png');
    });
  });

  describe('commits made outside the server', () => {
    it('picks up metadata files changed with plain git', async () => {
      await externalCommit(repo, {
        write: { 'default/media/sunset.png.yaml': (await fileAt(repo, 'default/media/sunset.png.yaml')).replace(/^title: .*$/m, 'title: Edited in git') },
      }, 'Edit media title by hand');
      const list = await pollUntil(
        () => server.request('GET', `${API}/media?q=sunset`),
        (response) => response.body.data[0]?.title === 'Edited in git',
      );
      expect(list.body.data[0].title).to.equal('Edited in git');
      await externalCommit(repo, { remove: ['default/media/manual.pdf.yaml'] }, 'Remove media by hand');
      const gone = await pollUntil(() => server.request('GET', `${API}/media?q=manual`), (response) => response.body.data.length === 0);
      expect(gone.body.data).to.deep.equal([]);
    });

    it('shows a record written without size with the stored original\'s size on every read, writes it when the server rewrites the record, and leaves it out while the original is missing', async () => {
      const bytes = (await makePng(40, 30)).length;
      const record = 'default/media/sunset.png.yaml';
      const dashboardBytes = async () => (await adminRequest(server, session, 'GET', '/dashboard')).body.data.media.bytes;
      const before = await dashboardBytes();
      await externalCommit(repo, {
        write: { [record]: (await fileAt(repo, record)).replace(/^size: .*\n/m, ''), 'default/media/by-hand.pdf.yaml': 'name: by-hand.pdf\nmime: application/pdf\n' },
      }, 'Media records written by hand, without size');
      await pollUntil(() => server.request('GET', `${API}/media?q=by-hand`), (response) => response.body.data.length === 1);
      const sizeIn = (response: { body: { data: { filename: string; size: number }[] } }, filename: string) => response.body.data.find((item) => item.filename === filename)?.size;
      const sizeOf = async (filename: string) => sizeIn(await server.request('GET', `${API}/media?q=${filename}`), filename);
      expect(await sizeOf('sunset.png'), 'public list').to.equal(bytes);
      expect(sizeIn(await adminRequest(server, session, 'GET', '/media?q=sunset'), 'sunset.png'), 'admin list').to.equal(bytes);
      expect(await dashboardBytes(), 'the dashboard counts it').to.equal(before);
      expect(await fileAt(repo, record), 'a read writes nothing').not.to.match(/^size:/m);
      expect(await sizeOf('by-hand.pdf'), 'no original, no size').to.equal(0);

      const rewritten = await server.request('PATCH', `${API}/media/sunset.png/meta`, { body: { alt: 'Dusk' }, token });
      expect(rewritten.status).to.equal(200);
      expect(rewritten.body.data.size, 'the item answered').to.equal(bytes);
      expect(await fileAt(repo, record)).to.match(new RegExp(`^size: ${bytes}$`, 'm'));
      expect(await sizeOf('sunset.png')).to.equal(bytes);

      expect((await server.request('PATCH', `${API}/media/by-hand.pdf/meta`, { body: { alt: 'No file' }, token })).status).to.equal(200);
      const byHand = await fileAt(repo, 'default/media/by-hand.pdf.yaml');
      expect(byHand).to.include('alt: No file').and.not.match(/^size:/m);
    });
  });
});
