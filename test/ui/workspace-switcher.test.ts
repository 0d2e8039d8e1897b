// The workspace switcher follows the workspaces screen, in Chromium against
// the real server: a rename shows its new name and an archived workspace
// leaves the list without a reload; archiving the workspace in use moves the
// app to the first one still active (docs/admin-app.md "Workspaces").
import { expect } from 'chai';
import { describeInBrowser, withAdminBrowser } from '../helpers/browser.ts';
import { pollUntil } from '../helpers/poll.ts';

describeInBrowser('workspace switcher after a rename or an archive (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser();

  beforeEach(async () => {
    for (const [slug, label] of [['blog', 'Blog'], ['shop', 'Shop']]) expect((await ui.api('POST', '/workspaces', { slug, label })).status).to.equal(201);
    await ui.signIn();
  });

  const switcher = () => ui.page.getByLabel('Workspace', { exact: true });
  const offered = async () => (await switcher().locator('option').allInnerTexts()).map((text) => text.trim());
  const openWorkspacesScreen = async () => {
    await ui.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workspaces' }).click();
    await ui.page.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();
  };

  it('shows a new name and drops an archived workspace without a reload', async () => {
    await switcher().locator('option', { hasText: 'Shop' }).waitFor({ state: 'attached' });
    expect(await offered()).to.have.members(['Default', 'Blog', 'Shop']);
    await openWorkspacesScreen();

    await ui.page.getByRole('button', { name: 'Rename Blog' }).click();
    await ui.page.getByLabel('New name of blog').fill('Company blog');
    await ui.page.getByRole('button', { name: 'Save', exact: true }).click();
    await switcher().locator('option', { hasText: 'Company blog' }).waitFor({ state: 'attached' });
    expect(await offered()).to.have.members(['Default', 'Company blog', 'Shop']);

    await ui.page.getByRole('button', { name: 'Archive Shop' }).click();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Archive the workspace' }).click();
    await ui.page.getByRole('button', { name: 'Bring back Shop' }).waitFor();
    await switcher().locator('option', { hasText: 'Shop' }).waitFor({ state: 'detached' });
    expect(await offered()).to.have.members(['Default', 'Company blog']);

    await ui.page.getByRole('button', { name: 'Bring back Shop' }).click();
    await switcher().locator('option', { hasText: 'Shop' }).waitFor({ state: 'attached' });
    expect(await ui.page.getByRole('heading', { name: 'Workspaces', level: 1 }).count(), 'still on the workspaces screen').to.equal(1);
  });

  it('moves to the first active workspace when the one in use is archived', async () => {
    await switcher().selectOption('blog');
    await ui.page.waitForURL(/\/admin$/);
    await openWorkspacesScreen();
    await ui.page.getByRole('button', { name: 'Archive Blog' }).click();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Archive the workspace' }).click();
    await switcher().locator('option', { hasText: 'Blog' }).waitFor({ state: 'detached' });
    await ui.page.waitForURL(/\/admin$/);
    expect(await pollUntil(() => switcher().inputValue(), (value) => value === 'default')).to.equal('default');
    await ui.page.getByRole('heading', { name: /^Welcome/ }).waitFor();
  });
});
