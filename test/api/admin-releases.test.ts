// Releases (issue 16 item 2): POST /admin/api/releases tags HEAD with an
// annotated tag by the actor with the note, GET lists releases (tags made
// with plain git too), DELETE removes one; the releases.* grants guard them,
// the grant editor's catalogue lists them, and a clone over HTTP has the tag.
import { expect } from 'chai';
import { userWithGrants } from '../helpers/admin-users.ts';
import { adminRequest, buildAdminServer, FULL_ACCESS, type AdminSession } from '../helpers/auth.ts';
import { cloneFrom, mustGit, removeFolders, repoUrl } from '../helpers/git-client.ts';
import { contentRepoOf, git, headOid } from '../helpers/git.ts';
import type { TestServer } from '../helpers/server.ts';

const RELEASE_KEYS = ['name', 'commit', 'note', 'actor', 'created_at'];

describe('admin API: releases', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: AdminSession;
  let adminId: string;
  let token: string;
  let repo: string;

  before(async () => {
    ({ server, admin, adminId, token } = await buildAdminServer({ token: FULL_ACCESS }));
    repo = contentRepoOf(server.dataDir);
    const created = await server.request('POST', '/api/v1/workspaces/default/content-types', { body: { name: 'posts' }, token });
    expect(created.status, created.text).to.equal(201);
  });

  after(async () => {
    await server.close();
    await removeFolders();
  });

  it('tags HEAD with an annotated tag by the signed-in user, with the note as its message', async () => {
    const head = await headOid(repo);
    const created = await adminRequest(server, admin, 'POST', '/releases', { name: 'v1', note: 'Launch content.\n\nReviewed by the team.' });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data).to.have.all.keys(...RELEASE_KEYS);
    expect(created.body.data).to.include({ name: 'v1', commit: head, note: 'Launch content.\n\nReviewed by the team.' });
    expect(created.body.data.actor).to.deep.equal({ id: adminId, name: 'admin' });
    expect(Date.parse(created.body.data.created_at)).to.not.be.NaN;

    expect((await git(repo, ['cat-file', '-t', 'v1'])).trim()).to.equal('tag');
    expect((await git(repo, ['rev-parse', 'v1^{commit}'])).trim()).to.equal(head);
    const tag = await git(repo, ['cat-file', '-p', 'v1']);
    expect(tag).to.match(/^tagger admin <admin@users\.cms\.local> /m);
    expect(tag).to.contain('Release v1\n\nLaunch content.\n\nReviewed by the team.\n\nActor: ');
  });

  it('lists releases, tags made with plain git included', async () => {
    await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Later' }, token });
    await git(repo, ['tag', 'hand-made']);
    const created = await adminRequest(server, admin, 'POST', '/releases', { name: 'site/v2' });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.note).to.equal(null);

    const list = await adminRequest(server, admin, 'GET', '/releases');
    expect(list.status).to.equal(200);
    const names = list.body.data.map((release: { name: string }) => release.name);
    expect(names).to.include.members(['v1', 'site/v2', 'hand-made']);
    expect(list.body.meta.total).to.equal(list.body.data.length);
    const handMade = list.body.data.find((release: { name: string }) => release.name === 'hand-made');
    expect(handMade).to.deep.include({ commit: await headOid(repo), note: null, actor: { id: null, name: null } });
    for (const release of list.body.data) expect(release).to.have.all.keys(...RELEASE_KEYS);
  });

  it('answers 409 conflict for a name that exists, and leaves the tag as it was', async () => {
    const before = (await git(repo, ['rev-parse', 'v1'])).trim();
    const again = await adminRequest(server, admin, 'POST', '/releases', { name: 'v1', note: 'other' });
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('conflict');
    expect((await git(repo, ['rev-parse', 'v1'])).trim()).to.equal(before);
  });

  it('answers 422 validation_failed for names git refuses, hex-only names and bad notes or bodies, and tags nothing', async () => {
    const tagsBefore = await git(repo, ['tag', '-l']);
    const cases: Array<[unknown, string]> = [
      [{ name: 'bad..name' }, 'name'],
      [{ name: '-rf' }, 'name'],
      [{ name: 'with space' }, 'name'],
      [{ name: 'x.lock' }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'abc1234' }, 'name'],
      [{ name: 'HEAD' }, 'name'],
      [{ name: 'ok-name', note: 'bell\u0007' }, 'note'],
      [{ name: 'ok-name', note: 'x'.repeat(10_001) }, 'note'],
      [{}, 'name'],
      [{ name: 'ok-name', extra: true }, 'extra'],
      [{ name: 5 }, 'name'],
    ];
    for (const [body, field] of cases) {
      const response = await adminRequest(server, admin, 'POST', '/releases', body);
      expect(response.status, JSON.stringify(body)).to.equal(422);
      expect(response.body.error.code).to.equal('validation_failed');
      expect(response.body.error.fields).to.have.property(field);
    }
    expect(await git(repo, ['tag', '-l'])).to.equal(tagsBefore);
  });

  it('deletes a release, a name with a slash sent as %2F, and answers 404 for an unknown one', async () => {
    const removed = await adminRequest(server, admin, 'DELETE', '/releases/site%2Fv2');
    expect(removed.status, removed.text).to.equal(200);
    // As every delete of the API (SPEC: 200 `data` = `{ ok }`), not 204.
    expect(removed.body).to.deep.equal({ data: { ok: true } });
    expect(await git(repo, ['tag', '-l', 'site/v2'])).to.equal('');
    for (const name of ['site%2Fv2', 'never-made', 'bad..name']) {
      const missing = await adminRequest(server, admin, 'DELETE', `/releases/${name}`);
      expect(missing.status, name).to.equal(404);
      expect(missing.body.error.code).to.equal('not_found');
    }
  });

  it('deletes a tag that git gc packed', async () => {
    expect((await adminRequest(server, admin, 'POST', '/releases', { name: 'packed-one' })).status).to.equal(201);
    await git(repo, ['pack-refs', '--all']);
    expect((await adminRequest(server, admin, 'DELETE', '/releases/packed-one')).status).to.equal(200);
    expect(await git(repo, ['tag', '-l', 'packed-one'])).to.equal('');
  });

  it('needs releases.read to list, releases.create to create and releases.delete to delete', async () => {
    const { session: reader } = await userWithGrants(server, admin, 'release-reader', [{ effect: 'allow', actions: ['releases.read'], resources: ['*'] }]);
    expect((await adminRequest(server, reader, 'GET', '/releases')).status).to.equal(200);
    const create = await adminRequest(server, reader, 'POST', '/releases', { name: 'not-allowed' });
    expect(create.status).to.equal(403);
    expect(create.body.error.code).to.equal('forbidden');
    const remove = await adminRequest(server, reader, 'DELETE', '/releases/v1');
    expect(remove.status).to.equal(403);
    expect(remove.body.error.code).to.equal('forbidden');

    const { session: nobody } = await userWithGrants(server, admin, 'release-nobody', [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
    const list = await adminRequest(server, nobody, 'GET', '/releases');
    expect(list.status).to.equal(403);
    expect(list.body.error.code).to.equal('forbidden');

    const { session: maker } = await userWithGrants(server, admin, 'release-maker', [{ effect: 'allow', actions: ['releases.create', 'releases.delete'], resources: ['releases:*'] }]);
    expect((await adminRequest(server, maker, 'POST', '/releases', { name: 'by-maker' })).status).to.equal(201);
    expect((await adminRequest(server, maker, 'DELETE', '/releases/by-maker')).status).to.equal(200);
    expect(await git(repo, ['tag', '-l', 'not-allowed', 'by-maker'])).to.equal('');
  });

  it('offers the releases actions in the grant editor catalogue and in the signed-in user\'s capabilities', async () => {
    const catalogue = await adminRequest(server, admin, 'GET', '/grant-actions');
    const area = catalogue.body.data.find((item: { area: string }) => item.area === 'releases');
    expect(area.actions).to.deep.equal(['releases.read', 'releases.create', 'releases.delete']);
    const role = await adminRequest(server, admin, 'POST', '/roles', { id: 'releaser', label: 'Releaser', permissions: [{ effect: 'allow', actions: ['releases.*'], resources: ['releases:*'] }] });
    expect(role.status, role.text).to.equal(201);
    const me = await adminRequest(server, admin, 'GET', '/me');
    expect(me.body.meta.can).to.include({ 'releases.read': true, 'releases.create': true, 'releases.delete': true });
  });

  it('is in a clone over HTTP: the annotated tag with its message', async () => {
    const work = await cloneFrom(repoUrl(server.baseUrl, token));
    expect((await mustGit(work, ['cat-file', '-t', 'v1'])).trim()).to.equal('tag');
    expect(await mustGit(work, ['tag', '-l', '--format=%(contents:subject)', 'v1'])).to.equal('Release v1\n');
    expect((await mustGit(work, ['rev-parse', 'v1^{commit}'])).trim()).to.equal((await git(repo, ['rev-parse', 'v1^{commit}'])).trim());
  });

  it('answers 401 unauthenticated without a session', async () => {
    const response = await server.request('GET', '/admin/api/releases');
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('unauthenticated');
  });
});

describe('admin API: releases without the git CLI', () => {
  let server: TestServer;
  let admin: AdminSession;
  let repo: string;

  before(async () => {
    ({ server, admin } = await buildAdminServer({ env: { CMS_GIT_PATH: '/nonexistent/git' } }));
    repo = contentRepoOf(server.dataDir);
  });
  after(() => server.close());

  it('answers 503 git_unavailable, while reads at a ref still work', async () => {
    for (const [method, url, body] of [['GET', '/releases'], ['POST', '/releases', { name: 'v1' }], ['DELETE', '/releases/v1']] as const) {
      const response = await adminRequest(server, admin, method, url, body);
      expect(response.status, `${method} ${url}`).to.equal(503);
      expect(response.body.error.code).to.equal('git_unavailable');
    }
    const head = await headOid(repo);
    const atHead = await server.request('GET', `/api/v1/workspaces/default/content-types?ref=${head}`);
    expect(atHead.status).to.equal(200);
  });
});

