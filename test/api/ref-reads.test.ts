// Reads at a ref (issue 16 item 2, API.md "Changes feed and reads at a
// ref"): the public type and entry reads with ?ref= a full or abbreviated
// commit id, a tag, a release or a branch answer the content as it was
// there, read from git, with filters, sort, q, include and visibility as at
// HEAD; full commit ids are immutable; unknown refs are 404, malformed 400.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { contentRepoOf, externalCommit, fileAt, git, headOid } from '../helpers/git.ts';
import type { TestResponse, TestServer } from '../helpers/server.ts';

const ROOT = '/api/v1/workspaces/default';
const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('public API: reads at a ref', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let token: string;
  let repo: string;
  // The commit earlier the changes, and the ids of what it held.
  let earlier: string;
  const ids: Record<string, string> = {};

  const read = (url: string, options: { token?: string; headers?: Record<string, string> } = {}): Promise<TestResponse> => server.request('GET', `${ROOT}${url}`, options);
  const write = async (method: string, url: string, body?: unknown): Promise<TestResponse> => {
    const response = await server.request(method, `${ROOT}${url}`, { body, token });
    expect(response.status, response.text).to.be.oneOf([200, 201]);
    return response;
  };
  const titles = (response: TestResponse): string[] => response.body.data.map((entry: { title: string }) => entry.title);

  before(async () => {
    ({ server, admin, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    await write('POST', '/content-types', { name: 'authors', fields: { bio: { type: 'text' } } });
    await write('POST', '/content-types', { name: 'posts', fields: { category: { type: 'text' }, views: { type: 'number' }, author: { type: 'relation', target: 'authors' } } });
    ids.ada = (await write('POST', '/content/authors', { title: 'Ada', status: 'published' })).body.data.id;
    ids.alpha = (await write('POST', '/content/posts', { title: 'Alpha news', status: 'published', category: 'news', views: 10, author: ids.ada })).body.data.id;
    ids.beta = (await write('POST', '/content/posts', { title: 'Beta blog', status: 'published', category: 'blog', views: 5 })).body.data.id;
    ids.gamma = (await write('POST', '/content/posts', { title: 'Gamma draft', category: 'news', views: 1 })).body.data.id;
    await write('POST', '/content-types', { name: 'secrets', visibility: 'private' });
    await write('POST', '/content/secrets', { title: 'Hidden plan', status: 'published' });
    earlier = await headOid(repo);

    await write('PATCH', `/content/posts/${ids.alpha}`, { title: 'Alpha renamed', views: 1 });
    await write('DELETE', `/content/posts/${ids.beta}`);
    await write('POST', '/content/posts', { title: 'Delta new', status: 'published', category: 'news', views: 7 });
    await write('PATCH', `/content/authors/${ids.ada}`, { title: 'Ada Lovelace' });
    await write('PUT', '/content-types/posts', { fields: { category: { type: 'text' }, views: { type: 'number' }, author: { type: 'relation', target: 'authors' }, summary: { type: 'text' } } });
  });

  after(() => server.close());

  it('lists entries as they were at a full commit id, while HEAD lists the current ones', async () => {
    const then = await read(`/content/posts?ref=${earlier}&sort=title`);
    expect(then.status, then.text).to.equal(200);
    expect(titles(then)).to.deep.equal(['Alpha news', 'Beta blog']);
    expect(then.body.meta).to.include({ total: 2 });
    const now = await read('/content/posts?sort=title');
    expect(titles(now)).to.deep.equal(['Alpha renamed', 'Delta new']);
  });

  it('filters, sorts, searches and includes relations at the ref', async () => {
    const filtered = await read(`/content/posts?ref=${earlier}&filter[category]=news`);
    expect(titles(filtered)).to.deep.equal(['Alpha news']);
    const sorted = await read(`/content/posts?ref=${earlier}&sort=-views`);
    expect(titles(sorted)).to.deep.equal(['Alpha news', 'Beta blog']);
    const searched = await read(`/content/posts?ref=${earlier}&q=blog`);
    expect(titles(searched)).to.deep.equal(['Beta blog']);
    expect(titles(await read('/content/posts?q=blog'))).to.deep.equal([]);
    const included = await read(`/content/posts/${ids.alpha}?ref=${earlier}&include=author`);
    expect(included.status, included.text).to.equal(200);
    expect(included.body.data.data.author).to.include({ id: ids.ada, title: 'Ada' });
  });

  it('reads one entry that has been deleted since, by id and by slug', async () => {
    const byId = await read(`/content/posts/${ids.beta}?ref=${earlier}`);
    expect(byId.status, byId.text).to.equal(200);
    expect(byId.body.data).to.include({ title: 'Beta blog', slug: 'beta-blog' });
    expect((await read(`/content/posts/beta-blog?ref=${earlier}`)).status).to.equal(200);
    const now = await read(`/content/posts/${ids.beta}`);
    expect(now.status).to.equal(404);
    expect(now.body.error.code).to.equal('not_found');
  });

  it('answers the content types as they were', async () => {
    const list = await read(`/content-types?ref=${earlier}`);
    expect(list.status, list.text).to.equal(200);
    const posts = list.body.data.find((type: { name: string }) => type.name === 'posts');
    expect(posts.fields).to.not.have.property('summary');
    const one = await read(`/content-types/posts?ref=${earlier}`);
    expect(one.status).to.equal(200);
    expect(one.body.data.fields).to.have.all.keys('category', 'views', 'author');
    expect((await read('/content-types/posts')).body.data.fields).to.have.property('summary');
    expect(one.headers.get('cache-control')).to.equal(IMMUTABLE);
    expect(one.headers.get('etag')).to.be.a('string');
  });

  it('marks answers for a full commit id immutable with an ETag, and answers 304 to If-None-Match', async () => {
    const first = await read(`/content/posts?ref=${earlier}`);
    expect(first.headers.get('cache-control')).to.equal(IMMUTABLE);
    const etag = first.headers.get('etag');
    expect(etag).to.be.a('string');
    const again = await read(`/content/posts?ref=${earlier}`, { headers: { 'if-none-match': etag as string } });
    expect(again.status).to.equal(304);
    const one = await read(`/content/posts/${ids.alpha}?ref=${earlier}`);
    expect(one.headers.get('cache-control')).to.equal(IMMUTABLE);
    // A current answer names no lifetime.
    expect((await read('/content/posts')).headers.get('cache-control')).to.equal(null);
  });

  it('accepts an abbreviated commit id, answered with the normal caching', async () => {
    const short = await read(`/content/posts?ref=${earlier.slice(0, 10)}&sort=title`);
    expect(short.status, short.text).to.equal(200);
    expect(titles(short)).to.deep.equal(['Alpha news', 'Beta blog']);
    expect(short.headers.get('cache-control')).to.equal(null);
  });

  it('reads a branch (main is the current content) and a tag made with plain git', async () => {
    const main = await read('/content/posts?ref=main&sort=title');
    expect(main.status, main.text).to.equal(200);
    expect(titles(main)).to.deep.equal(['Alpha renamed', 'Delta new']);
    expect(main.headers.get('cache-control')).to.equal(null);
    await git(repo, ['tag', 'before-changes', earlier]);
    const tagged = await read('/content/posts?ref=before-changes&sort=title');
    expect(titles(tagged)).to.deep.equal(['Alpha news', 'Beta blog']);
    expect(tagged.headers.get('cache-control')).to.equal(null);
  });

  it('reads a release made through the admin API, which then keeps its content while HEAD moves on', async () => {
    const release = await adminRequest(server, admin, 'POST', '/releases', { name: 'site-1', note: 'First build' });
    expect(release.status, release.text).to.equal(201);
    await write('POST', '/content/posts', { title: 'Epsilon later', status: 'published', category: 'blog', views: 3 });
    const atRelease = await read('/content/posts?ref=site-1&sort=title');
    expect(titles(atRelease)).to.deep.equal(['Alpha renamed', 'Delta new']);
    expect(titles(await read('/content/posts?sort=title'))).to.deep.equal(['Alpha renamed', 'Delta new', 'Epsilon later']);
  });

  it('answers a full id of HEAD from the current content, immutable too', async () => {
    await write('PATCH', `/content/posts/${ids.alpha}`, { views: 2 });
    const head = await headOid(repo);
    const response = await read(`/content/posts/${ids.alpha}?ref=${head}`);
    expect(response.status).to.equal(200);
    expect(response.body.data.data.views).to.equal(2);
    expect(response.headers.get('cache-control')).to.equal(IMMUTABLE);
  });

  it('keeps drafts hidden at a ref from anonymous readers and shows them to a token, privately cached', async () => {
    const anonymous = await read(`/content/posts/${ids.gamma}?ref=${earlier}`);
    expect(anonymous.status).to.equal(404);
    expect(anonymous.body.error.code).to.equal('not_found');
    const withToken = await read(`/content/posts?ref=${earlier}&sort=title`, { token });
    expect(titles(withToken)).to.deep.equal(['Alpha news', 'Beta blog', 'Gamma draft']);
    expect(withToken.headers.get('cache-control')).to.equal('private, max-age=31536000, immutable');
  });

  it('keeps private types hidden at a ref from anonymous readers, as at HEAD', async () => {
    const types = await read(`/content-types?ref=${earlier}`);
    expect(types.body.data.map((type: { name: string }) => type.name)).to.not.include('secrets');
    expect((await read(`/content-types?ref=${earlier}`, { token })).body.data.map((type: { name: string }) => type.name)).to.include('secrets');
    for (const url of ['/content-types/secrets', '/content/secrets']) {
      const atRef = await read(`${url}?ref=${earlier}`);
      const atHead = await read(url);
      expect(atHead.status, url).to.be.oneOf([401, 403, 404]);
      expect(atRef.status, url).to.equal(atHead.status);
      expect(atRef.body.error.code).to.equal(atHead.body.error.code);
      expect(atRef.headers.get('cache-control'), url).to.equal(null);
    }
    expect(titles(await read(`/content/secrets?ref=${earlier}`, { token }))).to.deep.equal(['Hidden plan']);
  });

  it('caches an answer with a scheduled entry still ahead only until it goes public, not as immutable', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await write('POST', '/content/posts', { title: 'Zeta scheduled', status: 'scheduled', published_at: at, category: 'news', views: 0 });
    const commit = await headOid(repo);
    // Another commit, so the scheduled one is read from git rather than from memory.
    await write('PATCH', `/content/posts/${ids.alpha}`, { views: 3 });
    const response = await read(`/content/posts?ref=${commit}`);
    expect(response.status).to.equal(200);
    expect(titles(response)).to.not.include('Zeta scheduled');
    const cacheControl = response.headers.get('cache-control') ?? '';
    expect(cacheControl).to.match(/^public, max-age=\d+$/);
    expect(Number(cacheControl.split('=')[1])).to.be.within(1, 3600);
  });

  it('still answers older commits after more commits than the cache holds were read', async () => {
    const commits = (await git(repo, ['rev-list', '--max-count=7', 'HEAD'])).trim().split('\n');
    for (const commit of [...commits, earlier]) {
      const response = await read(`/content-types?ref=${commit}`);
      expect(response.status, `${commit}: ${response.text}`).to.equal(200);
    }
    expect(titles(await read(`/content/posts?ref=${earlier}&sort=title`))).to.deep.equal(['Alpha news', 'Beta blog']);
  });

  it('resolves abbreviated ids and tags after git gc packed the objects and refs, and HEAD', async () => {
    await git(repo, ['tag', 'packed-tag', earlier]);
    await git(repo, ['gc', '--quiet']);
    expect(await git(repo, ['count-objects', '-v'])).to.match(/^count: 0$/m);
    for (const ref of [earlier.slice(0, 7), earlier.slice(0, 7).toUpperCase(), 'packed-tag', 'refs/tags/packed-tag']) {
      const response = await read(`/content/posts?ref=${ref}&sort=title`);
      expect(response.status, `${ref}: ${response.text}`).to.equal(200);
      expect(titles(response), ref).to.deep.equal(['Alpha news', 'Beta blog']);
    }
    const head = await read('/content/posts?ref=HEAD&sort=title');
    expect(head.status).to.equal(200);
    expect(titles(head)).to.deep.equal(titles(await read('/content/posts?sort=title')));
    expect(head.headers.get('cache-control')).to.equal(null);
  });

  it('answers 400 invalid_request for an abbreviated id that two commits share', async () => {
    const [first, second, prefix] = twoCommitsSharingAPrefix(repo);
    expect(first.slice(0, 7)).to.equal(second.slice(0, 7));
    const response = await read(`/content/posts?ref=${prefix}`);
    expect(response.status).to.equal(400);
    expect(response.body.error.code).to.equal('invalid_request');
    expect(response.body.error.fields).to.have.property('ref');
    // One digit more than they share tells them apart.
    const longer = first.slice(0, first.split('').findIndex((digit, at) => digit !== second[at]) + 1);
    // (Both hold no workspace, so their reads are 404 either way; the resolution itself is what differs.)
    expect(await server.services.repo.resolveRevision(longer)).to.deep.equal({ commit: first, kind: 'abbreviated' });
  });

  it('answers 404 not_found for a ref the repository does not have', async () => {
    for (const ref of ['no-such-branch', '0'.repeat(40), 'deadbeef1', 'refs/tags/nothing']) {
      for (const url of [`/content/posts?ref=${ref}`, `/content/posts/${ids.alpha}?ref=${ref}`, `/content-types?ref=${ref}`, `/content-types/posts?ref=${ref}`]) {
        const response = await read(url);
        expect(response.status, url).to.equal(404);
        expect(response.body.error.code).to.equal('not_found');
      }
    }
  });

  it('answers 400 invalid_request for a malformed ref, naming the parameter', async () => {
    for (const ref of ['a..b', '-main', 'a%20b', 'x~1', 'x^', 'a:b', 'a%01b', 'main.lock', '.hidden', 'a//b', 'a/', 'x@{1}', '', 'ref[0]']) {
      const response = await read(`/content/posts?ref=${ref}`);
      expect(response.status, ref).to.equal(400);
      expect(response.body.error.code).to.equal('invalid_request');
      expect(response.body.error.fields).to.have.property('ref');
    }
    const repeated = await read(`/content/posts?ref=main&ref=main`);
    expect(repeated.status).to.equal(400);
    expect((await read(`/content-types?ref=a..b`)).status).to.equal(400);
  });

  it('leaves the admin API and writes without ref', async () => {
    // The admin entry list does not read `ref`: it answers the current content.
    const adminList = await adminRequest(server, admin, 'GET', `/content/posts?ref=${earlier}&sort=title`);
    expect(adminList.status).to.equal(200);
    expect(adminList.body.data.map((entry: { title: string }) => entry.title)).to.include('Delta new');
  });
});

describe('public API: reads at a ref while a commit made with git is not taken in yet', function () {
  this.timeout(60_000);
  let server: TestServer;
  let token: string;
  let repo: string;

  before(async () => {
    // The watch for outside commits runs only once a minute here, so the indexes stay behind HEAD during the test.
    ({ server, token } = await buildAdminServer({ token: FULL_ACCESS, env: { CMS_WATCH_INTERVAL_MS: '60000' } }));
    repo = contentRepoOf(server.dataDir);
    expect((await server.request('POST', `${ROOT}/content-types`, { body: { name: 'posts' }, token })).status).to.equal(201);
    expect((await server.request('POST', `${ROOT}/content/posts`, { body: { title: 'Old title', slug: 'hello', status: 'published' }, token })).status).to.equal(201);
  });
  after(() => server.close());

  it('answers the new commit\'s id with its own content, never the older indexes under an immutable header', async () => {
    const indexed = await headOid(repo);
    const file = 'default/entries/posts/hello.md';
    const changed = (await fileAt(repo, file)).replace('title: Old title', 'title: New title');
    expect(changed).to.contain('New title');
    const commit = await externalCommit(repo, { write: { [file]: changed } }, 'Retitle hello with git');

    const atCommit = await server.request('GET', `${ROOT}/content/posts/hello?ref=${commit}`);
    expect(atCommit.status, atCommit.text).to.equal(200);
    expect(atCommit.body.data.title).to.equal('New title');
    expect(atCommit.headers.get('cache-control')).to.equal(IMMUTABLE);
    const atIndexed = await server.request('GET', `${ROOT}/content/posts/hello?ref=${indexed}`);
    expect(atIndexed.body.data.title).to.equal('Old title');
    expect(atIndexed.headers.get('cache-control')).to.equal(IMMUTABLE);
  });
});

// Two commit objects (of the empty tree, stored but on no branch) whose ids
// share their first 7 hex digits, found by hashing candidate bodies (about
// 20,000 hashes, the birthday bound of 16^7) and written with git hash-object.
function twoCommitsSharingAPrefix(repo: string): [string, string, string] {
  const emptyTree = execFileSync('git', ['mktree'], { cwd: repo, input: '' }).toString().trim();
  const bodyOf = (n: number) => `tree ${emptyTree}\nauthor A <a@example.com> 0 +0000\ncommitter A <a@example.com> 0 +0000\n\nCandidate ${n}\n`;
  const seen = new Map<string, number>();
  for (let n = 0; ; n += 1) {
    const body = bodyOf(n);
    const prefix = createHash('sha1').update(`commit ${Buffer.byteLength(body)}\0${body}`).digest('hex').slice(0, 7);
    const other = seen.get(prefix);
    if (other === undefined) {
      seen.set(prefix, n);
      continue;
    }
    const [first, second] = [other, n].map((candidate) => execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: repo, input: bodyOf(candidate) }).toString().trim());
    return [first, second, prefix];
  }
}

