// The admin app's shell in Chromium against the real server: first-run
// setup, sign-in and sign-out, a session that ends with an edit in progress
// (kept and offered back), the workspace switcher, reordering types by drag
// and by keyboard (the handles' instructions given to assistive technology),
// and what a limited role sees. First-run setup needs a server nobody has set
// up, so it has its own run; the rest start signed-out with the first
// administrator set up (withAdminBrowser).
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../helpers/auth.ts';
import { userWithGrants } from '../helpers/admin-users.ts';
import { describeInBrowser, PHONE, screenshots, signIn, startBrowserRun, withAdminBrowser, type BrowserRun } from '../helpers/browser.ts';

describeInBrowser('admin app first-run setup (Chromium)', () => {
  let run: BrowserRun;
  let page: Page;

  beforeEach(async () => {
    run = await startBrowserRun();
    page = await run.newPage();
  });

  afterEach(async () => {
    try {
      run?.assertNoConsoleErrors();
    } finally {
      await run?.close();
    }
  });

  it('runs first-run setup, showing field messages from the API', async () => {
    await page.goto(`${run.server.baseUrl}/admin`);
    await page.getByRole('heading', { name: 'Set up git-cms' }).waitFor();
    await screenshots(page, 'setup');
    await page.getByLabel('Username').fill('editor-in-chief');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('The password must have at least 8 characters.', { exact: true }).first().waitFor();
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).to.equal('true');

    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Welcome, Ada' }).waitFor();
    await page.getByRole('heading', { name: 'No content types yet' }).waitFor();
    await screenshots(page, 'home-empty');
    expect((await run.server.request('GET', '/admin/api/me')).status).to.equal(401);
  });
});

describeInBrowser('admin app shell (Chromium)', () => {
  const ui = withAdminBrowser({ env: { CMS_EVENTS_HEARTBEAT_MS: '200' } });

  const createType = (name: string, extra: Record<string, unknown> = {}, workspace?: string) =>
    ui.api('POST', '/content-types', { name, label: name[0].toUpperCase() + name.slice(1), fields: {}, ...extra }, workspace ? { 'x-service-workspace': workspace } : {});
  const sidebarLabels = async (section: string) => {
    const list = ui.page.getByRole('region', { name: section }).getByRole('listitem');
    await list.first().waitFor();
    return list.allInnerTexts();
  };
  const storedOrder = async () => ((await ui.api('GET', '/content-types')).body.data as { name: string }[]).map((type) => type.name);

  it('signs in, says so when the password is wrong, and signs out', async () => {
    await createType('posts');
    await ui.open('/admin');
    await ui.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshots(ui.page, 'login');
    await ui.page.getByLabel('Username').fill(ADMIN_USERNAME);
    await ui.page.getByLabel('Password').fill('not the password');
    await ui.page.getByRole('button', { name: 'Sign in' }).click();
    await ui.page.getByRole('alert').filter({ hasText: /username or password/i }).waitFor();

    await ui.signIn();
    await ui.page.getByRole('heading', { name: `Welcome, ${ADMIN_USERNAME}` }).waitFor();
    await screenshots(ui.page, 'home');
    await ui.page.getByRole('button', { name: /account menu/ }).click();
    await ui.page.getByRole('button', { name: 'Sign out' }).click();
    await ui.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await ui.page.getByRole('alert').count()).to.equal(0);
  });

  it('goes back to sign-in when the session ends and offers the unsaved edit back', async () => {
    await ui.signIn();
    await ui.page.getByRole('button', { name: /account menu/ }).click();
    await ui.page.getByRole('link', { name: 'Your profile' }).click();
    await ui.page.getByRole('heading', { name: 'Your profile' }).waitFor();
    await screenshots(ui.page, 'profile');
    await ui.page.getByLabel('Display name').fill('Ada Lovelace');
    await ui.page.getByText('Unsaved changes').waitFor();

    // The session ends on the server (as after idle expiry or a password reset); the live stream notices.
    await ui.run.server.services.sessions.destroyForUser(ui.run.server.services.accounts.users()[0].id);
    await ui.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await ui.page.getByRole('alert').filter({ hasText: 'Your session has ended' }).waitFor();
    expect(ui.page.url()).to.equal(`${ui.run.server.baseUrl}/admin/profile`);
    await screenshots(ui.page, 'login-expired');

    await ui.signIn();
    await ui.page.getByRole('region', { name: 'Unsaved changes' }).waitFor();
    expect(await ui.page.getByLabel('Display name').inputValue()).to.equal(ADMIN_USERNAME);
    await ui.page.getByRole('button', { name: 'Restore my changes' }).click();
    expect(await ui.page.getByLabel('Display name').inputValue()).to.equal('Ada Lovelace');
    await ui.page.getByRole('button', { name: 'Save', exact: true }).click();
    await ui.page.getByText('Profile saved.').waitFor();
    expect(ui.run.server.services.accounts.users()[0].display_name).to.equal('Ada Lovelace');

    await ui.page.reload();
    await ui.page.getByRole('heading', { name: 'Your profile' }).waitFor();
    expect(await ui.page.getByRole('region', { name: 'Unsaved changes' }).count()).to.equal(0);
  });

  it('switches workspaces, remembers the choice, and shows new types live', async () => {
    expect((await ui.api('POST', '/workspaces', { slug: 'blog', label: 'Blog' })).status).to.equal(201);
    await createType('posts');
    await createType('articles', {}, 'blog');
    await ui.signIn();
    expect(await sidebarLabels('Collections')).to.deep.equal(['Posts']);

    await ui.page.getByLabel('Workspace').selectOption('blog');
    await ui.page.getByRole('region', { name: 'Collections' }).getByText('Articles').waitFor();
    expect(await sidebarLabels('Collections')).to.deep.equal(['Articles']);
    await ui.page.reload();
    await ui.page.getByRole('region', { name: 'Collections' }).getByText('Articles').waitFor();
    expect(await ui.page.getByLabel('Workspace').inputValue()).to.equal('blog');

    await createType('about', { singleton: true }, 'blog');
    await createType('pages');
    await ui.page.getByRole('region', { name: 'Single pages' }).getByText('About').waitFor();
    expect(await sidebarLabels('Collections')).to.deep.equal(['Articles']);
  });

  it('reorders types with the keyboard', async () => {
    for (const name of ['alpha', 'beta', 'gamma']) await createType(name);
    await ui.signIn();
    await ui.page.getByRole('button', { name: 'Move Gamma' }).focus();
    await ui.page.keyboard.press('ArrowUp');
    await ui.page.getByText('Order saved.').waitFor();
    await ui.page.keyboard.press('ArrowUp');
    await ui.page.getByRole('status').filter({ hasText: 'Gamma moved to position 1 of 3.' }).waitFor();
    await pollOrder(() => storedOrder(), ['gamma', 'alpha', 'beta']);
    expect(await sidebarLabels('Collections')).to.deep.equal(['Gamma', 'Alpha', 'Beta']);
    await screenshots(ui.page, 'shell-reordered');
  });

  it('gives each reorder handle its instructions as an accessible description, out of sight', async () => {
    for (const name of ['alpha', 'beta']) await createType(name);
    await createType('about', { singleton: true });
    await ui.signIn();
    const instructions = 'Drag, or use the up and down arrow keys, to change the order.';
    for (const name of ['alpha', 'beta', 'about']) {
      const handle = ui.page.locator(`[data-name="${name}"] .type-nav__handle`);
      await handle.waitFor();
      // Chromium's own accessibility tree: what a screen reader is given.
      expect(await accessibleDescription(ui.page, `[data-name="${name}"] .type-nav__handle`), name).to.equal(instructions);
      const describedBy = await handle.getAttribute('aria-describedby');
      expect(describedBy, `${name}: described by text in the page, not by a tooltip only`).to.be.a('string');
      const text = ui.page.locator(`[id="${describedBy}"]`);
      expect(await text.textContent()).to.equal(instructions);
      const box = await text.boundingBox();
      expect(box!.width * box!.height, 'the text takes no room in the sidebar').to.be.at.most(1);
    }
  });

  it('reorders types by dragging', async () => {
    for (const name of ['alpha', 'beta', 'gamma']) await createType(name);
    await createType('home', { singleton: true });
    await ui.signIn();
    const handle = await ui.page.getByRole('button', { name: 'Move Alpha' }).boundingBox();
    const last = await ui.page.getByRole('region', { name: 'Collections' }).getByRole('listitem').last().boundingBox();
    if (!handle || !last) throw new Error('the sidebar is not laid out');
    await ui.page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await ui.page.mouse.down();
    await ui.page.mouse.move(handle.x + handle.width / 2, last.y + last.height - 2, { steps: 8 });
    await ui.page.mouse.up();
    await ui.page.getByText('Order saved.').waitFor();
    await pollOrder(() => storedOrder(), ['beta', 'gamma', 'alpha', 'home']);
    expect(await sidebarLabels('Collections')).to.deep.equal(['Beta', 'Gamma', 'Alpha']);
  });

  it('shows a limited role no administration entries and no reordering', async () => {
    await createType('posts');
    await createType('about', { singleton: true });
    await userWithGrants(ui.run.server, ui.admin, 'writer', [{ effect: 'allow', actions: ['content.*', 'schema.read'], resources: ['*'] }]);
    await signIn(ui.page, ui.run.server.baseUrl, 'writer', 'writer-password-1');
    expect(await sidebarLabels('Collections')).to.deep.equal(['Posts']);
    expect(await sidebarLabels('Single pages')).to.deep.equal(['About']);
    expect(await ui.page.getByRole('region', { name: 'Administration' }).count()).to.equal(0);
    expect(await ui.page.getByRole('button', { name: /^Move / }).count()).to.equal(0);
    await screenshots(ui.page, 'shell-limited');

    const adminPage = await ui.run.newPage();
    await signIn(adminPage, ui.run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    await adminPage.getByRole('button', { name: 'Move Posts' }).waitFor();
    expect(await adminPage.getByRole('button', { name: /^Move / }).count()).to.equal(2);
  });

  it('folds the sidebar into a menu button below 768 px', async () => {
    await createType('posts');
    await ui.page.setViewportSize(PHONE);
    await ui.signIn();
    const menu = ui.page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).to.equal('false');
    expect(await ui.page.getByLabel('Workspace').isVisible()).to.equal(false);
    await menu.click();
    await ui.page.getByLabel('Workspace').waitFor({ state: 'visible' });
    await ui.page.screenshot({ path: 'test-results/screenshots/shell-menu-open-360.png', animations: 'disabled' });
    await ui.page.keyboard.press('Escape');
    await ui.page.getByLabel('Workspace').waitFor({ state: 'hidden' });
  });
});

async function pollOrder(read: () => Promise<string[]>, expected: string[]): Promise<void> {
  const deadline = Date.now() + 5000;
  let order = await read();
  while (order.join() !== expected.join() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    order = await read();
  }
  expect(order).to.deep.equal(expected);
}

/** The accessible description Chromium computes for the first element matching `selector`. */
async function accessibleDescription(page: Page, selector: string): Promise<string | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return nodes[0]?.description?.value as string | undefined;
  } finally {
    await cdp.detach();
  }
}
