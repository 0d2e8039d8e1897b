import { expect } from 'chai';
import { adminRequest, buildAdminServer, type AdminSession } from '../helpers/auth.ts';
import { createEntry, createType, sessionWithGrants, type AdminEntry } from '../helpers/editorial.ts';
import { changedFiles, commitCount, commitInfo, contentRepoOf, statusPorcelain } from '../helpers/git.ts';
import type { TestServer } from '../helpers/server.ts';

describe('admin bulk edits', () => {
  let server: TestServer;
  let admin: AdminSession;
  let repo: string;
  let entries: AdminEntry[];

  before(async () => {
    ({ server, admin } = await buildAdminServer());
    repo = contentRepoOf(server.dataDir);
    await createType(server, admin, { name: 'posts', fields: { rating: { type: 'number' }, code: { type: 'text', unique: true } } });
    entries = [];
    for (const [title, published_at] of [['Alpha', '2030-01-01T00:00:00.000Z'], ['Beta', null], ['Gamma', '2031-01-01T00:00:00.000Z'], ['Delta', null]] as const) {
      entries.push(await createEntry(server, admin, 'posts', { title, published_at }));
    }
  });
  after(() => server.close());

  const ids = (...positions: number[]) => positions.map((position) => entries[position].id);

  async function expectUnchanged(action: () => Promise<{ status: number; body: { error: { code: string; fields?: Record<string, string> } } }>, status = 422) {
    const before = await commitCount(repo);
    const listed = (await adminRequest(server, admin, 'GET', '/content/posts?sort=title')).body.data;
    const response = await action();
    expect(response.status).to.equal(status);
    expect(await commitCount(repo)).to.equal(before);
    expect((await adminRequest(server, admin, 'GET', '/content/posts?sort=title')).body.data).to.deep.equal(listed);
    return response.body.error;
  }

  it('updates several entries in one commit', async () => {
    const before = await commitCount(repo);
    const response = await adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: ids(0, 1, 2), changes: { status: 'archived', rating: 3 } });
    expect(response.status).to.equal(200);
    expect(response.body.meta).to.deep.equal({ total: 3 });
    expect(response.body.data.map((entry: AdminEntry) => [entry.id, entry.status, entry.data.rating])).to.deep.equal(ids(0, 1, 2).map((id) => [id, 'archived', 3]));
    expect(await commitCount(repo)).to.equal(before + 1);
    expect((await changedFiles(repo)).map((file) => file.status)).to.deep.equal(['M', 'M', 'M']);
    const commit = await commitInfo(repo);
    expect(commit.subject).to.equal('Update 3 entries in posts');
    expect(commit.trailers.Entries).to.equal(ids(0, 1, 2).join(' '));
    expect(await statusPorcelain(repo)).to.equal('');
    const untouched = await adminRequest(server, admin, 'GET', `/content/posts/${entries[3].id}`);
    expect(untouched.body.data.status).to.equal('draft');
  });

  it('says Publish, Unpublish or Schedule in the subject when every entry went that way, and Update when they differ', async () => {
    await createType(server, admin, { name: 'pages', fields: {} });
    const pages = [await createEntry(server, admin, 'pages', { title: 'P1' }), await createEntry(server, admin, 'pages', { title: 'P2' }), await createEntry(server, admin, 'pages', { title: 'P3' })];
    const [one, two, three] = pages.map((page) => page.id);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const subjectOf = async (ids: string[], changes: Record<string, unknown>) => {
      expect((await adminRequest(server, admin, 'PATCH', '/content/pages/bulk', { ids, changes })).status).to.equal(200);
      return (await commitInfo(repo)).subject;
    };
    expect(await subjectOf([one, two, three], { status: 'published' })).to.equal('Publish 3 entries in pages');
    expect(await subjectOf([one, two], { status: 'draft' })).to.equal('Unpublish 2 entries in pages');
    expect(await subjectOf([one, two], { status: 'scheduled', published_at: tomorrow })).to.equal('Schedule 2 entries in pages');
    // One scheduled entry made public, one that was public already: one commit, one subject.
    expect(await subjectOf([one, three], { status: 'published' })).to.equal('Update 2 entries in pages');
  });

  it('accepts slugs as ids and sets publish dates per entry', async () => {
    const response = await adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: ['alpha', 'beta'], changes: { status: 'published' } });
    expect(response.status).to.equal(200);
    expect(response.body.data[0].published_at).to.equal('2030-01-01T00:00:00.000Z');
    expect(response.body.data[1].published_at).to.be.a('string');
  });

  it('answers 422 naming unknown and repeated ids, and changes nothing', async () => {
    const error = await expectUnchanged(() => adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: [...ids(0, 1), 'nope', entries[0].id], changes: { status: 'draft' } }));
    expect(error.code).to.equal('validation_failed');
    expect(Object.keys(error.fields ?? {})).to.have.members([`ids.${entries[0].id}`, 'ids.nope']).and.to.have.length(2);
  });

  it('answers 422 for no ids and for 10,000 ids, and changes nothing', async () => {
    const many = Array.from({ length: 10_000 }, (_, position) => `id-${position}`);
    for (const list of [[], many]) {
      const error = await expectUnchanged(() => adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: list, changes: { status: 'draft' } }));
      expect(error.code).to.equal('validation_failed');
      expect(Object.keys(error.fields ?? {})).to.deep.equal(['ids']);
    }
    const deleting = await expectUnchanged(() => adminRequest(server, admin, 'DELETE', '/content/posts/bulk', { ids: many }));
    expect(Object.keys(deleting.fields ?? {})).to.deep.equal(['ids']);
  });

  it('answers 422 naming the entries that fail validation, and changes nothing', async () => {
    const dated = await createEntry(server, admin, 'posts', { title: 'Dated', published_at: '2032-01-01T00:00:00.000Z' });
    const undated = [await createEntry(server, admin, 'posts', { title: 'Undated 1' }), await createEntry(server, admin, 'posts', { title: 'Undated 2' })];
    const error = await expectUnchanged(() => adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: [undated[0].id, dated.id, undated[1].id], changes: { status: 'scheduled' } }));
    expect(error.code).to.equal('validation_failed');
    expect(Object.keys(error.fields ?? {}).sort()).to.deep.equal([`ids.${undated[0].id}.published_at`, `ids.${undated[1].id}.published_at`].sort());
  });

  it('answers 422 for bad changes: a slug, an unknown or invalid field, a unique value on several entries, nothing at all', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ slug: 'same' }, 'changes.slug'],
      [{ nope: 1 }, 'changes.nope'],
      [{ rating: 'high' }, 'changes.rating'],
      [{ code: 'X' }, 'changes.code'],
      [{}, 'changes'],
      [{ status: 'gone' }, 'changes.status'],
    ];
    for (const [changes, field] of cases) {
      const error = await expectUnchanged(() => adminRequest(server, admin, 'PATCH', '/content/posts/bulk', { ids: ids(0, 1), changes }));
      expect(error.code, JSON.stringify(changes)).to.equal('validation_failed');
      expect(Object.keys(error.fields ?? {}), JSON.stringify(changes)).to.deep.equal([field]);
    }
  });

  it('answers 422 for malformed bodies', async () => {
    for (const body of [{ ids: 'a' }, { changes: {} }, { ids: ['a/b'], changes: {} }, { ids: [entries[0].id], changes: {}, extra: true }]) {
      const response = await adminRequest(server, admin, 'PATCH', '/content/posts/bulk', body);
      expect(response.status, JSON.stringify(body)).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
    }
  });

  it('answers 403 and changes nothing when one entry is not allowed', async () => {
    const limited = await sessionWithGrants(server, admin, 'limited', [{ effect: 'allow', actions: ['content.update', 'content.read', 'content.delete'], resources: [`content:posts:${entries[0].id}`] }]);
    const updating = await expectUnchanged(() => adminRequest(server, limited, 'PATCH', '/content/posts/bulk', { ids: ids(0, 1), changes: { rating: 1 } }), 403);
    expect(updating.code).to.equal('forbidden');
    const publishing = await expectUnchanged(() => adminRequest(server, limited, 'PATCH', '/content/posts/bulk', { ids: ids(0), changes: { status: 'published' } }), 403);
    expect(publishing.code).to.equal('forbidden');
    const deleting = await expectUnchanged(() => adminRequest(server, limited, 'DELETE', '/content/posts/bulk', { ids: ids(0, 1) }), 403);
    expect(deleting.code).to.equal('forbidden');
    expect((await adminRequest(server, limited, 'PATCH', '/content/posts/bulk', { ids: ids(0), changes: { rating: 1 } })).status).to.equal(200);
  });

  it('answers 404 for an unknown collection', async () => {
    const response = await adminRequest(server, admin, 'PATCH', '/content/nope/bulk', { ids: ['a'], changes: { status: 'draft' } });
    expect(response.status).to.equal(404);
    expect(response.body.error.code).to.equal('not_found');
  });

  it('soft-deletes several entries into the trash in one commit', async () => {
    await createType(server, admin, { name: 'notes', fields: {} });
    const notes = [await createEntry(server, admin, 'notes', { title: 'N1' }), await createEntry(server, admin, 'notes', { title: 'N2' }), await createEntry(server, admin, 'notes', { title: 'N3' })];
    const unknown = await expectUnchanged(() => adminRequest(server, admin, 'DELETE', '/content/notes/bulk', { ids: [notes[0].id, 'nope'] }));
    expect(Object.keys(unknown.fields ?? {})).to.deep.equal(['ids.nope']);

    const before = await commitCount(repo);
    const response = await adminRequest(server, admin, 'DELETE', '/content/notes/bulk', { ids: [notes[0].id, notes[2].id] });
    expect(response.status).to.equal(200);
    expect(response.body.data).to.deep.equal({ ok: true, ids: [notes[0].id, notes[2].id] });
    expect(await commitCount(repo)).to.equal(before + 1);
    expect((await commitInfo(repo)).subject).to.equal('Delete 2 entries from notes');
    const left = await adminRequest(server, admin, 'GET', '/content/notes');
    expect(left.body.data.map((entry: AdminEntry) => entry.id)).to.deep.equal([notes[1].id]);
    const trash = await adminRequest(server, admin, 'GET', '/trash/notes');
    expect(trash.body.data.map((entry: AdminEntry) => entry.id).sort()).to.deep.equal([notes[0].id, notes[2].id].sort());
    expect(await statusPorcelain(repo)).to.equal('');
  });

  it('leaves an entry named "bulk" to the entry routes', async () => {
    const entry = await createEntry(server, admin, 'posts', { title: 'Bulk', slug: 'bulk' });
    const read = await adminRequest(server, admin, 'GET', '/content/posts/bulk');
    expect(read.status).to.equal(200);
    expect(read.body.data.id).to.equal(entry.id);
  });
});
