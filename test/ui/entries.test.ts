// The content screens in Chromium against the real server: the entry list
// (search, filters, sort, paging, bulk actions, live updates from a git
// commit) and the editor (field inputs, publish, a second locale, a 412
// conflict resolved per field, Ctrl+S, 422 messages, single pages).
import { expect } from 'chai';
import { FULL_ACCESS, issueToken } from '../helpers/auth.ts';
import { describeInBrowser, screenshots, withAdminBrowser } from '../helpers/browser.ts';
import { contentRepoOf, externalCommit } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';

const POSTS = {
  name: 'posts',
  label: 'Posts',
  locales: ['en', 'de'],
  default_locale: 'en',
  fields: {
    summary: { type: 'textarea', label: 'Summary' },
    body: { type: 'markdown', label: 'Body' },
    rating: { type: 'number', label: 'Rating' },
    featured: { type: 'boolean', label: 'Featured' },
    category: { type: 'select', label: 'Category', options: ['news', 'tech', 'life'] },
    tags: { type: 'select', label: 'Tags', multiple: true, options: ['a', 'b', 'c'] },
    event_day: { type: 'date', label: 'Event day' },
    accent: { type: 'color', label: 'Accent' },
    extra: { type: 'json', label: 'Extra' },
  },
};

describeInBrowser('content screens (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser({ env: { CMS_EVENTS_HEARTBEAT_MS: '200', CMS_WATCH_INTERVAL_MS: '200' } });

  const stored = async (id: string, locale?: string) => (await ui.api('GET', `/content/posts/${id}${locale ? `?locale=${locale}` : ''}`)).body.data;

  it('creates and publishes an entry with many kinds of fields', async () => {
    expect((await ui.api('POST', '/content-types', POSTS)).status).to.equal(201);
    await ui.signIn('/admin/content/posts');
    await ui.page.getByRole('heading', { name: 'No entries yet' }).waitFor();
    await ui.page.getByRole('link', { name: 'Create the first entry' }).click();
    await ui.page.getByRole('heading', { name: 'New entry' }).waitFor();

    await ui.page.getByLabel('Title').fill('Hello world');
    await ui.page.getByLabel('Summary').fill('A first post.');
    await ui.page.locator('.cm-content').click();
    await ui.page.keyboard.type('# Greetings\n\nSome **bold** text.');
    await ui.page.getByLabel('Rating').fill('4');
    await ui.page.getByRole('switch', { name: 'Featured' }).check();
    await ui.page.getByLabel('Category').selectOption('tech');
    await ui.page.getByRole('group', { name: 'Tags' }).getByLabel('b').check();
    await ui.page.getByLabel('Event day').fill('2026-12-24');
    await ui.page.getByLabel('Extra').fill('{"views": 3}');
    await ui.page.getByRole('button', { name: 'Preview' }).click();
    await ui.page.getByRole('region', { name: 'Body' }).getByRole('heading', { name: 'Greetings' }).waitFor();
    await screenshots(ui.page, 'entry-new');
    await ui.page.getByRole('button', { name: 'Create' }).click();
    await ui.page.getByText('Saved.').waitFor();
    await ui.page.waitForURL(/\/admin\/content\/posts\/[A-Za-z0-9_-]{10,}$/);
    const id = ui.page.url().split('/').pop() as string;

    const created = await stored(id);
    expect(created).to.include({ title: 'Hello world', slug: 'hello-world', status: 'draft' });
    expect(created.data).to.deep.include({ summary: 'A first post.', body: '# Greetings\n\nSome **bold** text.', rating: 4, featured: true, category: 'tech', tags: ['b'], event_day: '2026-12-24', extra: { views: 3 } });

    await ui.page.getByLabel('Status').selectOption('published');
    await ui.page.getByText('Unsaved changes').waitFor();
    await ui.page.keyboard.press('Control+s');
    await ui.page.getByText('Unsaved changes').waitFor({ state: 'hidden' });
    const published = await stored(id);
    expect(published.status).to.equal('published');
    expect(published.published_at).to.be.a('string');
    await screenshots(ui.page, 'entry-editor');
  });

  it('edits an entry in a second language and deletes that translation', async () => {
    await ui.api('POST', '/content-types', POSTS);
    const created = (await ui.api('POST', '/content/posts', { title: 'About us', summary: 'Who we are', rating: 2 })).body.data;
    await ui.signIn(`/admin/content/posts/${created.id}`);
    await ui.page.getByRole('heading', { name: 'About us' }).waitFor();
    await ui.page.getByLabel('Language').selectOption('de');
    await ui.page.getByText('Not translated yet').waitFor();
    await ui.page.getByLabel('Title').fill('Über uns');
    await ui.page.getByLabel('Summary').fill('Wer wir sind');
    await ui.page.getByRole('button', { name: 'Save' }).click();
    await ui.page.getByText('Unsaved changes').waitFor({ state: 'hidden' });
    const german = await stored(created.id, 'de');
    expect(german).to.deep.include({ title: 'Über uns', locale: 'de', translations: ['en', 'de'] });
    // Only what was edited is stored in German; the rest falls back to English.
    expect(german.data).to.deep.include({ summary: 'Wer wir sind', rating: 2 });
    expect((await stored(created.id)).title).to.equal('About us');
    await screenshots(ui.page, 'entry-translation');

    await ui.page.getByRole('button', { name: 'Delete the de translation' }).click();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Delete de' }).click();
    await ui.page.getByText('Not translated yet').waitFor();
    expect((await stored(created.id, 'de')).translations).to.deep.equal(['en']);
  });

  it('shows both versions when someone else saved first, and saves the choice made per field', async () => {
    await ui.api('POST', '/content-types', { name: 'posts', fields: { summary: { type: 'text', label: 'Summary' }, rating: { type: 'number', label: 'Rating' } } });
    const created = (await ui.api('POST', '/content/posts', { title: 'Draft title', summary: 'old summary', rating: 1 })).body.data;
    await ui.signIn(`/admin/content/posts/${created.id}`);
    await ui.page.getByRole('heading', { name: 'Draft title' }).waitFor();
    await ui.page.getByLabel('Title').fill('My title');
    await ui.page.getByLabel('Summary').fill('my summary');
    // Someone else changes the title and the rating through the public API meanwhile.
    const token = await issueToken(ui.run.server, ui.admin, FULL_ACCESS);
    const theirs = await ui.run.server.request('PATCH', `/api/v1/workspaces/default/content/posts/${created.id}`, { body: { title: 'Their title', rating: 5 }, token });
    expect(theirs.status).to.equal(200);
    await ui.page.getByRole('status').filter({ hasText: 'Someone else just changed this entry' }).waitFor();

    await ui.page.getByRole('button', { name: 'Save' }).click();
    const dialog = ui.page.getByRole('dialog', { name: 'Someone else changed this' });
    await dialog.waitFor();
    await screenshots(ui.page, 'entry-conflict');
    // Defaults: mine where I changed the field, theirs where they did; then take their title after all.
    expect(await dialog.getByLabel('Keep yours for Summary').isChecked()).to.equal(true);
    expect(await dialog.getByLabel('Keep theirs for Rating').isChecked()).to.equal(true);
    await dialog.getByLabel('Keep theirs for Title').check();
    await dialog.getByRole('button', { name: 'Save with these choices' }).click();
    await ui.page.getByText('Unsaved changes').waitFor({ state: 'hidden' });
    const saved = await stored(created.id);
    expect(saved.title).to.equal('Their title');
    expect(saved.data).to.deep.equal({ summary: 'my summary', rating: 5 });
  });

  it('says what is wrong next to each field when the server refuses a save', async () => {
    await ui.api('POST', '/content-types', { name: 'posts', fields: { summary: { type: 'text', label: 'Summary', required: true } } });
    await ui.signIn('/admin/content/posts/new');
    await ui.page.getByRole('button', { name: 'Create' }).click();
    await ui.page.getByLabel('Title').and(ui.page.locator('[aria-invalid="true"]')).waitFor();
    await ui.page.getByLabel('Summary').and(ui.page.locator('[aria-invalid="true"]')).waitFor();
    await screenshots(ui.page, 'entry-invalid');
    expect((await ui.api('GET', '/content/posts')).body.meta.total).to.equal(0);
  });

  it('opens a single ui.page straight in the editor', async () => {
    await ui.api('POST', '/content-types', { name: 'about', label: 'About', singleton: true, fields: { body: { type: 'textarea', label: 'Body' } } });
    await ui.signIn('/admin');
    await ui.page.getByRole('region', { name: 'Single pages' }).getByRole('link', { name: 'About' }).click();
    await ui.page.getByRole('heading', { name: 'About' }).waitFor();
    await ui.page.getByLabel('Title').fill('About this site');
    await ui.page.getByRole('button', { name: 'Create' }).click();
    await ui.page.getByText('Unsaved changes').waitFor({ state: 'hidden' });
    expect((await ui.api('GET', '/content/about')).body.data).to.include({ id: 'about', slug: 'about', title: 'About this site' });
    await ui.open('/admin/content/about');
    await ui.page.waitForURL(/\/admin\/content\/about\/about$/);
    expect(await ui.page.getByLabel('Title').inputValue()).to.equal('About this site');
  });

  it('searches, filters, sorts and pages a long list, and acts on a selection', async () => {
    await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: { category: { type: 'select', label: 'Category', options: ['news', 'tech'] } } });
    const files: Record<string, string> = {};
    for (let n = 1; n <= 120; n++) {
      const slug = `post-${String(n).padStart(3, '0')}`;
      const category = n % 2 === 0 ? 'news' : 'tech';
      files[`default/entries/posts/${slug}.md`] = `---\nid: id${slug.replace('-', '')}xx\ntitle: Post ${String(n).padStart(3, '0')}\nstatus: ${n % 3 === 0 ? 'published' : 'draft'}\ncategory: ${category}\ncreated_at: 2026-01-01T00:00:00.000Z\nupdated_at: 2026-01-${String((n % 28) + 1).padStart(2, '0')}T00:00:00.000Z\n---\n`;
    }
    await externalCommit(contentRepoOf(ui.run.server.dataDir), { write: files }, 'Add 120 posts');
    await pollUntil(async () => (await ui.api('GET', '/content/posts?limit=1')).body.meta.total, (total) => total === 120);

    await ui.signIn('/admin/content/posts');
    await ui.page.getByText('120 entries').waitFor();
    expect(await ui.page.getByRole('row').count()).to.equal(51);
    await ui.page.getByRole('button', { name: 'Next page' }).click();
    await ui.page.getByText('51–100 of 120').waitFor();
    await ui.page.keyboard.press('/');
    await ui.page.keyboard.type('post 007');
    await ui.page.getByText('1 entry').waitFor();
    await ui.page.getByRole('link', { name: 'Post 007' }).waitFor();
    await ui.page.getByRole('searchbox', { name: 'Search entries' }).fill('');
    await ui.page.getByText('120 entries').waitFor();

    await ui.page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Published' }).click();
    await ui.page.getByText('40 entries').waitFor();
    await ui.page.getByLabel('Category').selectOption('news');
    await ui.page.getByText('20 entries').waitFor();
    await ui.page.getByRole('button', { name: 'Title' }).click();
    await ui.page.getByRole('columnheader', { name: /Title/ }).and(ui.page.locator('[aria-sort="ascending"]')).waitFor();
    await ui.page.getByRole('row').nth(1).getByRole('link', { name: 'Post 006' }).waitFor();
    await screenshots(ui.page, 'entries-list');

    await ui.page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'All' }).click();
    await ui.page.getByText('60 entries').waitFor();
    await ui.page.getByLabel('Select Post 002').check();
    await ui.page.getByLabel('Select Post 004').check();
    await ui.page.getByRole('region', { name: 'Selected entries' }).getByText('2 entries selected').waitFor();
    await ui.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await ui.page.getByText('Published 2 entries.').waitFor();
    const published = (await ui.api('GET', '/content/posts?filter[status]=published&limit=200')).body.meta.total;
    expect(published).to.equal(42);

    await ui.page.getByLabel('Select all entries on this page').check();
    await ui.page.getByText('50 entries selected').waitFor();
    await ui.page.getByRole('button', { name: 'Delete', exact: true }).click();
    await ui.page.getByRole('dialog').getByText('move to the trash').waitFor();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Delete 50 entries' }).click();
    await ui.page.getByText('10 entries').waitFor();
    expect((await ui.api('GET', '/content/posts?limit=1')).body.meta.total).to.equal(70);
  });

  it('shows an entry committed with git in the open list without a reload', async () => {
    await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} });
    await ui.api('POST', '/content/posts', { title: 'From the editor' });
    await ui.signIn('/admin/content/posts');
    await ui.page.getByRole('link', { name: 'From the editor' }).waitFor();
    await externalCommit(contentRepoOf(ui.run.server.dataDir), { write: { 'default/entries/posts/from-git.md': '---\ntitle: From git\nstatus: draft\n---\n' } }, 'Add a post by hand');
    await ui.page.getByRole('link', { name: 'From git' }).waitFor();
    await ui.page.getByText('2 entries').waitFor();
  });

  it('edits rich text, relations, slugs, ranges and dates, and shows the sanitized HTML after saving', async () => {
    await ui.api('POST', '/content-types', { name: 'authors', label: 'Authors', fields: {} });
    const ada = (await ui.api('POST', '/content/authors', { title: 'Ada Lovelace' })).body.data;
    await ui.api('POST', '/content/authors', { title: 'Grace Hopper' });
    await ui.api('POST', '/content-types', {
      name: 'articles',
      label: 'Articles',
      fields: {
        handle: { type: 'slug', label: 'Handle' },
        text: { type: 'html', label: 'Text' },
        writers: { type: 'relation', label: 'Writers', target: 'authors', multiple: true },
        score: { type: 'range', label: 'Score', min: 0, max: 10, step: 1 },
        starts: { type: 'datetime', label: 'Starts' },
      },
    });
    await ui.signIn('/admin/content/articles/new');
    await ui.page.getByLabel('Title').fill('Über Maschinen');
    await pollUntil(() => ui.page.getByLabel('Handle').inputValue(), (handle) => handle === 'ueber-maschinen');
    await ui.page.getByRole('textbox', { name: 'Text' }).click();
    await ui.page.keyboard.type('Hello ');
    await ui.page.getByRole('button', { name: 'Bold' }).click();
    await ui.page.keyboard.type('world');
    await ui.page.getByRole('searchbox', { name: 'Search authors to add to Writers' }).fill('ada');
    await ui.page.getByRole('button', { name: 'Add “Ada Lovelace”' }).click();
    await ui.page.getByRole('list', { name: 'Chosen for Writers' }).getByText('Ada Lovelace').waitFor();
    await ui.page.getByLabel('Score').fill('7');
    await ui.page.getByLabel('Starts').fill('2027-03-01T09:30');
    await ui.page.getByRole('button', { name: 'Create' }).click();
    await ui.page.waitForURL(/\/admin\/content\/articles\/[A-Za-z0-9_-]{10,}$/);
    const id = ui.page.url().split('/').pop() as string;
    const saved = (await ui.api('GET', `/content/articles/${id}`)).body.data;
    expect(saved.data).to.deep.include({ handle: 'ueber-maschinen', writers: [ada.id], score: 7, text: '<p>Hello <strong>world</strong></p>' });
    const local = await ui.page.evaluate(() => new Date('2027-03-01T09:30').toISOString());
    expect(saved.data.starts).to.equal(local);
    await ui.page.getByRole('heading', { name: 'Über Maschinen' }).waitFor();
    await ui.page.getByRole('list', { name: 'Chosen for Writers' }).getByText('Ada Lovelace').waitFor();
    await screenshots(ui.page, 'entry-rich');

    // A script typed into the stored HTML by someone else is gone once saved; the editor shows what was kept.
    const token = await issueToken(ui.run.server, ui.admin, FULL_ACCESS);
    await ui.run.server.request('PATCH', `/api/v1/workspaces/default/content/articles/${id}`, { body: { text: '<p>Safe<script>alert(1)</script><img src=x onerror=alert(2)></p>' }, token });
    await ui.page.locator('.rich-text__source summary').click();
    await pollUntil(() => ui.page.locator('.rich-text__source pre').innerText(), (html) => html.includes('Safe'));
    expect(await ui.page.locator('.rich-text__source pre').innerText()).to.not.match(/script|onerror/);
  });

  it('reloads the open entry when someone else saves it and nothing is being edited', async () => {
    await ui.api('POST', '/content-types', { name: 'posts', fields: { summary: { type: 'text', label: 'Summary' } } });
    const created = (await ui.api('POST', '/content/posts', { title: 'Live one', summary: 'before' })).body.data;
    await ui.signIn(`/admin/content/posts/${created.id}`);
    await ui.page.getByRole('heading', { name: 'Live one' }).waitFor();
    await ui.api('PATCH', `/content/posts/${created.id}`, { summary: 'after' });
    await pollUntil(() => ui.page.getByLabel('Summary').inputValue(), (value) => value === 'after');
    expect(await ui.page.getByText('Unsaved changes').count()).to.equal(0);
  });
});
