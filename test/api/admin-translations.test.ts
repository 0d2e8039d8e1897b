import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { createEntry, createType, sessionWithGrants } from '../helpers/editorial.ts';
import { changedFiles, commitCount, commitInfo, contentRepoOf, statusPorcelain } from '../helpers/git.ts';
import type { TestServer } from '../helpers/server.ts';

describe('admin translation delete', () => {
  let server: TestServer;
  let admin: AdminSession;
  let repo: string;

  before(async () => {
    ({ server, admin } = await buildAdminServer());
    repo = contentRepoOf(server.dataDir);
    await createType(server, admin, { name: 'posts', fields: { body: { type: 'markdown' } }, locales: ['en', 'de', 'fr'], default_locale: 'en' });
  });
  after(() => server.close());

  async function localizedEntry(slug: string) {
    const entry = await createEntry(server, admin, 'posts', { title: 'Hello', slug, body: 'English' });
    expect((await adminRequest(server, admin, 'PUT', `/content/posts/${entry.id}`, { locale: 'de', title: 'Hallo', body: 'Deutsch' })).status).to.equal(200);
    return entry;
  }

  it('deletes one locale variant file in one commit; reads fall back to the default locale', async () => {
    const entry = await localizedEntry('hello');
    const before = await commitCount(repo);
    const response = await adminRequest(server, admin, 'DELETE', `/content/posts/${entry.id}/translations/de`);
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal({ ok: true });
    expect(await commitCount(repo)).to.equal(before + 1);
    expect(await changedFiles(repo)).to.deep.equal([
      { status: 'D', path: 'default/entries/posts/hello.de.md' },
      { status: 'M', path: 'default/entries/posts/hello.md' },
    ]);
    expect((await commitInfo(repo)).subject).to.equal('Delete de translation of posts/hello');
    expect(await statusPorcelain(repo)).to.equal('');
    const german = await adminRequest(server, admin, 'GET', `/content/posts/${entry.id}?locale=de`);
    expect(german.body.data.title).to.equal('Hello');
    expect(german.body.data.data.body).to.equal('English');
  });

  it('answers 422 for the default locale and 404 for a missing variant or entry, changing nothing', async () => {
    const entry = await localizedEntry('kept');
    const before = await commitCount(repo);
    const main = await adminRequest(server, admin, 'DELETE', `/content/posts/${entry.id}/translations/en`);
    expect(main.status).to.equal(422);
    expect(main.body.error.code).to.equal('validation_failed');
    expect(main.body.error.fields).to.have.property('locale');
    for (const url of [`/content/posts/${entry.id}/translations/fr`, '/content/posts/nope/translations/de', `/content/nope/${entry.id}/translations/de`]) {
      const response = await adminRequest(server, admin, 'DELETE', url);
      expect(response.status, url).to.equal(404);
      expect(response.body.error.code).to.equal('not_found');
    }
    expect(await commitCount(repo)).to.equal(before);
  });

  it('needs content.delete for that locale', async () => {
    const entry = await localizedEntry('guarded');
    const frenchOnly = await sessionWithGrants(server, admin, 'french', [{ effect: 'allow', actions: ['content.*'], resources: ['*'], conditions: { locales: ['fr'] } }]);
    const response = await adminRequest(server, frenchOnly, 'DELETE', `/content/posts/${entry.id}/translations/de`);
    expect(response.status).to.equal(403);
    expect(response.body.error.code).to.equal('forbidden');
  });
});
