// Sites built from the content repo with real generators (docs/static-sites.md):
// Hugo (Debian's package) and Eleventy (from npm) pointed at the entries folder
// of a server's repo, with the configuration lines the doc names. Each
// published page is built once per language with its date, tags and image;
// drafts, scheduled entries and private files stay out.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fullAccessToken } from '../helpers/auth.ts';
import { serverIndexSettled } from '../helpers/git.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makePng, uploadMedia } from './media-fixtures.ts';

const run = promisify(execFile);
const ROOT = '/api/v1/workspaces/default';
const HUGO = process.env.HUGO_PATH ?? 'hugo';
const hugoInstalled = await run(HUGO, ['version']).then(() => true, () => false);

describe('static site generators building from the content repo', function () {
  this.timeout(120_000);
  let server: TestServer;
  let token: string;
  let site: string;
  let repo: string;

  before(async () => {
    server = await startTestServer();
    token = await fullAccessToken(server);
    repo = path.join(server.dataDir, 'content');
    site = await mkdtemp(path.join(os.tmpdir(), 'cms-site-'));
    const send = async (method: string, url: string, body: Record<string, unknown>) => {
      const response = await server.request(method, `${ROOT}${url}`, { body, token });
      expect(response.status, response.text).to.be.oneOf([200, 201]);
      return response.body.data;
    };
    await send('POST', '/content-types', {
      name: 'posts',
      locales: ['en', 'de'],
      default_locale: 'en',
      fields: { body: { type: 'markdown' }, tags: { type: 'select', multiple: true, options: [{ value: 'news', label: 'News' }, { value: 'tech', label: 'Tech' }] }, cover: { type: 'media' } },
    });
    const uploaded = await uploadMedia(server, [{ filename: 'cover.png', bytes: await makePng(40, 20) }, { filename: 'secret.png', bytes: await makePng(10, 10) }], { token });
    expect(uploaded.status, uploaded.text).to.equal(201);
    await send('PUT', '/media/secret.png/visibility', { visibility: 'private' });
    await send('POST', '/content/posts', { title: 'Hello World', slug: 'hello', status: 'published', body: 'The **first** post.', tags: ['news', 'tech'], cover: ['cover.png'] });
    await send('PATCH', '/content/posts/hello', { locale: 'de', title: 'Hallo Welt', body: 'Der erste Beitrag.' });
    await send('POST', '/content/posts', { title: 'Secret Draft', slug: 'secret', status: 'draft', body: 'Not yet.' });
    await send('POST', '/content/posts', { title: 'From The Future', slug: 'future', status: 'scheduled', published_at: '2030-01-01T00:00:00.000Z', body: 'Later.' });
    await send('PATCH', '/content/posts/future', { locale: 'de', title: 'Aus der Zukunft' });
  });
  after(async () => {
    await server.close();
    await rm(site, { recursive: true, force: true });
  });

  /** Every built HTML page under `dir`, as paths relative to it. */
  async function htmlPages(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true });
    return entries.filter((name) => name.endsWith('.html')).sort();
  }

  async function builtText(dir: string): Promise<string> {
    const pages = await htmlPages(dir);
    return (await Promise.all(pages.map((page) => readFile(path.join(dir, page), 'utf8')))).join('\n');
  }

  (hugoInstalled ? describe : describe.skip)('Hugo', () => {
    let out: string;

    before(async () => {
      const hugoSite = path.join(site, 'hugo');
      out = path.join(site, 'hugo-out');
      await mkdir(path.join(hugoSite, 'layouts/_default'), { recursive: true });
      // The site's own multilingual set-up plus the two lines docs/static-sites.md names (contentDir, staticDir).
      await writeFile(path.join(hugoSite, 'hugo.toml'), [
        'baseURL = "https://example.org/"',
        'defaultContentLanguage = "en"',
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]',
        `contentDir = ${JSON.stringify(path.join(repo, 'default/entries'))}`,
        `staticDir = ["static", ${JSON.stringify(path.join(repo, 'default/public'))}]`,
        '[languages.en]', 'weight = 1', '[languages.de]', 'weight = 2',
      ].join('\n'));
      await writeFile(path.join(hugoSite, 'layouts/_default/single.html'),
        '<h1>{{ .Title }}</h1><time>{{ .Date.Format "2006-01-02" }}</time><ul>{{ range .Params.tags }}<li>{{ . }}</li>{{ end }}</ul><img src="/media/{{ .Params.cover }}">{{ .Content }}');
      await writeFile(path.join(hugoSite, 'layouts/_default/list.html'), '{{ range .Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}');
      await run(HUGO, ['--source', hugoSite, '--destination', out, '--quiet']);
    });

    it('builds each published entry once per language, each page with its title, date, tags and body', async () => {
      const pages = (await htmlPages(out)).filter((page) => page.includes('posts/') && !page.endsWith('posts/index.html'));
      expect(pages).to.deep.equal(['de/posts/hello/index.html', 'posts/hello/index.html']);
      const english = await readFile(path.join(out, 'posts/hello/index.html'), 'utf8');
      const german = await readFile(path.join(out, 'de/posts/hello/index.html'), 'utf8');
      const today = new Date().toISOString().slice(0, 10);
      expect(english).to.contain('<h1>Hello World</h1>').and.contain(`<time>${today}</time>`).and.contain('<li>news</li><li>tech</li>').and.contain('<strong>first</strong>');
      expect(german).to.contain('<h1>Hallo Welt</h1>').and.contain(`<time>${today}</time>`).and.contain('<li>news</li><li>tech</li>').and.contain('Der erste Beitrag.');
      expect(german, 'the German page has the shared image too').to.contain('<img src="/media/cover.png">');
    });

    it('leaves out the draft and the scheduled entry in every language', async () => {
      const text = await builtText(out);
      expect(text).to.not.contain('Secret Draft').and.not.contain('From The Future').and.not.contain('Aus der Zukunft');
    });

    it('copies the public image the entry uses into the site, and no private file', async () => {
      const cover = await readFile(path.join(out, 'media/cover.png'));
      expect(cover.subarray(1, 4).toString()).to.equal('PNG');
      expect(existsSync(path.join(out, 'media/secret.png'))).to.equal(false);
    });
  });
  if (!hugoInstalled) it('builds with Hugo: install it with `apt-get install -y hugo` (or set HUGO_PATH)');

  describe('Eleventy', () => {
    let out: string;

    before(async () => {
      const eleventySite = path.join(site, 'eleventy');
      out = path.join(site, 'eleventy-out');
      await mkdir(path.join(eleventySite, '_includes'), { recursive: true });
      await writeFile(path.join(eleventySite, '_includes/page.njk'),
        '<h1>{{ title }}</h1><time>{{ page.date.toISOString().slice(0, 10) }}</time><ul>{% for tag in tags %}<li>{{ tag }}</li>{% endfor %}</ul><img src="/media/{{ cover }}">{{ content | safe }}');
      // The one line docs/static-sites.md names (drafts stay out), the image folder, and the site's own layout.
      await writeFile(path.join(eleventySite, 'eleventy.config.mjs'), [
        'export default function (eleventyConfig) {',
        '  eleventyConfig.addPreprocessor("drafts", "md", (data) => (data.draft ? false : undefined));',
        `  eleventyConfig.addPassthroughCopy({ ${JSON.stringify(path.join(repo, 'default/public/media'))}: "media" });`,
        '  eleventyConfig.addGlobalData("layout", "page.njk");',
        '}',
        `export const config = { dir: { input: ${JSON.stringify(path.join(repo, 'default/entries'))}, includes: ${JSON.stringify(path.relative(path.join(repo, 'default/entries'), path.join(eleventySite, '_includes')))}, output: ${JSON.stringify(out)} } };`,
      ].join('\n'));
      const bin = path.resolve('node_modules/.bin/eleventy');
      await run(bin, ['--config', path.join(eleventySite, 'eleventy.config.mjs'), '--quiet'], { cwd: eleventySite });
    });

    it('builds each published entry once per language, each page with its title, date, tags and body', async () => {
      const pages = await htmlPages(out);
      expect(pages).to.deep.equal(['posts/hello.de/index.html', 'posts/hello/index.html']);
      const today = new Date().toISOString().slice(0, 10);
      const english = await readFile(path.join(out, 'posts/hello/index.html'), 'utf8');
      const german = await readFile(path.join(out, 'posts/hello.de/index.html'), 'utf8');
      expect(english).to.contain('<h1>Hello World</h1>').and.contain(`<time>${today}</time>`).and.contain('<li>news</li><li>tech</li>').and.contain('<strong>first</strong>');
      expect(german).to.contain('<h1>Hallo Welt</h1>').and.contain(`<time>${today}</time>`).and.contain('<li>news</li><li>tech</li>').and.contain('Der erste Beitrag.');
      expect(german).to.contain('<img src="/media/cover.png">');
    });

    it('leaves out the draft and the scheduled entry in every language', async () => {
      const text = await builtText(out);
      expect(text).to.not.contain('Secret Draft').and.not.contain('From The Future').and.not.contain('Aus der Zukunft');
    });

    it('copies the public image into the site, and no private file', async () => {
      expect((await readFile(path.join(out, 'media/cover.png'))).subarray(1, 4).toString()).to.equal('PNG');
      expect(existsSync(path.join(out, 'media/secret.png'))).to.equal(false);
    });
  });

  describe('public files uploaded while copies were off', () => {
    it('get their copy in the repo at the next start, in one commit; private files do not', async () => {
      let other = await startTestServer({ env: { CMS_MEDIA_IN_REPO: '0' } });
      const otherToken = await fullAccessToken(other);
      const otherRepo = path.join(other.dataDir, 'content');
      const uploaded = await uploadMedia(other, [{ filename: 'old.png', bytes: await makePng(12, 12) }, { filename: 'hidden.png', bytes: await makePng(8, 8) }], { token: otherToken });
      expect(uploaded.status, uploaded.text).to.equal(201);
      const hidden = await other.request('PUT', `${ROOT}/media/hidden.png/visibility`, { body: { visibility: 'private' }, token: otherToken });
      expect(hidden.status).to.equal(200);
      expect(existsSync(path.join(otherRepo, 'default/public/media/old.png'))).to.equal(false);
      await other.close({ keepData: true });
      other = await startTestServer({ dataDir: other.dataDir });
      try {
        expect((await readFile(path.join(otherRepo, 'default/public/media/old.png'))).subarray(1, 4).toString()).to.equal('PNG');
        expect(existsSync(path.join(otherRepo, 'default/public/media/hidden.png'))).to.equal(false);
        const { stdout } = await run('git', ['-C', otherRepo, 'log', '-1', '--format=%s', '--name-only']);
        expect(stdout.trim().split('\n').filter(Boolean)).to.deep.equal(['Copy 1 public media file into the repo', 'default/public/media/old.png']);
        expect((await run('git', ['-C', otherRepo, 'status', '--porcelain'])).stdout).to.equal('');
      } finally {
        await other.close();
      }
    });
  });

  describe('a scheduled entry coming due', () => {
    it('is published at a later tick when git held the repository at its time', async () => {
      const dueAt = new Date(Date.now() + 1000).toISOString();
      const created = await server.request('POST', `${ROOT}/content/posts`, { body: { title: 'Later', slug: 'later', status: 'scheduled', published_at: dueAt }, token });
      expect(created.status, created.text).to.equal(201);
      await serverIndexSettled(repo);
      // What a git command in the content folder holds while it runs.
      await writeFile(path.join(repo, '.git/index.lock'), '', { flag: 'wx' });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const failed = await server.services.scheduler.tick().then(() => undefined, (error: unknown) => error);
      expect(failed).to.have.property('code', 'conflict');
      await rm(path.join(repo, '.git/index.lock'));
      expect(await server.services.scheduler.tick()).to.equal(1);
      expect(await readFile(path.join(repo, 'default/entries/posts/later.md'), 'utf8')).to.match(/^draft: false$/m);
      const { stdout } = await run('git', ['-C', repo, 'log', '-1', '--format=%s']);
      expect(stdout.trim()).to.equal('Publish posts/later');
    });

    it('is rewritten with draft: false in every locale file by the scheduler, in one commit', async () => {
      const dueAt = new Date(Date.now() + 1500).toISOString();
      const created = await server.request('POST', `${ROOT}/content/posts`, { body: { title: 'Soon', slug: 'soon', status: 'scheduled', published_at: dueAt }, token });
      expect(created.status, created.text).to.equal(201);
      await server.request('PATCH', `${ROOT}/content/posts/soon`, { body: { locale: 'de', title: 'Bald' }, token });
      const file = (name: string) => readFile(path.join(repo, 'default/entries/posts', name), 'utf8');
      expect(await file('soon.md')).to.match(/^draft: true$/m);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      await server.services.scheduler.tick();
      expect(await file('soon.md')).to.match(/^draft: false$/m);
      expect(await file('soon.de.md')).to.match(/^draft: false$/m);
      const { stdout } = await run('git', ['-C', repo, 'log', '-1', '--format=%s', '--name-only']);
      expect(stdout.trim().split('\n').filter(Boolean)).to.deep.equal(['Publish posts/soon', 'default/entries/posts/soon.de.md', 'default/entries/posts/soon.md']);
      const { stdout: status } = await run('git', ['-C', repo, 'status', '--porcelain']);
      expect(status).to.equal('');
    });
  });
});
