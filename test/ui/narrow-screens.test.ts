// The administration tables on a 360 px phone, in Chromium against the real
// server: every row's action buttons are on screen and the page never scrolls
// sideways (UI.md "Look at it … at 360 px"); a table with no row actions
// (activity, media's list) shows every column without scrolling in its frame.
// Screens without a table only must not scroll sideways.
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { userWithGrants } from '../helpers/admin-users.ts';
import { ADMIN_USERNAME, issueToken } from '../helpers/auth.ts';
import { makePng } from '../api/media-fixtures.ts';
import { describeInBrowser, PHONE, screenshots, withAdminBrowser } from '../helpers/browser.ts';

describeInBrowser('administration tables at 360 px (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser();

  beforeEach(() => ui.signIn());

  const openOnPhone = async (path: string) => {
    await ui.page.setViewportSize(PHONE);
    await ui.open(path);
  };

  it('shows every webhook action on screen without sideways scrolling', async () => {
    const url = 'https://hooks.example.com/a/rather/long/path/for/the/site-build?token=0123456789abcdef';
    expect((await ui.api('PUT', '/webhooks', { webhooks: [{ url, events: ['content.created', 'content.updated', 'content.published'], enabled: true }] })).status).to.equal(200);
    await openOnPhone('/admin/webhooks');
    const buttons = [`Send a test to ${url}`, `Edit ${url}`, `Remove ${url}`].map((name) => ui.page.getByRole('button', { name, exact: true }));
    await buttons[0].waitFor();
    await expectAllOnScreen(ui.page, buttons);
    await screenshots(ui.page, 'webhooks-narrow');
  });

  it('shows every workspace action on screen without sideways scrolling, the rename form included', async () => {
    expect((await ui.api('POST', '/workspaces', { slug: 'company-blog-for-the-northern-region', label: 'Company blog for the northern region' })).status).to.equal(201);
    await openOnPhone('/admin/workspaces');
    const label = 'Company blog for the northern region';
    const rename = ui.page.getByRole('button', { name: `Rename ${label}` });
    await rename.waitFor();
    await expectAllOnScreen(ui.page, [rename, ui.page.getByRole('button', { name: `Archive ${label}` })]);
    await rename.click();
    await ui.page.getByLabel('New name of company-blog-for-the-northern-region').waitFor();
    await expectAllOnScreen(ui.page, [ui.page.getByLabel('New name of company-blog-for-the-northern-region'), ui.page.getByRole('button', { name: 'Save', exact: true }), ui.page.getByRole('button', { name: 'Cancel' })]);
    await screenshots(ui.page, 'workspaces-narrow');
  });

  const buttonsNamed = (names: string[]) => names.map((name) => ui.page.getByRole('button', { name, exact: true }));
  const LONG = 'northern-region-spring-campaign-landing-pages';

  it('shows every token action on screen without sideways scrolling', async () => {
    await issueToken(ui.run.server, ui.admin, [{ effect: 'allow', actions: ['content.read', 'content.create', 'media.read'], resources: ['*'] }], `Website build for the ${LONG}`);
    await openOnPhone('/admin/tokens');
    const [revoke] = buttonsNamed([`Revoke Website build for the ${LONG}`]);
    await revoke.waitFor();
    await expectAllOnScreen(ui.page, [revoke]);
    await screenshots(ui.page, 'tokens-narrow');
  });

  it('shows every release action on screen without sideways scrolling', async () => {
    const name = `site/${LONG}`;
    expect((await ui.api('POST', '/releases', { name, note: 'The pages for the spring campaign of the northern region, as approved on Monday' })).status).to.equal(201);
    await openOnPhone('/admin/releases');
    const buttons = buttonsNamed([`Copy the address of ${name}`, `Delete ${name}`]);
    await buttons[0].waitFor();
    await expectAllOnScreen(ui.page, buttons);
    await screenshots(ui.page, 'releases-narrow');
  });

  it('shows every user action on screen without sideways scrolling', async () => {
    await userWithGrants(ui.run.server, ui.admin, 'maximilian-longname', [{ effect: 'allow', actions: ['content.read'], resources: ['*'] }]);
    await openOnPhone('/admin/users');
    const buttons = buttonsNamed(['Edit maximilian-longname', 'Delete maximilian-longname', `Edit ${ADMIN_USERNAME}`, `Delete ${ADMIN_USERNAME}`]);
    await buttons[0].waitFor();
    await expectAllOnScreen(ui.page, buttons);
    await screenshots(ui.page, 'users-narrow');
  });

  it('shows every backup action on screen without sideways scrolling', async () => {
    const backup = await ui.api('POST', '/backups', {});
    expect(backup.status).to.equal(201);
    const name = backup.body.data.name as string;
    await openOnPhone('/admin/backups');
    const controls = [ui.page.getByRole('link', { name: `Download ${name}` }), ...buttonsNamed([`Restore from ${name}`, `Delete ${name}`])];
    await controls[0].waitFor();
    await expectAllOnScreen(ui.page, controls);
    await screenshots(ui.page, 'backups-narrow');
  });

  it('shows every trash action on screen without sideways scrolling', async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} })).status).to.equal(201);
    const title = 'Spring campaign of the northern region: what changes';
    const created = await ui.api('POST', '/content/posts', { title });
    expect((await ui.api('DELETE', `/content/posts/${created.body.data.id}`)).status).to.equal(200);
    await openOnPhone('/admin/trash/posts');
    const buttons = buttonsNamed([`Restore ${title}`, `Delete for good: ${title}`]);
    await buttons[0].waitFor();
    await expectAllOnScreen(ui.page, buttons);
    await screenshots(ui.page, 'trash-narrow');
  });

  it('keeps roles, activity, updates, versions and the media list within the screen, every column of their tables shown', async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} })).status).to.equal(201);
    const created = await ui.api('POST', '/content/posts', { title: 'Spring campaign of the northern region' });
    expect((await ui.api('PATCH', `/content/posts/${created.body.data.id}`, { title: 'Spring campaign of the northern region, second draft' })).status).to.equal(200);
    await openOnPhone('/admin/media');
    await ui.page.locator('.upload input[type=file]').setInputFiles({ name: `${LONG}-hero-image.png`, mimeType: 'image/png', buffer: await makePng(40, 30) });
    const file = ui.page.getByRole('button', { name: `Open ${LONG}-hero-image.png` });
    await file.waitFor();
    await ui.page.getByRole('button', { name: 'List' }).click();
    const opener = ui.page.getByRole('button', { name: `${LONG}-hero-image.png`, exact: true });
    const visibility = ui.page.getByRole('cell', { name: /Public$/ });
    await expectAllOnScreen(ui.page, [opener, ui.page.getByRole('checkbox', { name: `Select ${LONG}-hero-image.png` }), visibility]);
    await screenshots(ui.page, 'media-list-narrow');
    const screens: [string, string, RegExp][] = [
      ['/admin/roles', 'roles', /^Roles$/],
      ['/admin/activity', 'activity', /^Activity$/],
      ['/admin/updates', 'updates', /^Updates$/],
      [`/admin/content/posts/${created.body.data.id}/versions`, 'versions', /Versions/],
    ];
    for (const [path, name, heading] of screens) {
      await openOnPhone(path);
      await ui.page.getByRole('heading', { level: 1, name: heading }).waitFor();
      // The activity log's last column, the workspace, is on screen too.
      await expectAllOnScreen(ui.page, name === 'activity' ? [ui.page.getByRole('cell', { name: /default$/ }).first()] : []);
      await screenshots(ui.page, `${name}-narrow`);
    }
  });
});

/** Each control lies wholly inside the 360 px viewport once scrolled to vertically, and the page is no wider than the viewport. */
async function expectAllOnScreen(page: Page, controls: Locator[]): Promise<void> {
  for (const control of controls) {
    // Scrolling the page, never the table: the box must already be in the viewport's width.
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = await control.boundingBox();
    expect(box, `${control} is drawn`).to.not.equal(null);
    expect(box!.x, `${control} starts on screen`).to.be.at.least(0);
    expect(box!.x + box!.width, `${control} ends on screen`).to.be.at.most(PHONE.width);
    expect(await control.evaluate(isUnclipped), `${control} is not hidden inside a scrolled box`).to.equal(true);
  }
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll, 'page width').to.be.at.most(widths.inner);
}

// A control can sit inside the viewport's width yet be cut off by a parent
// that scrolls sideways (the table's wrapper): every such parent must show it whole.
function isUnclipped(element: Element): boolean {
  const box = element.getBoundingClientRect();
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const style = getComputedStyle(parent);
    if (style.overflowX === 'visible') continue;
    const frame = parent.getBoundingClientRect();
    if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5) return false;
  }
  return true;
}
