import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { createEntry, createType, sessionWithGrants } from '../helpers/editorial.ts';
import { commitCount, contentRepoOf, externalCommit, fileAt, headOid, statusPorcelain } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';

interface RevisionView {
  id: string;
  created_at: string;
  author_id: string | null;
  author_name: string;
  message: string;
  current: boolean;
}

describe('admin revisions', () => {
  let server: TestServer;
  let admin: AdminSession;
  let adminId: string;
  let repo: string;

  before(async () => {
    ({ server, admin, adminId } = await buildAdminServer());
    repo = contentRepoOf(server.dataDir);
    await createType(server, admin, { name: 'posts', fields: { body: { type: 'markdown' }, mood: { type: 'select', options: ['calm', 'loud', 'sad'] } }, locales: ['en', 'de'], default_locale: 'en' });
    await createType(server, admin, { name: 'stories', fields: { body: { type: 'markdown' }, mood: { type: 'select', options: ['calm', 'loud', 'sad'] } } });
  });
  after(() => server.close());

  async function revisionsOf(id: string, type = 'posts'): Promise<RevisionView[]> {
    const response = await adminRequest(server, admin, 'GET', `/content/${type}/${id}/revisions`);
    expect(response.status, response.text).to.equal(200);
    expect(response.body.meta.total).to.equal(response.body.data.length);
    return response.body.data as RevisionView[];
  }

  async function update(id: string, body: Record<string, unknown>, type = 'posts'): Promise<void> {
    const response = await adminRequest(server, admin, 'PUT', `/content/${type}/${id}`, body);
    expect(response.status, response.text).to.equal(200);
  }

  it('follows an entry through API edits, a git CLI edit, a rename, trash and restores', async () => {
    const expected: string[] = [];
    const check = async () => {
      const list = await revisionsOf(entry.id, 'stories');
      expect(list.map((revision) => revision.id)).to.deep.equal([...expected].reverse());
      expect(list.map((revision) => revision.current)).to.deep.equal(list.map((_, position) => position === 0));
      return list;
    };

    const entry = await createEntry(server, admin, 'stories', { title: 'Version 1', slug: 'story', body: 'First body', mood: 'calm' });
    expected.push(await headOid(repo));
    const [created] = await check();
    expect(created).to.include({ author_id: adminId, author_name: 'admin', message: 'Create stories/story' });
    expect(Date.parse(created.created_at)).to.be.closeTo(Date.now(), 60_000);

    for (const [title, mood] of [['Version 2', 'loud'], ['Version 3', 'sad'], ['Version 4', 'calm']]) {
      await update(entry.id, { title, mood }, 'stories');
      expected.push(await headOid(repo));
      await check();
    }

    const file = await fileAt(repo, 'default/entries/stories/story.md');
    expected.push(await externalCommit(repo, { write: { 'default/entries/stories/story.md': file.replace('title: Version 4', 'title: Edited in git') } }, 'Fix the title by hand'));
    const seen = await pollUntil(() => adminRequest(server, admin, 'GET', `/content/stories/${entry.id}`), (response) => response.body?.data?.title === 'Edited in git');
    expect(seen.body.data.title).to.equal('Edited in git');
    const [byHand] = await check();
    expect(byHand).to.include({ author_id: null, author_name: 'dev', message: 'Fix the title by hand' });

    await update(entry.id, { slug: 'story-renamed' }, 'stories');
    expected.push(await headOid(repo));
    await check();

    expect((await adminRequest(server, admin, 'DELETE', `/content/stories/${entry.id}`)).status).to.equal(200);
    expected.push(await headOid(repo));
    const gone = await adminRequest(server, admin, 'GET', `/content/stories/${entry.id}/revisions`);
    expect(gone.status).to.equal(404);
    expect(gone.body.error.code).to.equal('not_found');

    expect((await adminRequest(server, admin, 'POST', `/trash/stories/${entry.id}/restore`)).status).to.equal(200);
    expected.push(await headOid(repo));
    const afterTrash = await check();
    expect(afterTrash[0].message).to.equal('Restore stories/story-renamed from trash');
    expect(afterTrash[1].message).to.equal('Delete stories/story-renamed');

    const second = expected[1];
    const restored = await adminRequest(server, admin, 'POST', `/content/stories/${entry.id}/revisions/${second}/restore`);
    expect(restored.status).to.equal(200);
    expect(restored.body.data).to.include({ id: entry.id, slug: 'story-renamed', title: 'Version 2' });
    expect(restored.body.data.data).to.deep.equal({ body: 'First body', mood: 'loud' });
    expect(restored.headers.get('etag')).to.be.a('string');
    expected.push(await headOid(repo));
    const final = await check();
    expect(final[0]).to.include({ author_id: adminId, message: `Restore stories/story-renamed to revision ${second.slice(0, 7)}` });
    expect(final).to.have.length(9);
    expect(await statusPorcelain(repo)).to.equal('');
    const live = await adminRequest(server, admin, 'GET', '/content/stories/story-renamed');
    expect(live.body.data.title).to.equal('Version 2');
  });

  it('shows one revision as the entry was, with field changes against the one before', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Diff me', body: 'Old body', mood: 'calm' });
    const first = await headOid(repo);
    await update(entry.id, { title: 'Diffed', mood: 'sad' });
    const second = await headOid(repo);
    await update(entry.id, { locale: 'de', title: 'Verglichen' });

    const detail = await adminRequest(server, admin, 'GET', `/content/posts/${entry.id}/revisions/${second}`);
    expect(detail.status).to.equal(200);
    expect(detail.body.data).to.include({ id: second, current: false, message: 'Update posts/diff-me', author_id: adminId });
    expect(detail.body.data.entry).to.include({ id: entry.id, title: 'Diffed', status: 'draft' });
    expect(detail.body.data.entry.data).to.deep.equal({ body: 'Old body', mood: 'sad' });
    expect(detail.body.data.changes).to.deep.equal([
      { field: 'title', before: 'Diff me', after: 'Diffed' },
      { field: 'data.mood', before: 'calm', after: 'sad' },
      { field: 'translations.en.title', before: 'Diff me', after: 'Diffed' },
      { field: 'translations.en.data.mood', before: 'calm', after: 'sad' },
    ]);

    const created = await adminRequest(server, admin, 'GET', `/content/posts/${entry.id}/revisions/${first}`);
    expect(created.body.data.changes[0]).to.deep.equal({ field: 'slug', before: null, after: 'diff-me' });
    const german = await adminRequest(server, admin, 'GET', `/content/posts/${entry.id}/revisions/${await headOid(repo)}?locale=de`);
    expect(german.body.data.current).to.equal(true);
    expect(german.body.data.entry.title).to.equal('Verglichen');
    expect(german.body.data.changes).to.deep.equal([{ field: 'translations.de.title', before: null, after: 'Verglichen' }]);
    for (const query of ['locale=../x', 'locale=de&locale=fr']) {
      const refused = await adminRequest(server, admin, 'GET', `/content/posts/${entry.id}/revisions/${first}?${query}`);
      expect(refused.status, query).to.equal(400);
      expect(refused.body.error.code, query).to.equal('invalid_request');
    }
  });

  it('lists a git commit that touched only a translation file', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Localized', slug: 'localized' });
    await update(entry.id, { locale: 'de', title: 'Lokalisiert' });
    const german = await fileAt(repo, 'default/entries/posts/localized.de.md');
    const oid = await externalCommit(repo, { write: { 'default/entries/posts/localized.de.md': german.replace('title: Lokalisiert', 'title: Von Hand') } }, 'German title by hand');
    const list = await pollUntil(() => revisionsOf(entry.id), (revisions) => revisions.length === 3);
    expect(list.map((revision) => revision.id)[0]).to.equal(oid);
    const detail = await adminRequest(server, admin, 'GET', `/content/posts/${entry.id}/revisions/${oid}`);
    expect(detail.body.data.changes).to.deep.equal([{ field: 'translations.de.title', before: 'Lokalisiert', after: 'Von Hand' }]);
  });

  it('does not mix in the history of an earlier entry with the same slug', async () => {
    const old = await createEntry(server, admin, 'posts', { title: 'Reused', slug: 'reused' });
    await update(old.id, { title: 'Reused, edited' });
    await adminRequest(server, admin, 'DELETE', `/content/posts/${old.id}`);
    const fresh = await createEntry(server, admin, 'posts', { title: 'Reused anew', slug: 'reused' });
    const list = await revisionsOf(fresh.id);
    expect(list).to.have.length(1);
    expect(list[0].message).to.equal('Create posts/reused');
  });

  it('pages the list with limit and offset', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Paged' });
    await update(entry.id, { title: 'Paged 2' });
    await update(entry.id, { title: 'Paged 3' });
    const all = await revisionsOf(entry.id);
    const page = await adminRequest(server, admin, 'GET', `/content/posts/${entry.id}/revisions?limit=1&offset=1`);
    expect(page.body.data.map((revision: RevisionView) => revision.id)).to.deep.equal([all[1].id]);
    expect(page.body.meta).to.deep.equal({ total: 3, limit: 1, offset: 1 });
  });

  it('answers 400 for revision ids that are not full hex commit ids, 404 for ones that did not touch the entry', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Picky' });
    const other = await createEntry(server, admin, 'posts', { title: 'Other' });
    const otherCommit = await headOid(repo);
    for (const revision of ['not-hex', 'abc123', 'g'.repeat(40), `${otherCommit}0`]) {
      const response = await adminRequest(server, admin, 'GET', `/content/posts/${entry.id}/revisions/${revision}`);
      expect(response.status, revision).to.equal(400);
      expect(response.body.error.code).to.equal('invalid_request');
    }
    for (const revision of ['0'.repeat(40), otherCommit]) {
      for (const [method, suffix] of [['GET', ''], ['POST', '/restore']] as const) {
        const response = await adminRequest(server, admin, method, `/content/posts/${entry.id}/revisions/${revision}${suffix}`);
        expect(response.status, `${method} ${revision}${suffix}`).to.equal(404);
        expect(response.body.error.code).to.equal('not_found');
      }
    }
    expect((await revisionsOf(other.id)).map((revision) => revision.id)).to.deep.equal([otherCommit]);
    const missing = await adminRequest(server, admin, 'GET', '/content/posts/no-such-entry/revisions');
    expect(missing.status).to.equal(404);
  });

  it('answers 404 for a commit from before the entry and 422 when the revision no longer fits the type, changing nothing', async () => {
    await createType(server, admin, { name: 'moods', fields: { mood: { type: 'select', options: ['calm', 'loud'] } } });
    const typeCommit = await headOid(repo);
    const entry = (await adminRequest(server, admin, 'POST', '/content/moods', { title: 'Moody', mood: 'calm' })).body.data;
    const calm = await headOid(repo);
    const beforeEntry = await adminRequest(server, admin, 'POST', `/content/moods/${entry.id}/revisions/${typeCommit}/restore`);
    expect(beforeEntry.status).to.equal(404);
    expect(beforeEntry.body.error.code).to.equal('not_found');
    expect((await adminRequest(server, admin, 'PUT', `/content/moods/${entry.id}`, { mood: 'loud' })).status).to.equal(200);
    expect((await adminRequest(server, admin, 'PUT', '/content-types/moods', { fields: { mood: { type: 'select', options: ['loud', 'quiet'] } } })).status).to.equal(200);
    const before = await commitCount(repo);
    const response = await adminRequest(server, admin, 'POST', `/content/moods/${entry.id}/revisions/${calm}/restore`);
    expect(response.status).to.equal(422);
    expect(response.body.error.code).to.equal('validation_failed');
    expect(response.body.error.fields).to.have.property('data.mood');
    expect(await commitCount(repo)).to.equal(before);
  });

  it('needs content.read to list and content.update to restore', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Guarded' });
    const first = await headOid(repo);
    await update(entry.id, { title: 'Guarded 2' });
    const nobody = await sessionWithGrants(server, admin, 'nobody', [{ effect: 'allow', actions: ['schema.read'], resources: ['*'] }]);
    const reader = await sessionWithGrants(server, admin, 'reader', [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
    const denied = await adminRequest(server, nobody, 'GET', `/content/posts/${entry.id}/revisions`);
    expect(denied.status).to.equal(403);
    expect(denied.body.error.code).to.equal('forbidden');
    expect((await adminRequest(server, reader, 'GET', `/content/posts/${entry.id}/revisions`)).status).to.equal(200);
    const restore = await adminRequest(server, reader, 'POST', `/content/posts/${entry.id}/revisions/${first}/restore`);
    expect(restore.status).to.equal(403);
    expect(restore.body.error.code).to.equal('forbidden');
  });
});
