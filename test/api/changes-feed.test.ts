// The changes feed over HTTP (docs/changes-feed.md): a real server and its
// real content repo, written through the API and with the git CLI, read as an
// anonymous reader and with tokens.
import { expect } from 'chai';
import { adminRequest, buildAdminServer, FULL_ACCESS, issueToken, type AdminSession } from '../helpers/auth.ts';
import { commitByHand, contentRepoOf, externalCommit, git, headOid } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import type { ChangeItem } from '../../src/domain/changes/changes-feed.ts';

const ROOT = '/api/v1/workspaces/default';

describe('changes feed', () => {
  let server: TestServer;
  let token: string;
  let repo: string;
  let readerToken: string;
  let admin: AdminSession;

  before(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    // A token without content grants sees what an anonymous reader sees: holding a token is not "see all".
    readerToken = await issueToken(server, admin, [{ effect: 'allow', actions: ['media.read'], resources: ['*'] }], 'reader');
    await createType({ name: 'posts', fields: { body: { type: 'markdown' } }, locales: ['en', 'fr'], default_locale: 'en' });
    await createType({ name: 'secrets', visibility: 'private', fields: { body: { type: 'markdown' } } });
  });
  after(() => server.close());

  async function createType(body: Record<string, unknown>): Promise<void> {
    const response = await server.request('POST', `${ROOT}/content-types`, { body, token });
    expect(response.status, response.text).to.equal(201);
  }

  async function write(method: string, path: string, body?: Record<string, unknown>): Promise<{ id: string; slug: string }> {
    const response = await server.request(method, `${ROOT}/content/${path}`, { body, token });
    expect(response.status, response.text).to.be.oneOf([200, 201]);
    return response.body.data;
  }

  function changes(query: string, as?: string) {
    return server.request('GET', `${ROOT}/changes${query}`, { token: as });
  }

  // Every page of one query, following the cursor.
  async function allChanges(since: string | undefined, as?: string, limit = 1000): Promise<{ items: ChangeItem[]; head: string; pages: number }> {
    const items: ChangeItem[] = [];
    let cursor: string | undefined;
    let head = '';
    let pages = 0;
    do {
      const params = new URLSearchParams({ limit: String(limit) });
      if (since !== undefined) params.set('since', since);
      if (cursor !== undefined) params.set('cursor', cursor);
      const response = await changes(`?${params}`, as);
      expect(response.status, response.text).to.equal(200);
      expect(response.body.meta.since).to.equal(since ?? null);
      if (pages > 0) expect(response.body.meta.head, 'every page is cut from the same head').to.equal(head);
      head = response.body.meta.head;
      items.push(...response.body.data);
      cursor = response.body.meta.next_cursor;
      pages += 1;
    } while (cursor !== undefined);
    return { items, head, pages };
  }

  const summary = (items: ChangeItem[]) => items.map((item) => `${item.kind} ${item.type}/${item.slug}${item.locale ? `.${item.locale}` : ''} ${item.change}`);

  it('lists every visible entry and type as created without since, with the head it is complete up to', async () => {
    const published = await write('POST', 'posts', { title: 'Listed', slug: 'listed', status: 'published' });
    await write('POST', 'posts', { title: 'Hidden draft', slug: 'hidden-draft' });
    await write('POST', 'secrets', { title: 'Secret', slug: 'secret', status: 'published' });
    const head = await headOid(repo);

    const anonymous = await allChanges(undefined);
    expect(anonymous.head).to.equal(head);
    expect(summary(anonymous.items)).to.include.members(['type posts/posts created', 'entry posts/listed created']);
    expect(summary(anonymous.items).join('\n')).not.to.contain('hidden-draft').and.not.to.contain('secret');
    const listed = anonymous.items.find((item) => item.slug === 'listed');
    expect(listed).to.include({ kind: 'entry', id: published.id, commit: head });
    expect(Date.parse(listed!.at)).to.be.a('number').and.not.NaN;

    const withToken = await allChanges(undefined, token);
    expect(summary(withToken.items)).to.include.members(['type secrets/secrets created', 'entry posts/hidden-draft created', 'entry secrets/secret created']);
    expect(summary((await allChanges(undefined, readerToken)).items)).to.deep.equal(summary(anonymous.items));
  });

  it('reports API creates, updates and deletes since a commit, each with the commit that made it', async () => {
    const since = await headOid(repo);
    const kept = await write('POST', 'posts', { title: 'Kept', slug: 'kept', status: 'published' });
    const created = await headOid(repo);
    const gone = await write('POST', 'posts', { title: 'Gone', slug: 'gone', status: 'published' });
    await write('PATCH', `posts/${gone.id}`, { title: 'Gone soon' });
    const afterGone = await headOid(repo);
    expect((await server.request('DELETE', `${ROOT}/content/posts/${gone.id}`, { token })).status).to.equal(200);
    const deleted = await headOid(repo);

    const fromStart = await allChanges(since);
    expect(fromStart.head).to.equal(deleted);
    // Created and deleted within the range: the reader never saw it and does not see it now.
    expect(summary(fromStart.items)).to.deep.equal(['entry posts/kept created']);
    expect(fromStart.items[0]).to.include({ id: kept.id, commit: created });

    const fromMiddle = await allChanges(afterGone);
    expect(fromMiddle.items).to.have.length(1);
    expect(fromMiddle.items[0]).to.include({ kind: 'entry', type: 'posts', id: gone.id, slug: 'gone', change: 'deleted', commit: deleted });

    await write('PATCH', `posts/${kept.id}`, { body: 'New text' });
    const updated = await allChanges(deleted);
    expect(summary(updated.items)).to.deep.equal(['entry posts/kept updated']);
    expect(updated.items[0].commit).to.equal(await headOid(repo));

    const nothing = await allChanges(await headOid(repo));
    expect(nothing.items).to.deep.equal([]);
  });

  it('shows a draft to an anonymous reader only once it is published, and an unpublished entry as deleted', async () => {
    const since = await headOid(repo);
    const draft = await write('POST', 'posts', { title: 'Draft first', slug: 'draft-first' });
    const afterDraft = await headOid(repo);
    expect((await allChanges(since)).items).to.deep.equal([]);
    expect(summary((await allChanges(since, readerToken)).items)).to.deep.equal([]);
    expect(summary((await allChanges(since, token)).items)).to.deep.equal(['entry posts/draft-first created']);

    await write('PATCH', `posts/${draft.id}`, { status: 'published' });
    const published = await headOid(repo);
    expect(summary((await allChanges(since)).items)).to.deep.equal(['entry posts/draft-first created']);
    expect(summary((await allChanges(afterDraft)).items)).to.deep.equal(['entry posts/draft-first created']);
    expect(summary((await allChanges(afterDraft, token)).items)).to.deep.equal(['entry posts/draft-first updated']);

    await write('PATCH', `posts/${draft.id}`, { status: 'draft' });
    expect(summary((await allChanges(published)).items)).to.deep.equal(['entry posts/draft-first deleted']);
    expect(summary((await allChanges(published, token)).items)).to.deep.equal(['entry posts/draft-first updated']);
  });

  it('hides a private type and its entries from an anonymous reader, and tells readers when a type goes private', async () => {
    const since = await headOid(repo);
    await write('POST', 'secrets', { title: 'Another secret', slug: 'another-secret', status: 'published' });
    expect((await allChanges(since)).items).to.deep.equal([]);
    expect(summary((await allChanges(since, token)).items)).to.deep.equal(['entry secrets/another-secret created']);
    const secretsReader = await issueToken(server, admin, [{ effect: 'allow', actions: ['content.read', 'schema.read'], resources: ['content:secrets:*', 'schema:secrets'] }], 'secrets');
    await write('POST', 'secrets', { title: 'Secret draft', slug: 'secret-draft' });
    await write('POST', 'posts', { title: 'Post draft', slug: 'post-draft' });
    // Items are ordered by id, which is random: compare as a set.
    expect(summary((await allChanges(since, secretsReader)).items), 'the grant opens its own collection, drafts included, and no other').to.have.members([
      'entry secrets/another-secret created',
      'entry secrets/secret-draft created',
    ]);

    await createType({ name: 'notes', fields: { body: { type: 'markdown' } } });
    const note = await write('POST', 'notes', { title: 'Note', slug: 'note', status: 'published' });
    await write('POST', 'notes', { title: 'Note draft', slug: 'note-draft' });
    const beforePrivate = await headOid(repo);
    const response = await server.request('PUT', `${ROOT}/content-types/notes`, { body: { visibility: 'private' }, token });
    expect(response.status, response.text).to.equal(200);
    const privateAt = await headOid(repo);

    const anonymous = await allChanges(beforePrivate);
    expect(summary(anonymous.items)).to.deep.equal(['type notes/notes deleted', 'entry notes/note deleted']);
    expect(anonymous.items[1]).to.include({ id: note.id, commit: privateAt });
    expect(summary((await allChanges(beforePrivate, token)).items)).to.deep.equal(['type notes/notes updated']);
  });

  it('reports commits made with git, and entries that no longer parse as deleted', async () => {
    const since = await headOid(repo);
    const file = 'default/entries/posts/from-git.md';
    const added = await externalCommit(repo, { write: { [file]: '---\nid: fromgit0001\ntitle: From git\nstatus: published\n---\nWritten by hand.\n' } }, 'Add a post by hand');
    const first = await allChanges(since);
    expect(first.head).to.equal(added);
    expect(first.items).to.deep.equal([{ kind: 'entry', type: 'posts', id: 'fromgit0001', slug: 'from-git', change: 'created', commit: added, at: first.items[0]?.at }]);
    const authorTime = (await git(repo, ['log', '-1', '--format=%aI', added])).trim();
    expect(Date.parse(first.items[0].at)).to.equal(Date.parse(authorTime));

    const drafted = await externalCommit(repo, { write: { [file]: '---\nid: fromgit0001\ntitle: From git\nstatus: draft\n---\nWritten by hand.\n' } }, 'Unpublish by hand');
    const second = await allChanges(added);
    expect(second.items).to.deep.equal([{ kind: 'entry', type: 'posts', id: 'fromgit0001', slug: 'from-git', change: 'deleted', commit: drafted, at: second.items[0]?.at }]);

    const republished = await externalCommit(repo, { write: { [file]: '---\nid: fromgit0001\ntitle: From git\nstatus: published\n---\nBack.\n' } }, 'Publish again');
    const broken = await externalCommit(repo, { write: { [file]: '---\nid: fromgit0001\ntitle: [unclosed\n---\n' } }, 'Break the file');
    // The server skips a file it cannot read, so the feed does too: gone for whoever saw it, never there for whoever did not.
    const third = await allChanges(republished);
    expect(third.head).to.equal(broken);
    expect(summary(third.items)).to.deep.equal(['entry posts/from-git deleted']);
    expect(summary((await allChanges(drafted)).items)).to.deep.equal([]);
    await externalCommit(repo, { remove: [file] }, 'Remove the broken file');
  });

  it('reports a slug change as the old slug deleted and the new one created, in that order', async () => {
    const post = await write('POST', 'posts', { title: 'Old name', slug: 'old-name', status: 'published' });
    const since = await headOid(repo);
    await write('PATCH', `posts/${post.id}`, { slug: 'new-name' });
    const { items } = await allChanges(since);
    expect(summary(items)).to.deep.equal(['entry posts/old-name deleted', 'entry posts/new-name created']);
    expect(items.map((item) => item.id)).to.deep.equal([post.id, post.id]);
  });

  it('gives translation changes their own items with the locale', async () => {
    const post = await write('POST', 'posts', { title: 'Hello', slug: 'hello', status: 'published' });
    const since = await headOid(repo);
    await write('PATCH', `posts/${post.id}`, { locale: 'fr', title: 'Bonjour' });
    const afterFrench = await headOid(repo);
    const added = await allChanges(since);
    expect(added.items.find((item) => item.locale === 'fr')).to.include({ id: post.id, slug: 'hello', change: 'created', commit: afterFrench });

    const dropped = await externalCommit(repo, { remove: ['default/entries/posts/hello.fr.md'] }, 'Drop the French page');
    const removed = await allChanges(afterFrench);
    expect(removed.items).to.deep.equal([{ kind: 'entry', type: 'posts', id: post.id, slug: 'hello', locale: 'fr', change: 'deleted', commit: dropped, at: removed.items[0]?.at }]);
  });

  it('reports a scheduled entry that came due after the since commit was made, though no commit changed it', async () => {
    const file = 'default/entries/posts/due.md';
    await externalCommit(repo, { write: { [file]: '---\nid: scheduled001\ntitle: Due\nstatus: scheduled\npublished_at: 2020-01-01T00:00:00.000Z\n---\n' } }, 'Schedule a post');
    await pollUntil(() => server.request('GET', `${ROOT}/content/posts/scheduled001`), (response) => response.status === 200);
    // A commit dated before the publish time: at that moment the entry was not public yet.
    await commitByHand(repo, ['-q', '--allow-empty', '--date=2001-01-01T00:00:00Z', '-m', 'An old-dated commit']);
    const since = await headOid(repo);
    await write('POST', 'posts', { title: 'Later', slug: 'later', status: 'published' });
    const { items, head } = await allChanges(since);
    expect(summary(items)).to.have.members(['entry posts/due created', 'entry posts/later created']);
    expect(items.find((item) => item.slug === 'due')).to.include({ id: 'scheduled001', commit: head, at: '2020-01-01T00:00:00.000Z' });
    expect(summary((await allChanges(since, token)).items), 'a reader of the whole collection saw it all along').to.deep.equal(['entry posts/later created']);
  });

  it('pages with a cursor that pins the head while new commits land', async () => {
    const since = await headOid(repo);
    await externalCommit(
      repo,
      { write: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`default/entries/posts/paged-${i}.md`, `---\nid: paged${i}0000\ntitle: Paged ${i}\nstatus: published\n---\n`])) },
      'Add five posts',
    );
    const first = await changes(`?since=${since}&limit=2`);
    expect(first.status).to.equal(200);
    expect(first.body.data).to.have.length(2);
    const cursor: string = first.body.meta.next_cursor;
    expect(cursor).to.be.a('string');
    await write('POST', 'posts', { title: 'Landed meanwhile', slug: 'landed-meanwhile', status: 'published' });

    // A new first page includes what landed since: six items on three pages.
    const fresh = await allChanges(since, undefined, 2);
    expect(fresh.pages).to.equal(3);
    expect(summary(fresh.items)).to.include('entry posts/landed-meanwhile created');
    const rest = [];
    for (let next: string | undefined = cursor; next !== undefined; ) {
      const page = await changes(`?since=${since}&limit=2&cursor=${encodeURIComponent(next)}`);
      expect(page.status).to.equal(200);
      expect(page.body.meta.head).to.equal(first.body.meta.head);
      rest.push(...page.body.data);
      next = page.body.meta.next_cursor;
    }
    expect(summary([...first.body.data, ...rest]).sort()).to.deep.equal(Array.from({ length: 5 }, (_, i) => `entry posts/paged-${i} created`));

    const otherSince = await changes(`?since=${await headOid(repo)}&cursor=${encodeURIComponent(cursor)}`);
    expect(otherSince.status).to.equal(400);
    expect(otherSince.body.error.code).to.equal('invalid_request');
  });

  it('answers a full listing as of the commit the index holds, so a git commit not yet taken in comes with the next since', async () => {
    // The watch for outside commits waits a minute here, so the commit below is in git but not in memory.
    const slow = await startTestServer({ env: { CMS_WATCH_INTERVAL_MS: '60000' } });
    try {
      const slowRepo = contentRepoOf(slow.dataDir);
      const indexed = await headOid(slowRepo);
      const added = await externalCommit(
        slowRepo,
        { write: { 'default/types/posts.yaml': 'label: Posts\nfields:\n  body:\n    type: markdown\n', 'default/entries/posts/early.md': '---\nid: early00001\ntitle: Early\nstatus: published\n---\n' } },
        'Add posts by hand',
      );
      const listing = await slow.request('GET', `${ROOT}/changes`);
      expect(listing.status).to.equal(200);
      expect(listing.body.meta.head).to.equal(indexed);
      expect(listing.body.data).to.deep.equal([]);
      const next = await slow.request('GET', `${ROOT}/changes?since=${listing.body.meta.head}`);
      expect(next.body.meta.head).to.equal(added);
      expect(summary(next.body.data)).to.deep.equal(['type posts/posts created', 'entry posts/early created']);
    } finally {
      await slow.close();
    }
  });

  // A new workspace with a type "notes" holding a public entry and a draft; its root path and the head after them.
  async function workspaceWithNotes(slug: string): Promise<{ root: string; before: string }> {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug, label: slug })).status).to.equal(201);
    const root = `/api/v1/workspaces/${slug}`;
    expect((await server.request('POST', `${root}/content-types`, { body: { name: 'notes' }, token })).status).to.equal(201);
    for (const body of [{ title: 'Public', status: 'published' }, { title: 'Draft' }]) {
      expect((await server.request('POST', `${root}/content/notes`, { body, token })).status).to.equal(201);
    }
    return { root, before: (await server.request('GET', `${root}/changes`)).body.meta.head as string };
  }

  it('answers for a workspace removed with git after since with its types and entries deleted, 404 once since is past the removal, and everything created when it comes back', async () => {
    const { root: leaving, before } = await workspaceWithNotes('leaving');
    const workspaceFile = await git(repo, ['show', 'HEAD:leaving/workspace.yaml']);

    await git(repo, ['rm', '-r', '-q', '--', 'leaving']);
    const removal = await commitByHand(repo, ['-q', '-m', 'Remove the leaving workspace']).then(() => headOid(repo));
    await pollUntil(async () => server.services.writer.indexedHead, (oid) => oid === removal);
    expect(server.services.workspaces.find('leaving')).to.equal(undefined);

    const anonymous = await server.request('GET', `${leaving}/changes?since=${before}`);
    expect(anonymous.status, anonymous.text).to.equal(200);
    expect(anonymous.body.meta).to.include({ head: removal, workspace_status: 'removed' });
    expect(summary(anonymous.body.data)).to.deep.equal(['type notes/notes deleted', 'entry notes/public deleted']);
    expect(anonymous.body.data.map((item: ChangeItem) => item.commit)).to.deep.equal([removal, removal]);
    const full = await server.request('GET', `${leaving}/changes?since=${before}`, { token });
    expect(summary(full.body.data).sort()).to.deep.equal(['entry notes/draft deleted', 'entry notes/public deleted', 'type notes/notes deleted']);
    for (const query of [`?since=${removal}`, '']) {
      const gone = await server.request('GET', `${leaving}/changes${query}`, { token });
      expect(gone.status, query).to.equal(404);
      expect(gone.body.error.code).to.equal('not_found');
    }

    // Back with workspace.yaml alone, over the files a developer restores first: the reader who saw it go sees it all come back.
    await git(repo, ['checkout', before, '--', 'leaving/types', 'leaving/entries']);
    const kept = await commitByHand(repo, ['-q', '-m', 'Restore the files without the workspace file']).then(() => headOid(repo));
    await pollUntil(async () => server.services.writer.indexedHead, (oid) => oid === kept);
    const back = await externalCommit(repo, { write: { 'leaving/workspace.yaml': workspaceFile } }, 'Bring the leaving workspace back');
    await pollUntil(async () => server.services.writer.indexedHead, (oid) => oid === back);
    const returned = await server.request('GET', `${leaving}/changes?since=${removal}`);
    expect(returned.status).to.equal(200);
    expect(summary(returned.body.data)).to.deep.equal(['type notes/notes created', 'entry notes/public created']);
    expect(returned.body.data.map((item: ChangeItem) => item.commit)).to.deep.equal([back, back]);
  });

  it('answers for a workspace archived after since with everything deleted and workspace_status, 404 once since is past the archiving, and everything created when it is brought back', async () => {
    const { root: shelved, before } = await workspaceWithNotes('shelved');

    expect((await adminRequest(server, admin, 'PUT', '/workspaces/shelved', { archived: true })).status).to.equal(200);
    const archiving = await headOid(repo);
    const answer = await server.request('GET', `${shelved}/changes?since=${before}`);
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.body.meta).to.include({ since: before, head: archiving, workspace_status: 'archived' });
    expect(summary(answer.body.data)).to.deep.equal(['type notes/notes deleted', 'entry notes/public deleted']);
    expect(answer.body.data.map((item: ChangeItem) => item.commit)).to.deep.equal([archiving, archiving]);
    const paged = await server.request('GET', `${shelved}/changes?since=${before}&limit=1`, { token });
    expect(paged.status).to.equal(200);
    const next = await server.request('GET', `${shelved}/changes?since=${before}&limit=5&cursor=${paged.body.meta.next_cursor}`, { token });
    expect(summary([...paged.body.data, ...next.body.data]).sort()).to.deep.equal(['entry notes/draft deleted', 'entry notes/public deleted', 'type notes/notes deleted']);
    for (const query of [`?since=${archiving}`, '']) {
      const gone = await server.request('GET', `${shelved}/changes${query}`, { token });
      expect(gone.status, query).to.equal(404);
      expect(gone.body.error.code).to.equal('not_found');
    }

    expect((await adminRequest(server, admin, 'PUT', '/workspaces/shelved', { archived: false })).status).to.equal(200);
    const back = await headOid(repo);
    const returned = await server.request('GET', `${shelved}/changes?since=${archiving}`);
    expect(returned.status).to.equal(200);
    expect(returned.body.meta).not.to.have.property('workspace_status');
    expect(summary(returned.body.data)).to.deep.equal(['type notes/notes created', 'entry notes/public created']);
    expect(returned.body.data.map((item: ChangeItem) => item.commit)).to.deep.equal([back, back]);
  });

  it('answers for a workspace whose workspace.yaml alone a commit removes, with every type and entry it had deleted', async () => {
    expect((await adminRequest(server, admin, 'POST', '/workspaces', { slug: 'unfiled', label: 'Unfiled' })).status).to.equal(201);
    const unfiled = '/api/v1/workspaces/unfiled';
    expect((await server.request('POST', `${unfiled}/content-types`, { body: { name: 'notes' }, token })).status).to.equal(201);
    expect((await server.request('POST', `${unfiled}/content/notes`, { body: { title: 'Public', status: 'published' }, token })).status).to.equal(201);
    const before = (await server.request('GET', `${unfiled}/changes`)).body.meta.head as string;
    const removal = await externalCommit(repo, { remove: ['unfiled/workspace.yaml'] }, 'Take the workspace file away');
    await pollUntil(async () => server.services.writer.indexedHead, (oid) => oid === removal);
    const answer = await server.request('GET', `${unfiled}/changes?since=${before}`);
    expect(answer.status, answer.text).to.equal(200);
    expect(summary(answer.body.data)).to.deep.equal(['type notes/notes deleted', 'entry notes/public deleted']);
  });

  it('refuses an unknown or malformed since, a bad limit or cursor, and an unknown workspace', async () => {
    const unknown = await changes(`?since=${'0123456789abcdef'.repeat(3).slice(0, 40)}`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
    for (const query of ['?since=abc123', `?since=${'g'.repeat(40)}`, '?since=HEAD', '?limit=0', '?limit=1001', '?limit=ten', '?cursor=not-a-cursor', '?since=a&since=b']) {
      const response = await changes(query);
      expect(response.status, query).to.equal(400);
      expect(response.body.error.code, query).to.equal('invalid_request');
    }
    const upper = await changes(`?since=${(await headOid(repo)).toUpperCase()}`);
    expect(upper.status).to.equal(200);
    const workspace = await server.request('GET', '/api/v1/workspaces/nowhere/changes');
    expect(workspace.status).to.equal(404);
    expect(workspace.body.error.code).to.equal('not_found');
  });
});
