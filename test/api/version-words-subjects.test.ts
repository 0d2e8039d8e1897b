// The admin app turns the commit subjects the server writes into words
// (src/admin-ui/screens/versions/version-words.ts). This drives every write
// that lands on an entry's versions through the admin API and checks that the
// app has words for each subject the server really wrote, so a changed
// subject on the server fails here instead of reading "Changed" in the app.
import { expect } from 'chai';
import { versionWords } from '../../src/admin-ui/screens/versions/version-words.ts';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { createEntry, createType } from '../helpers/editorial.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';
import { makePng, uploadMedia } from './media-fixtures.ts';

interface Listed {
  id: string;
  message: string;
  author_id: string | null;
  author_name: string;
}

describe('the words the admin app gives the server\'s commit subjects', () => {
  let server: TestServer;
  let admin: AdminSession;
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await adminRequest(server, admin, method, url, body);
    expect(response.status, `${method} ${url}: ${response.text}`).to.be.oneOf([200, 201, 204]);
    return response;
  };
  const versionsOf = async (type: string, id: string): Promise<Listed[]> => (await api('GET', `/content/${type}/${id}/revisions`)).body.data;
  const wordsOf = (versions: Listed[]) => versions.map((version) => versionWords(version, (short) => (versions.some((other) => other.id.startsWith(short)) ? 'THEN' : undefined)).what).reverse();

  before(async () => {
    ({ server, admin } = await buildAdminServer({ env: { CMS_SCHEDULER_INTERVAL_MS: '50' } }));
    await createType(server, admin, { name: 'posts', fields: { cover: { type: 'media' } }, locales: ['en', 'de'], default_locale: 'en' });
  });
  after(() => server.close());

  it('has words for every subject on an edited, translated, bulk-edited, trashed and restored entry', async () => {
    expect((await uploadMedia(server, [{ filename: 'photo.png', bytes: await makePng(4, 4) }], { session: admin })).status).to.equal(201);
    const entry = await createEntry(server, admin, 'posts', { title: 'One', slug: 'one', cover: ['photo.png'] });
    const other = await createEntry(server, admin, 'posts', { title: 'Two', slug: 'two' });
    const third = await createEntry(server, admin, 'posts', { title: 'Three', slug: 'three' });
    await api('PATCH', `/content/posts/${entry.id}`, { title: 'One, edited' });
    await api('PATCH', `/content/posts/${entry.id}`, { locale: 'de', title: 'Eins' });
    await api('DELETE', `/content/posts/${entry.id}/translations/de`);
    await api('PATCH', '/content/posts/bulk', { ids: [entry.id, other.id, third.id], changes: { status: 'published' } });
    const [, firstEdit] = (await versionsOf('posts', entry.id)).reverse();
    await api('POST', `/content/posts/${entry.id}/revisions/${firstEdit.id}/restore`);
    await api('PUT', '/media/photo.png/rename', { filename: 'picture.png' });
    await api('DELETE', `/content/posts/${entry.id}`);
    await api('POST', `/trash/posts/${entry.id}/restore`);
    await api('DELETE', '/content/posts/bulk', { ids: [entry.id, other.id] });
    await api('POST', `/trash/posts/${entry.id}/restore`);

    expect(wordsOf(await versionsOf('posts', entry.id))).to.deep.equal([
      'Created',
      'Updated',
      'Updated',
      'Deleted the de translation',
      'Published with 2 other entries',
      'Restored the version of THEN',
      'File photo.png renamed to picture.png',
      'Moved to the trash',
      'Restored from the trash',
      'Moved to the trash with 1 other entry',
      'Restored from the trash',
    ]);
  });

  it('says when an editor\'s save published, unpublished or scheduled the entry', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const entry = await createEntry(server, admin, 'posts', { title: 'News', slug: 'news' });
    await api('PATCH', `/content/posts/${entry.id}`, { status: 'published' });
    await api('PATCH', `/content/posts/${entry.id}`, { title: 'News, edited' });
    await api('PATCH', `/content/posts/${entry.id}`, { status: 'draft' });
    await api('PATCH', `/content/posts/${entry.id}`, { status: 'scheduled', published_at: tomorrow });
    await api('PUT', `/content/posts/${entry.id}`, { status: 'published' });
    const versions = await versionsOf('posts', entry.id);
    expect(versions.map((version) => versionWords(version, () => undefined)).reverse()).to.deep.equal([
      { what: 'Created', who: 'admin' },
      { what: 'Published', who: 'admin' },
      { what: 'Updated', who: 'admin' },
      { what: 'Unpublished', who: 'admin' },
      { what: 'Scheduled', who: 'admin' },
      { what: 'Published', who: 'admin' },
    ]);

    const others = [await createEntry(server, admin, 'posts', { title: 'Also news', slug: 'also-news', status: 'published' }), await createEntry(server, admin, 'posts', { title: 'More news', slug: 'more-news', status: 'published' })];
    const all = [entry.id, ...others.map((other) => other.id)];
    await api('PATCH', '/content/posts/bulk', { ids: all, changes: { status: 'draft' } });
    await api('PATCH', '/content/posts/bulk', { ids: all, changes: { status: 'scheduled', published_at: tomorrow } });
    await api('PATCH', '/content/posts/bulk', { ids: all, changes: { status: 'published' } });
    expect(wordsOf(await versionsOf('posts', entry.id)).slice(-3)).to.deep.equal(['Unpublished with 2 other entries', 'Scheduled with 2 other entries', 'Published with 2 other entries']);

    const atOnce = await createEntry(server, admin, 'posts', { title: 'Live', slug: 'live', status: 'published' });
    expect(wordsOf(await versionsOf('posts', atOnce.id))).to.deep.equal(['Created and published']);
  });

  it('has words for a scheduled publication', async () => {
    // Far enough ahead that the date has not passed when the server writes the create (that would publish at once).
    const entry = await createEntry(server, admin, 'posts', { title: 'Later', slug: 'later', status: 'scheduled', published_at: new Date(Date.now() + 3000).toISOString() });
    const versions = await pollUntil(() => versionsOf('posts', entry.id), (list) => list.length === 2);
    expect(versions.map((version) => versionWords(version, () => undefined)).reverse()).to.deep.equal([
      { what: 'Created and scheduled', who: 'admin' },
      { what: 'Published at its scheduled time', who: 'Automatically' },
    ]);
  });
});
