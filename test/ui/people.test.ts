// Users, roles and API tokens in Chromium against the real server: a custom
// role built in the grants editor (with its plain-language summary), a user
// with that role who, signed in in a second browser, sees only what the role
// allows; a token created on the ui.page, read from it and used on the public
// API, then revoked.
import { expect } from 'chai';
import { ADMIN_USERNAME } from '../helpers/auth.ts';
import { describeInBrowser, screenshots, signIn, withAdminBrowser } from '../helpers/browser.ts';

describeInBrowser('users, roles and tokens (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser();

  beforeEach(async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} })).status).to.equal(201);
    expect((await ui.api('POST', '/content/posts', { title: 'A draft' })).status).to.equal(201);
  });

  it('builds a role in the grants editor, gives it to a new user, who then sees only what it allows', async () => {
    await ui.signIn('/admin/roles');
    await ui.page.getByRole('link', { name: 'New role' }).click();
    await ui.page.getByLabel('Name (required)').fill('Post readers');
    await ui.page.getByRole('button', { name: 'Add a grant' }).click();
    const first = ui.page.getByRole('group', { name: 'Grant 1' });
    await first.getByLabel('Applies to').selectOption('type');
    await first.getByLabel('Content type').selectOption('posts');
    await first.getByRole('group', { name: 'content' }).getByLabel('read').check();
    await ui.page.getByRole('button', { name: 'Add a grant' }).click();
    await ui.page.getByRole('group', { name: 'Grant 2' }).getByRole('group', { name: 'schema' }).getByLabel('read').check();
    const summary = ui.page.getByRole('region', { name: 'What this allows' });
    await summary.getByText('May see entries on Posts.').waitFor();
    await summary.getByText('May see content types.').waitFor();
    await screenshots(ui.page, 'role');
    await ui.page.getByRole('button', { name: 'Create the role' }).click();
    await ui.page.getByRole('heading', { name: 'Post readers' }).waitFor();
    const role = (await ui.api('GET', '/roles/post-readers')).body.data;
    expect(role.permissions).to.deep.equal([
      { effect: 'allow', actions: ['content.read'], resources: ['content:posts:*'] },
      { effect: 'allow', actions: ['schema.read'], resources: ['*'] },
    ]);

    await ui.open('/admin/users');
    await ui.page.getByRole('button', { name: 'New user' }).click();
    const dialog = ui.page.getByRole('dialog', { name: 'New user' });
    await dialog.getByLabel('Username (required)').fill('reader');
    await dialog.getByLabel('Display name').fill('Rita Reader');
    await dialog.getByLabel('Role').selectOption('post-readers');
    await dialog.getByLabel('Password (required)').fill('reader-password-1');
    await dialog.getByRole('button', { name: 'Create the user' }).click();
    await ui.page.getByRole('cell', { name: 'reader', exact: true }).waitFor();
    expect(await ui.page.getByRole('button', { name: `Delete ${ADMIN_USERNAME}` }).isDisabled(), 'nobody deletes themselves').to.equal(true);
    await screenshots(ui.page, 'users');

    const reader = await ui.run.newPage();
    await signIn(reader, ui.run.server.baseUrl, 'reader', 'reader-password-1');
    const nav = reader.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Posts' }).click();
    await reader.getByRole('cell', { name: 'A draft /a-draft' }).waitFor();
    expect(await reader.getByRole('link', { name: 'New entry' }).count(), 'no content.create').to.equal(0);
    for (const hidden of ['Users', 'Roles', 'API tokens', 'Content types', 'Media']) {
      expect(await nav.getByRole('link', { name: hidden }).count(), hidden).to.equal(0);
    }
  });

  it('creates a token whose plain value is shown once and works on the public API, then revokes it', async () => {
    await ui.signIn('/admin/tokens');
    await ui.page.getByRole('heading', { name: 'No API tokens yet' }).waitFor();
    await ui.page.getByRole('button', { name: 'New token' }).first().click();
    const dialog = ui.page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByLabel('Name (required)').fill('Website build');
    await dialog.getByRole('region', { name: 'What this allows' }).getByText('May see entries.').waitFor();
    await dialog.getByRole('button', { name: 'Create the token' }).click();
    const shown = ui.page.getByRole('dialog', { name: 'Your new token' });
    await shown.getByText('this is the only time it is shown').waitFor();
    const token = await shown.getByLabel('Token').inputValue();
    expect(token).to.match(/^cms_/);
    await screenshots(ui.page, 'token-created');
    await shown.getByRole('button', { name: 'Done' }).click();
    await ui.page.getByRole('cell', { name: 'Website build', exact: true }).waitFor();

    const read = await fetch(`${ui.run.server.baseUrl}/api/v1/workspaces/default/content/posts`, { headers: { authorization: `Bearer ${token}` } });
    expect(read.status).to.equal(200);
    expect(((await read.json()) as { data: { title: string }[] }).data.map((entry) => entry.title), 'content.read on everything sees drafts').to.deep.equal(['A draft']);

    await ui.page.getByRole('button', { name: 'Revoke Website build' }).click();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Revoke the token' }).click();
    await ui.page.getByRole('heading', { name: 'No API tokens yet' }).waitFor();
    const refused = await fetch(`${ui.run.server.baseUrl}/api/v1/workspaces/default/content/posts`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).to.equal(401);
  });
});
