// Actions the server would refuse, in Chromium against the real server: on
// the users screen, Delete on yourself and on the last administrator, and
// Delete on a role that people still hold, are disabled with the reason in
// words beside the button (tied to it by aria-describedby), on a desktop and
// on a phone, where a `title` tooltip would never show; in the editor,
// Published is greyed out for someone who may not publish, and the status's
// hint says why; on an entry's versions, Restore this version is disabled for
// a version with the same values as the entry now, and the paragraph saying
// so is its reason.
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { userWithGrants } from '../helpers/admin-users.ts';
import { ADMIN_USERNAME, FULL_ACCESS } from '../helpers/auth.ts';
import { describeInBrowser, PHONE, screenshots, signIn, withAdminBrowser } from '../helpers/browser.ts';

describeInBrowser('disabled actions say why (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser();

  it('shows why Delete is unavailable on yourself and on the last administrator, at 1280 and 360 px', async () => {
    // A manager of people who is not an administrator: the one administrator is then someone else.
    await userWithGrants(ui.run.server, ui.admin, 'manager', FULL_ACCESS);
    await userWithGrants(ui.run.server, ui.admin, 'writer', [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
    await signIn(ui.page, ui.run.server.baseUrl, 'manager', 'manager-password-1');
    await ui.open('/admin/users');
    const deleteOf = (username: string) => ui.page.getByRole('button', { name: `Delete ${username}`, exact: true });
    await deleteOf('writer').waitFor();
    const expected = { [ADMIN_USERNAME]: 'The last administrator cannot be deleted.', manager: 'You cannot delete yourself.' };

    for (const size of ['desktop', 'phone']) {
      if (size === 'phone') await ui.page.setViewportSize(PHONE);
      for (const [username, reason] of Object.entries(expected)) {
        await expectReason(ui.page, deleteOf(username), reason, size === 'phone');
      }
      expect(await deleteOf('writer').isEnabled(), 'another user can be deleted').to.equal(true);
      expect(await deleteOf('writer').getAttribute('aria-describedby'), 'an available Delete gives no reason').to.equal(null);
    }
    await screenshots(ui.page, 'users-unavailable-delete');
  });

  it('shows why a role that people hold cannot be deleted', async () => {
    await userWithGrants(ui.run.server, ui.admin, 'writer', [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
    await ui.signIn('/admin/roles/writer-role');
    const remove = ui.page.getByRole('button', { name: 'Delete the role' });
    await remove.waitFor();
    await ui.page.setViewportSize(PHONE);
    await expectReason(ui.page, remove, 'Give its users another role first.', true);
    await screenshots(ui.page, 'role-unavailable-delete');
  });

  it('says why Published cannot be chosen by someone who may not publish', async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} })).status).to.equal(201);
    const created = await ui.api('POST', '/content/posts', { title: 'A draft' });
    await userWithGrants(ui.run.server, ui.admin, 'writer', [{ effect: 'allow', actions: ['schema.read', 'content.read', 'content.create', 'content.update'], resources: ['*'] }]);
    await signIn(ui.page, ui.run.server.baseUrl, 'writer', 'writer-password-1');
    await ui.page.setViewportSize(PHONE);
    await ui.open(`/admin/content/posts/${created.body.data.id}`);
    const status = ui.page.getByLabel('Status');
    await status.waitFor();
    expect(await status.locator('option[value=published]').isDisabled(), 'Published is greyed out').to.equal(true);
    const hintId = (await status.getAttribute('aria-describedby'))!.split(' ')[0];
    const hint = ui.page.locator(`[id="${hintId}"]`);
    expect(await hint.isVisible(), 'the reason is on screen').to.equal(true);
    expect(await hint.textContent()).to.equal('Only people signed in here can see it. You cannot publish: save it, and someone who may publish can.');
    await screenshots(ui.page, 'entry-may-not-publish');
  });
  it('says why a version with the same values as the entry now cannot be restored', async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} })).status).to.equal(201);
    const id = (await ui.api('POST', '/content/posts', { title: 'Same again' })).body.data.id as string;
    expect((await ui.api('PATCH', `/content/posts/${id}`, { title: 'Different' })).status).to.equal(200);
    expect((await ui.api('PATCH', `/content/posts/${id}`, { title: 'Same again' })).status).to.equal(200);
    const [, different, first] = (await ui.api('GET', `/content/posts/${id}/revisions`)).body.data as { id: string }[];
    await ui.signIn();
    await ui.page.setViewportSize(PHONE);
    const restore = ui.page.getByRole('button', { name: 'Restore this version' });

    await ui.open(`/admin/content/posts/${id}/versions?version=${first.id}`);
    await ui.page.getByRole('heading', { name: /compared with now$/ }).waitFor();
    await expectReason(ui.page, restore, 'This version has the same values as the entry now.', true);
    await screenshots(ui.page, 'version-same-as-now');

    await ui.open(`/admin/content/posts/${id}/versions?version=${different.id}`);
    await ui.page.locator('.field-changes').waitFor();
    expect(await restore.isEnabled(), 'a version that differs can be restored').to.equal(true);
    expect(await restore.getAttribute('aria-describedby'), 'and gives no reason').to.equal(null);
  });
});

/** The button is disabled and described by a visible element saying `reason`; on a phone that text lies within the screen's width. */
async function expectReason(page: Page, button: Locator, reason: string, onPhone: boolean): Promise<void> {
  expect(await button.isDisabled(), `${button} is disabled`).to.equal(true);
  expect(await button.getAttribute('title'), `${button} keeps no tooltip`).to.equal(null);
  const reasonId = await button.getAttribute('aria-describedby');
  expect(reasonId, `${button} names its reason`).to.be.a('string');
  const shown = page.locator(`[id="${reasonId}"]`);
  await shown.scrollIntoViewIfNeeded();
  expect(await shown.isVisible(), `the reason for ${button} is on screen`).to.equal(true);
  expect(await shown.textContent()).to.equal(reason);
  if (onPhone) {
    const box = await shown.boundingBox();
    expect(box!.x, 'the reason starts on screen').to.be.at.least(0);
    expect(box!.x + box!.width, 'the reason ends on screen').to.be.at.most(PHONE.width);
  }
}
