// The administration tables on a 360 px phone, in Chromium against the real
// server: every row's action buttons are on screen and the page never scrolls
// sideways (UI.md "Look at it … at 360 px").
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest } from '../helpers/auth.ts';
import { describeInBrowser, screenshots, signIn, withAdminBrowser } from '../helpers/browser.ts';

const PHONE = { width: 360, height: 740 };

describeInBrowser('administration tables at 360 px (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser();

  beforeEach(async () => {
    await signIn(ui.page, ui.run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
  });

  const api = (method: string, url: string, body?: unknown) => adminRequest(ui.run.server, ui.admin, method, url, body);
  const openOnPhone = async (path: string) => {
    await ui.page.setViewportSize(PHONE);
    await ui.page.goto(`${ui.run.server.baseUrl}${path}`);
  };

  it('shows every webhook action on screen without sideways scrolling', async () => {
    const url = 'https://hooks.example.com/a/rather/long/path/for/the/site-build?token=0123456789abcdef';
    expect((await api('PUT', '/webhooks', { webhooks: [{ url, events: ['content.created', 'content.updated', 'content.published'], enabled: true }] })).status).to.equal(200);
    await openOnPhone('/admin/webhooks');
    const buttons = [`Send a test to ${url}`, `Edit ${url}`, `Remove ${url}`].map((name) => ui.page.getByRole('button', { name, exact: true }));
    await buttons[0].waitFor();
    await expectAllOnScreen(ui.page, buttons);
    await screenshots(ui.page, 'webhooks-narrow');
  });

  it('shows every workspace action on screen without sideways scrolling, the rename form included', async () => {
    expect((await api('POST', '/workspaces', { slug: 'company-blog-for-the-northern-region', label: 'Company blog for the northern region' })).status).to.equal(201);
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
