// The Releases screen in Chromium against the real server: the empty state,
// a release made with a note (and a name git refuses, with the message next
// to the field), the address a build reads it from copied, and a release
// deleted after the confirmation.
import { expect } from 'chai';
import { describeInBrowser, screenshots, withAdminBrowser } from '../helpers/browser.ts';
import { contentRepoOf, git } from '../helpers/git.ts';

describeInBrowser('releases screen (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser();

  it('makes, copies and deletes a release', async () => {
    const { page } = ui;
    const baseUrl = ui.run.server.baseUrl;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await ui.signIn();
    await page.getByRole('link', { name: 'Releases' }).click();
    await page.getByRole('heading', { name: 'No releases yet' }).waitFor();

    await page.getByLabel('Name (required)').fill('bad..name');
    await page.getByRole('button', { name: 'Make the release' }).click();
    await page.getByText('A ref name cannot contain "..".').waitFor();

    await page.getByLabel('Name (required)').fill('spring-2026');
    await page.getByLabel('Note').fill('Approved for the spring site.');
    await page.getByRole('button', { name: 'Make the release' }).click();
    await page.getByRole('cell', { name: 'spring-2026', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'Approved for the spring site.' }).waitFor();
    expect((await git(contentRepoOf(ui.run.server.dataDir), ['tag', '-l'])).trim()).to.equal('spring-2026');
    await screenshots(page, 'releases');

    await page.getByRole('button', { name: 'Copy the address of spring-2026' }).click();
    await page.getByText('The address of spring-2026 is copied.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).to.equal(`${baseUrl}/api/v1/workspaces/default/content-types?ref=spring-2026`);
    expect((await fetch(copied)).status).to.equal(200);

    await page.getByRole('button', { name: 'Delete spring-2026' }).click();
    await page.getByRole('dialog', { name: 'Delete spring-2026?' }).getByRole('button', { name: 'Delete the release' }).click();
    await page.getByRole('heading', { name: 'No releases yet' }).waitFor();
    expect((await ui.api('GET', '/releases')).body.data).to.deep.equal([]);
  });
});
