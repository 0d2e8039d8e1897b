// The type builder, an entry's versions and the trash in Chromium against the
// real server: create a type with five kinds of field and an entry of it,
// reorder and validate fields, delete a type with its entries; compare an
// earlier version and restore it; restore, purge and empty the trash.
import { expect } from 'chai';
import { describeInBrowser, screenshots, withAdminBrowser } from '../helpers/browser.ts';
import { pollUntil } from '../helpers/poll.ts';

const POSTS = { name: 'posts', label: 'Posts', fields: { body: { type: 'markdown', label: 'Body' } } };

describeInBrowser('type builder, versions and trash (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser({ env: { CMS_EVENTS_HEARTBEAT_MS: '200' } });

  const createPost = async (title: string, body = ''): Promise<string> => {
    const created = await ui.api('POST', '/content/posts', { title, body });
    expect(created.status, created.text).to.equal(201);
    return created.body.data.id;
  };
  const addField = async (kind: string, label: string) => {
    await ui.page.getByLabel('Kind of the new field').selectOption({ label: kind });
    await ui.page.getByRole('button', { name: 'Add a field' }).click();
    await ui.page.getByRole('group', { name: /^New field/ }).getByLabel('Label', { exact: true }).fill(label);
  };

  it('builds a type with five kinds of field, reorders them, and creates an entry of it', async () => {
    await ui.signIn('/admin/types');
    await ui.page.getByRole('heading', { name: 'No content types yet' }).waitFor();
    await ui.page.getByRole('link', { name: 'Create the first content type' }).click();
    await ui.page.getByRole('heading', { name: 'New content type' }).waitFor();
    await ui.page.getByLabel('Label (required)').fill('Articles');
    expect(await ui.page.getByLabel('Name (required)').first().inputValue()).to.equal('articles');
    await ui.page.getByLabel('Language codes').fill('en, de');

    await addField('Short text', 'Subtitle');
    await addField('Number', 'Rating');
    await ui.page.getByRole('group', { name: /^Rating/ }).getByLabel('Largest').fill('5');
    await addField('Yes / no', 'Featured');
    await addField('Choice (select)', 'Category');
    await ui.page.getByRole('group', { name: /^Category/ }).getByLabel('Options').fill('news | News\ntech | Technology');
    await addField('Markdown', 'Body');
    // A name the API refuses: its message shows on that field, and nothing is created.
    await ui.page.getByRole('group', { name: /^Body/ }).getByLabel('Name (required)').fill('2body');
    await ui.page.getByRole('button', { name: 'Create the content type' }).click();
    await ui.page.getByRole('group', { name: /^Body/ }).getByText(/must start with a letter/).waitFor();
    expect((await ui.api('GET', '/content-types/articles')).status).to.equal(404);

    await ui.page.getByRole('group', { name: /^Body/ }).getByLabel('Name (required)').fill('body');
    await ui.page.getByRole('button', { name: 'Move Rating up' }).click();
    await screenshots(ui.page, 'type-builder');
    await ui.page.getByRole('button', { name: 'Create the content type' }).click();
    await ui.page.getByRole('heading', { name: 'Edit Articles' }).waitFor();
    const stored = (await ui.api('GET', '/content-types/articles')).body.data;
    expect(Object.keys(stored.fields)).to.deep.equal(['rating', 'subtitle', 'featured', 'category', 'body']);
    expect(stored.fields.rating).to.include({ type: 'number', max: 5 });
    expect(stored.fields.category.options).to.deep.equal([{ value: 'news', label: 'News' }, { value: 'tech', label: 'Technology' }]);
    expect(stored).to.include({ default_locale: 'en' });
    expect(stored.locales).to.deep.equal(['en', 'de']);

    // The sidebar follows, and the new type takes entries.
    await ui.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Articles' }).click();
    await ui.page.getByRole('link', { name: 'Create the first entry' }).click();
    await ui.page.getByLabel('Title (required)').fill('First article');
    await ui.page.getByLabel('Subtitle').fill('Built in the browser');
    await ui.page.getByLabel('Rating').fill('4');
    await ui.page.getByLabel('Category').selectOption('tech');
    await ui.page.getByRole('button', { name: 'Create' }).click();
    await ui.page.getByText('Saved.', { exact: true }).waitFor();
    const entries = (await ui.api('GET', '/content/articles')).body.data;
    expect(entries).to.have.length(1);
    expect(entries[0].data).to.include({ subtitle: 'Built in the browser', rating: 4, category: 'tech' });

    await ui.open('/admin/types');
    await ui.page.getByRole('link', { name: 'Articles' }).first().waitFor();
    await screenshots(ui.page, 'types');
  });

  it('deletes a type after saying how many entries go with it', async () => {
    expect((await ui.api('POST', '/content-types', POSTS)).status).to.equal(201);
    for (const title of ['One', 'Two', 'Three']) await createPost(title);
    await ui.signIn('/admin/types/posts');
    await ui.page.getByRole('button', { name: 'Delete this content type' }).click();
    await ui.page.getByRole('button', { name: 'Delete Posts and 3 entries' }).click();
    await ui.page.getByRole('heading', { name: 'No content types yet' }).waitFor();
    expect((await ui.api('GET', '/content-types/posts')).status).to.equal(404);
  });

  it('compares an earlier version with the entry now, line by line, and restores it', async () => {
    expect((await ui.api('POST', '/content-types', POSTS)).status).to.equal(201);
    const id = await createPost('First title', 'Line one\nLine two');
    expect((await ui.api('PATCH', `/content/posts/${id}`, { title: 'Second title' })).status).to.equal(200);
    expect((await ui.api('PATCH', `/content/posts/${id}`, { body: 'Line one\nLine 2, rewritten\nLine three' })).status).to.equal(200);

    await ui.signIn(`/admin/content/posts/${id}`);
    await ui.page.getByRole('link', { name: 'Versions' }).click();
    await ui.page.getByRole('heading', { name: 'Versions of “Second title”' }).waitFor();
    const versions = ui.page.locator('.revision-list__item');
    expect(await versions.count()).to.equal(3);
    await versions.last().click();
    const comparison = ui.page.getByRole('region', { name: /compared with now/ });
    await comparison.locator('del', { hasText: 'First title' }).waitFor();
    await comparison.locator('ins', { hasText: 'Second title' }).waitFor();
    await comparison.locator('del', { hasText: '- Line two' }).waitFor();
    await comparison.locator('ins', { hasText: '+ Line 2, rewritten' }).waitFor();
    expect(await comparison.locator('del', { hasText: 'Line one' }).count(), 'unchanged lines are not marked').to.equal(0);
    await screenshots(ui.page, 'versions');

    await comparison.getByRole('button', { name: 'Restore this version' }).click();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await ui.page.waitForURL(`${ui.run.server.baseUrl}/admin/content/posts/${id}`);
    await pollUntil(() => ui.page.getByLabel('Title').inputValue(), (title) => title === 'First title');
    const restored = (await ui.api('GET', `/content/posts/${id}`)).body.data;
    expect(restored.title).to.equal('First title');
    expect(restored.data.body).to.equal('Line one\nLine two');
    expect((await ui.api('GET', `/content/posts/${id}/revisions`)).body.meta.total, 'a restore is a new version').to.equal(4);
  });

  it('restores from the trash, deletes for good and empties it', async () => {
    expect((await ui.api('POST', '/content-types', POSTS)).status).to.equal(201);
    const ids = [await createPost('Keep me'), await createPost('Forget me'), await createPost('Empty me')];
    for (const id of ids) expect((await ui.api('DELETE', `/content/posts/${id}`)).status).to.equal(200);

    await ui.signIn('/admin');
    await ui.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
    await ui.page.getByRole('cell', { name: 'Keep me keep-me' }).waitFor();
    await screenshots(ui.page, 'trash');
    await ui.page.getByRole('button', { name: 'Restore Keep me' }).click();
    await ui.page.getByRole('cell', { name: 'Keep me keep-me' }).waitFor({ state: 'detached' });
    expect((await ui.api('GET', `/content/posts/${ids[0]}`)).body.data.title).to.equal('Keep me');

    await ui.page.getByRole('button', { name: 'Delete for good: Forget me' }).click();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click();
    await ui.page.getByRole('cell', { name: 'Forget me forget-me' }).waitFor({ state: 'detached' });

    await ui.page.getByRole('button', { name: 'Empty the trash of Posts' }).click();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Delete 1 entry for good' }).click();
    await ui.page.getByRole('heading', { name: 'The trash of Posts is empty' }).waitFor();
    expect((await ui.api('GET', '/trash/posts')).body.meta.total).to.equal(0);
  });
});
