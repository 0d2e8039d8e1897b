// The git store seen from outside (issue 2, "Git store" and "External
// commits"): what API writes leave in the content repo, read with the git CLI,
// and how commits made with plain git reach the API.
import { expect } from 'chai';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { gitAuthorOf } from '../../src/domain/auth/principal.ts';
import { fullAccessToken } from '../helpers/auth.ts';
import { changedFiles, commitCount, commitInfo, contentRepoOf, externalCommit, git, statusPorcelain, trackedFiles } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';

const ROOT = '/api/v1/workspaces/default';

const POST_FIELDS = {
  summary: { type: 'text' },
  body: { type: 'markdown' },
  notes: { type: 'markdown' },
  rating: { type: 'number' },
  featured: { type: 'boolean' },
  tags: { type: 'select', multiple: true, options: ['news', 'tech'] },
};

interface EntryFile {
  attributes: Record<string, unknown>;
  body: string;
}

/** Splits a markdown file into its YAML front matter (parsed) and its body, as a static site generator would. */
function parseEntryFile(text: string): EntryFile {
  const match = /^---\r?\n([\s\S]*?)^---\r?\n?([\s\S]*)$/m.exec(text);
  if (!match) throw new Error(`not a front-matter file: ${JSON.stringify(text.slice(0, 80))}`);
  return { attributes: YAML.parse(match[1]) as Record<string, unknown>, body: match[2].trim() };
}

function frontMatterFile(attributes: Record<string, unknown>, body = ''): string {
  return `---\n${YAML.stringify(attributes)}---\n${body === '' ? '' : `\n${body}\n`}`;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('git store (content repo seen with the git CLI)', () => {
  let server: TestServer;
  let token: string;
  let tokenId: string;
  let repo: string;

  const entryPath = (type: string, slug: string) => `default/entries/${type}/${slug}.md`;
  const readEntry = async (type: string, slug: string) => parseEntryFile(await readFile(path.join(repo, entryPath(type, slug)), 'utf8'));
  const create = (type: string, body: unknown) => server.request('POST', `${ROOT}/content/${type}`, { body, token });
  const createOk = async (type: string, body: unknown): Promise<TestResponse> => {
    const response = await create(type, body);
    expect(response.status, response.text).to.equal(201);
    return response;
  };
  const createType = async (name: string, fields: Record<string, unknown>) => {
    const response = await server.request('POST', `${ROOT}/content-types`, { body: { name, fields }, token });
    expect(response.status, response.text).to.equal(201);
  };
  const expectTrailers = (trailers: Record<string, string>, expected: Record<string, string>) => {
    for (const [key, value] of Object.entries(expected)) expect(trailers[key], `trailer ${key}`).to.equal(value);
  };

  before(async () => {
    server = await startTestServer();
    token = await fullAccessToken(server);
    // API.md: plain tokens are cms_{tokenId}_{secret}, the secret has no underscore.
    tokenId = token.slice('cms_'.length, token.lastIndexOf('_'));
    repo = contentRepoOf(server.dataDir);
    await createType('posts', POST_FIELDS);
  });
  after(() => server.close());

  describe('API writes', () => {
    it('commits a create as exactly one commit, authored by the token, with message and trailers', async () => {
      const before = await commitCount(repo);
      const response = await createOk('posts', { title: 'Hello World', summary: 'Hi', body: '# Hello', status: 'published' });
      const id: string = response.body.data.id;
      expect(response.body.data.slug).to.equal('hello-world');

      expect(await commitCount(repo)).to.equal(before + 1);
      const commit = await commitInfo(repo);
      const author = gitAuthorOf({ kind: 'token', id: tokenId, name: 'full access', grants: [] });
      expect(commit.authorName).to.equal(author.name);
      expect(commit.authorEmail).to.equal(author.email);
      expect(commit.subject, 'a create that publishes says so').to.equal('Create and publish posts/hello-world');
      expectTrailers(commit.trailers, { Workspace: 'default', Type: 'posts', Entry: id, Actor: `token:${tokenId}` });
      expect(await changedFiles(repo)).to.deep.equal([{ status: 'A', path: entryPath('posts', 'hello-world') }]);
      expect(await statusPorcelain(repo)).to.equal('');
    });

    it('writes the entry as front matter (system and custom fields at top level) plus the first markdown field as body', async () => {
      const response = await createOk('posts', {
        title: 'Static Sites',
        status: 'published',
        summary: 'For generators',
        body: '# Heading\n\nSome *markdown*.',
        notes: 'second markdown field',
        rating: 4.5,
        featured: true,
        tags: ['news', 'tech'],
      });
      const { attributes, body } = await readEntry('posts', 'static-sites');
      expect(attributes.id).to.equal(response.body.data.id);
      expect(attributes.title).to.equal('Static Sites');
      expect(attributes.status).to.equal('published');
      expect(attributes.summary).to.equal('For generators');
      expect(attributes.notes).to.equal('second markdown field');
      expect(attributes.rating).to.equal(4.5);
      expect(attributes.featured).to.equal(true);
      expect(attributes.tags).to.deep.equal(['news', 'tech']);
      // The dates in the keys site generators read (docs/static-sites.md).
      expect(attributes.date).to.equal(response.body.data.published_at);
      expect(attributes.publishDate).to.equal(response.body.data.published_at);
      expect(attributes.lastmod).to.equal(response.body.data.updated_at);
      expect(attributes.created_at).to.equal(response.body.data.created_at);
      expect(attributes.draft).to.equal(false);
      expect(attributes).to.not.have.any.keys('body', 'data', 'slug', 'type', 'published_at', 'updated_at');
      expect(body).to.equal('# Heading\n\nSome *markdown*.');
      expect(await statusPorcelain(repo)).to.equal('');
    });

    for (const status of ['draft', 'protected', 'archived']) {
      it(`marks an entry with status ${status} with draft: true so static site generators skip it`, async () => {
        await createOk('posts', { title: `Hidden ${status}`, status });
        const { attributes } = await readEntry('posts', `hidden-${status}`);
        expect(attributes.status).to.equal(status);
        expect(attributes.draft).to.equal(true);
        expect(await statusPorcelain(repo)).to.equal('');
      });
    }

    it('commits PUT and PATCH as one commit each, and sets draft: false once published', async () => {
      const created = await createOk('posts', { title: 'Edited Twice' });
      const id: string = created.body.data.id;
      expect((await readEntry('posts', 'edited-twice')).attributes.draft).to.equal(true);

      // The subject says when a save published the entry (docs/architecture.md "Commit subjects").
      for (const [method, body, subject] of [['PUT', { summary: 'first' }, 'Update'], ['PATCH', { status: 'published', rating: 2 }, 'Publish']] as const) {
        const before = await commitCount(repo);
        const response = await server.request(method, `${ROOT}/content/posts/${id}`, { body, token });
        expect(response.status, response.text).to.equal(200);
        expect(await commitCount(repo)).to.equal(before + 1);
        const commit = await commitInfo(repo);
        expect(commit.subject).to.equal(`${subject} posts/edited-twice`);
        expectTrailers(commit.trailers, { Workspace: 'default', Type: 'posts', Entry: id, Actor: `token:${tokenId}` });
        expect(await changedFiles(repo)).to.deep.equal([{ status: 'M', path: entryPath('posts', 'edited-twice') }]);
        expect(await statusPorcelain(repo)).to.equal('');
      }
      const { attributes } = await readEntry('posts', 'edited-twice');
      expect(attributes).to.include({ id, status: 'published', summary: 'first', rating: 2 });
      expect(attributes.draft).to.equal(false);
    });

    it('renames the file in the same single commit when the slug changes', async () => {
      const created = await createOk('posts', { title: 'Old Name' });
      const before = await commitCount(repo);
      const response = await server.request('PATCH', `${ROOT}/content/posts/old-name`, { body: { slug: 'new-name' }, token });
      expect(response.status, response.text).to.equal(200);
      expect(await commitCount(repo)).to.equal(before + 1);
      expect(await changedFiles(repo)).to.deep.equal([
        { status: 'A', path: entryPath('posts', 'new-name') },
        { status: 'D', path: entryPath('posts', 'old-name') },
      ]);
      expect((await readEntry('posts', 'new-name')).attributes.id).to.equal(created.body.data.id);
      expect(await statusPorcelain(repo)).to.equal('');
    });

    it('soft-deletes by moving the files to the trash folder in one commit', async () => {
      const created = await createOk('posts', { title: 'Goodbye', body: 'last words', status: 'published' });
      const id: string = created.body.data.id;
      const before = await commitCount(repo);
      const response = await server.request('DELETE', `${ROOT}/content/posts/${id}`, { token });
      expect(response.status, response.text).to.equal(200);
      expect(response.body).to.deep.equal({ data: { ok: true } });

      expect(await commitCount(repo)).to.equal(before + 1);
      const commit = await commitInfo(repo);
      expect(commit.subject).to.equal('Delete posts/goodbye');
      expectTrailers(commit.trailers, { Workspace: 'default', Type: 'posts', Entry: id, Actor: `token:${tokenId}` });
      const trashed = `default/trash/posts/${id}/goodbye.md`;
      expect(await changedFiles(repo)).to.deep.equal([
        { status: 'D', path: entryPath('posts', 'goodbye') },
        { status: 'A', path: trashed },
      ].sort((a, b) => a.path.localeCompare(b.path)));
      expect(await exists(path.join(repo, entryPath('posts', 'goodbye')))).to.equal(false);
      const inTrash = parseEntryFile(await readFile(path.join(repo, trashed), 'utf8'));
      expect(inTrash.attributes).to.include({ id, title: 'Goodbye' });
      expect(inTrash.body).to.equal('last words');
      expect(await statusPorcelain(repo)).to.equal('');

      const gone = await server.request('GET', `${ROOT}/content/posts/${id}`, { token });
      expect(gone.status).to.equal(404);
      expect(gone.body.error.code).to.equal('not_found');
    });

    it('commits a content type create and update as one commit each, as YAML in the types folder', async () => {
      const typeFile = 'default/types/events.yaml';
      for (const [method, url, body, subjectVerb, status] of [
        ['POST', `${ROOT}/content-types`, { name: 'events', label: 'Events', fields: { day: { type: 'date' } } }, 'Create', 'A'],
        ['PUT', `${ROOT}/content-types/events`, { label: 'Happenings' }, 'Update', 'M'],
      ] as const) {
        const before = await commitCount(repo);
        const response = await server.request(method, url, { body, token });
        expect(response.status, response.text).to.equal(method === 'POST' ? 201 : 200);
        expect(await commitCount(repo)).to.equal(before + 1);
        const commit = await commitInfo(repo);
        expect(commit.subject.startsWith(subjectVerb), commit.subject).to.equal(true);
        expect(commit.authorEmail).to.equal(gitAuthorOf({ kind: 'token', id: tokenId, name: 'full access', grants: [] }).email);
        expectTrailers(commit.trailers, { Workspace: 'default', Type: 'events', Actor: `token:${tokenId}` });
        expect(await changedFiles(repo)).to.deep.equal([{ status, path: typeFile }]);
        expect(await statusPorcelain(repo)).to.equal('');
      }
      const stored = YAML.parse(await readFile(path.join(repo, typeFile), 'utf8')) as Record<string, unknown>;
      expect(stored).to.include({ label: 'Happenings' });
      expect(stored.fields).to.deep.equal({ day: { type: 'date' } });
    });

    it('deletes a content type with its YAML, entries and trash in one commit', async () => {
      await createType('notes', { body: { type: 'markdown' } });
      for (const title of ['Note One', 'Note Two', 'Note Three']) await createOk('notes', { title, body: title });
      expect((await server.request('DELETE', `${ROOT}/content/notes/note-three`, { token })).status).to.equal(200);
      const before = await commitCount(repo);

      const response = await server.request('DELETE', `${ROOT}/content-types/notes`, { token });
      expect(response.status, response.text).to.equal(200);
      expect(response.body).to.deep.equal({ data: { ok: true } });

      expect(await commitCount(repo)).to.equal(before + 1);
      const commit = await commitInfo(repo);
      expectTrailers(commit.trailers, { Workspace: 'default', Type: 'notes', Actor: `token:${tokenId}` });
      const changes = await changedFiles(repo);
      expect(changes.map((change) => change.status)).to.deep.equal(['D', 'D', 'D', 'D']);
      expect(changes.map((change) => change.path)).to.include.members([
        'default/types/notes.yaml',
        entryPath('notes', 'note-one'),
        entryPath('notes', 'note-two'),
      ]);
      const left = (await trackedFiles(repo)).filter((file) => /^default\/(types\/notes\.yaml|entries\/notes\/|trash\/notes\/)/.test(file));
      expect(left).to.deep.equal([]);
      expect(await statusPorcelain(repo)).to.equal('');

      const type = await server.request('GET', `${ROOT}/content-types/notes`, { token });
      expect(type.status).to.equal(404);
      expect(type.body.error.code).to.equal('not_found');
      const list = await server.request('GET', `${ROOT}/content/notes`, { token });
      expect(list.status).to.equal(404);
    });

    it('serializes 50 parallel creates: 50 entries, 50 commits, distinct slugs, clean status', async () => {
      await createType('bulk', { body: { type: 'markdown' } });
      const before = await commitCount(repo);
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, n) => create('bulk', { title: 'Same Title', body: `entry ${n}` })),
      );
      expect(responses.map((response) => response.status)).to.deep.equal(Array(50).fill(201));
      const slugs = new Set(responses.map((response) => response.body.data.slug as string));
      const ids = new Set(responses.map((response) => response.body.data.id as string));
      expect(slugs.size).to.equal(50);
      expect(ids.size).to.equal(50);

      expect(await commitCount(repo)).to.equal(before + 50);
      expect(await statusPorcelain(repo)).to.equal('');
      const subjects = (await git(repo, ['log', '-50', '--format=%s'])).trim().split('\n');
      expect(subjects.filter((subject) => subject.startsWith('Create bulk/'))).to.have.length(50);
      const files = (await trackedFiles(repo)).filter((file) => file.startsWith('default/entries/bulk/'));
      expect(files.sort()).to.deep.equal([...slugs].map((slug) => entryPath('bulk', slug)).sort());

      const list = await server.request('GET', `${ROOT}/content/bulk`, { token });
      expect(list.status).to.equal(200);
      expect(list.body.meta.total).to.equal(50);
      expect(list.body.data).to.have.length(50);
      expect(new Set(list.body.data.map((entry: { slug: string }) => entry.slug))).to.deep.equal(slugs);
    });
  });

  describe('commits made with plain git', () => {
    const getEntry = (type: string, identifier: string) => server.request('GET', `${ROOT}/content/${type}/${identifier}`, { token });

    it('shows edited front matter', async () => {
      const created = await createOk('posts', { title: 'Edit Me', rating: 1, body: 'before', status: 'published' });
      const id: string = created.body.data.id;
      const file = path.join(repo, entryPath('posts', 'edit-me'));
      const { attributes } = parseEntryFile(await readFile(file, 'utf8'));
      await externalCommit(repo, { write: { [entryPath('posts', 'edit-me')]: frontMatterFile({ ...attributes, title: 'Edited In Git', rating: 7 }, 'after') } }, 'Edit by hand');

      const seen = await pollUntil(() => getEntry('posts', id), (response) => response.body?.data?.title === 'Edited In Git');
      expect(seen.status).to.equal(200);
      expect(seen.body.data.title).to.equal('Edited In Git');
      expect(seen.body.data.data.rating).to.equal(7);
      expect(seen.body.data.data.body).to.equal('after');
    });

    it('shows a new entry file', async () => {
      const file = frontMatterFile({ id: 'from-git-0001', title: 'From Git', status: 'published', rating: 5, tags: ['tech'] }, 'Written in an editor.');
      await externalCommit(repo, { write: { [entryPath('posts', 'from-git')]: file } }, 'Add an entry by hand');

      const seen = await pollUntil(() => getEntry('posts', 'from-git'), (response) => response.status === 200);
      expect(seen.status).to.equal(200);
      expect(seen.body.data).to.include({ id: 'from-git-0001', slug: 'from-git', title: 'From Git', status: 'published' });
      expect(seen.body.data.data).to.include({ rating: 5, body: 'Written in an editor.' });
      expect(seen.body.data.data.tags).to.deep.equal(['tech']);
      const byId = await getEntry('posts', 'from-git-0001');
      expect(byId.status).to.equal(200);
      const anonymousList = await server.request('GET', `${ROOT}/content/posts?filter[slug]=from-git`);
      expect(anonymousList.body.meta.total).to.equal(1);
    });

    it('drops an entry whose file was deleted', async () => {
      const created = await createOk('posts', { title: 'Remove In Git', status: 'published' });
      await externalCommit(repo, { remove: [entryPath('posts', 'remove-in-git')] }, 'Remove an entry by hand');

      const seen = await pollUntil(() => getEntry('posts', created.body.data.id), (response) => response.status === 404);
      expect(seen.status).to.equal(404);
      expect(seen.body.error.code).to.equal('not_found');
      const list = await server.request('GET', `${ROOT}/content/posts?filter[slug]=remove-in-git`, { token });
      expect(list.body.meta.total).to.equal(0);
    });

    it('shows a new type YAML, then a change to it', async () => {
      const typeFile = 'default/types/recipes.yaml';
      await externalCommit(repo, { write: { [typeFile]: YAML.stringify({ label: 'Recipes', fields: { minutes: { type: 'number' } } }) } }, 'Add a type by hand');

      const listed = await pollUntil(
        () => server.request('GET', `${ROOT}/content-types`, { token }),
        (response) => Array.isArray(response.body?.data) && response.body.data.some((type: { name: string }) => type.name === 'recipes'),
      );
      expect(listed.body.data.map((type: { name: string }) => type.name)).to.include('recipes');
      const type = await server.request('GET', `${ROOT}/content-types/recipes`, { token });
      expect(type.status).to.equal(200);
      expect(type.body.data).to.include({ name: 'recipes', label: 'Recipes', visibility: 'public', singleton: false });
      expect(type.body.data.fields).to.deep.equal({ minutes: { type: 'number' } });
      const entries = await server.request('GET', `${ROOT}/content/recipes`, { token });
      expect(entries.status).to.equal(200);
      expect(entries.body.meta.total).to.equal(0);

      await externalCommit(repo, { write: { [typeFile]: YAML.stringify({ label: 'Cookbook', fields: { minutes: { type: 'number' }, serves: { type: 'number' } } }) } }, 'Change a type by hand');
      const changed = await pollUntil(() => server.request('GET', `${ROOT}/content-types/recipes`, { token }), (response) => response.body?.data?.label === 'Cookbook');
      expect(changed.body.data.label).to.equal('Cookbook');
      expect(Object.keys(changed.body.data.fields)).to.deep.equal(['minutes', 'serves']);
    });

    it('skips a file with broken front matter or an invalid value, and keeps serving the others', async () => {
      const kept = await createOk('posts', { title: 'Still Here', status: 'published' });
      await externalCommit(
        repo,
        {
          write: {
            [entryPath('posts', 'broken-yaml')]: '---\ntitle: [unclosed\nstatus: published\n---\nbody\n',
            [entryPath('posts', 'wrong-value')]: frontMatterFile({ title: 'Wrong', status: 'published', rating: 'lots' }),
            [entryPath('posts', 'fine-after-broken')]: frontMatterFile({ title: 'Fine', status: 'published' }),
          },
        },
        'Add good and bad files by hand',
      );

      const fine = await pollUntil(() => getEntry('posts', 'fine-after-broken'), (response) => response.status === 200);
      expect(fine.status).to.equal(200);
      for (const slug of ['broken-yaml', 'wrong-value']) {
        const skipped = await getEntry('posts', slug);
        expect(skipped.status, slug).to.equal(404);
        expect(skipped.body.error.code).to.equal('not_found');
      }
      const list = await server.request('GET', `${ROOT}/content/posts`, { token });
      expect(list.status).to.equal(200);
      const slugs = list.body.data.map((entry: { slug: string }) => entry.slug);
      expect(slugs).to.include.members(['still-here', 'fine-after-broken']);
      expect(slugs).to.not.include.members(['broken-yaml']);
      expect(slugs).to.not.include('wrong-value');
      expect((await getEntry('posts', kept.body.data.id)).status).to.equal(200);
      expect((await server.request('GET', '/api/v1/health')).status).to.equal(200);
    });

    it('keeps API writes on top of external commits: one more commit, clean status', async () => {
      await externalCommit(repo, { write: { [entryPath('posts', 'hand-made')]: frontMatterFile({ id: 'hand-made-0001', title: 'Hand Made', status: 'draft' }) } }, 'Hand-made entry');
      const seen = await pollUntil(() => getEntry('posts', 'hand-made'), (response) => response.status === 200);
      expect(seen.status).to.equal(200);

      const before = await commitCount(repo);
      const response = await server.request('PATCH', `${ROOT}/content/posts/hand-made`, { body: { title: 'Hand Made, Then API' }, token });
      expect(response.status, response.text).to.equal(200);
      expect(await commitCount(repo)).to.equal(before + 1);
      expect((await commitInfo(repo)).subject).to.equal('Update posts/hand-made');
      expect(await statusPorcelain(repo)).to.equal('');
      expect((await readEntry('posts', 'hand-made')).attributes).to.include({ id: 'hand-made-0001', title: 'Hand Made, Then API' });
    });
  });
});
