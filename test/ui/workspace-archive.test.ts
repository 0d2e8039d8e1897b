// Archive on the workspaces screen, in Chromium against the real server: the
// default workspaces (built-in `default`, and the one CMS_DEFAULT_WORKSPACE
// names) can never be archived, so their Archive is disabled with the reason
// on screen instead of a confirmation the server then refuses; other
// workspaces still archive. A workspace archived in doubt (its workspace.yaml
// does not say; docs/cli.md) says so and why, from its dashboard.
import { expect } from 'chai';
import { describeInBrowser, screenshots, withAdminBrowser } from '../helpers/browser.ts';
import { contentRepoOf, externalCommit, fileAt } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';

describeInBrowser('archiving workspaces (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser({ env: { CMS_DEFAULT_WORKSPACE: 'main' } });

  it('offers no Archive on the default workspaces, says why, and archives the others', async () => {
    // `default` exists on every install; `main` is the configured default.
    expect((await ui.api('POST', '/workspaces', { slug: 'default', label: 'Default' })).status).to.be.oneOf([201, 409]);
    expect((await ui.api('POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    await ui.signIn('/admin/workspaces');

    for (const label of ['Default', (await ui.api('GET', '/workspaces')).body.data.find((workspace: { slug: string }) => workspace.slug === 'main').label]) {
      const archive = ui.page.getByRole('button', { name: `Archive ${label}`, exact: true });
      await archive.waitFor();
      expect(await archive.isDisabled(), `Archive ${label} is disabled`).to.equal(true);
      const reasonId = await archive.getAttribute('aria-describedby');
      expect(reasonId, `Archive ${label} names its reason`).to.be.a('string');
      const reason = ui.page.locator(`[id="${reasonId}"]`);
      expect(await reason.isVisible(), 'the reason is on screen').to.equal(true);
      expect(await reason.textContent()).to.equal('The default workspace is always active.');
    }
    await screenshots(ui.page, 'workspaces-protected');

    await ui.page.getByRole('button', { name: 'Archive Shop', exact: true }).click();
    await ui.page.getByRole('dialog', { name: 'Archive Shop?' }).getByRole('button', { name: 'Archive the workspace' }).click();
    await ui.page.getByRole('button', { name: 'Bring back Shop' }).waitFor();
    expect((await ui.api('GET', '/workspaces?include_archived=true')).body.data.find((workspace: { slug: string }) => workspace.slug === 'shop')).to.include({ archived: true });
  });

  it('says why a workspace is archived in doubt, not for one archived on purpose, and brings it back', async () => {
    expect((await ui.api('POST', '/workspaces', { slug: 'shop', label: 'Shop' })).status).to.equal(201);
    expect((await ui.api('PUT', '/workspaces/shop', { archived: true })).status).to.equal(200);
    // First seen in a commit whose archived the server cannot read: archived in doubt.
    const repo = contentRepoOf(ui.run.server.dataDir);
    await externalCommit(repo, { write: { 'news/workspace.yaml': 'label: News\narchived: maybe\n' } }, 'Add a news workspace by hand');
    await pollUntil(() => ui.api('GET', '/workspaces?include_archived=true'), (answer) => answer.body.data.some((workspace: { slug: string }) => workspace.slug === 'news'));
    await ui.signIn('/admin/workspaces');

    const news = ui.page.getByRole('row').filter({ hasText: 'news' });
    const state = news.getByText('Archived in doubt', { exact: true });
    await state.waitFor();
    const reason = ui.page.locator(`[id="${await state.getAttribute('aria-describedby')}"]`);
    expect(await reason.isVisible(), 'the reason is on screen').to.equal(true);
    expect(await reason.textContent()).to.contain('does not say whether it is archived').and.contain('news/workspace.yaml: archived: Must be true or false.');
    const shop = ui.page.getByRole('row').filter({ hasText: 'shop' });
    expect((await shop.getByRole('cell').nth(2).textContent())?.trim()).to.equal('Archived');
    await screenshots(ui.page, 'workspaces-archived-in-doubt');

    await news.getByRole('button', { name: 'Bring back News' }).click();
    await news.getByRole('button', { name: 'Archive News' }).waitFor();
    expect((await news.getByRole('cell').nth(2).textContent())?.trim()).to.equal('Active');
    expect(await fileAt(repo, 'news/workspace.yaml')).to.match(/^archived: false$/m);
  });
});
