// The admin app's shell in Chromium against the real server: first-run
// setup, sign-in and sign-out, a session that ends with an edit in progress
// (kept and offered back), the workspace switcher, reordering types by drag
// and by keyboard (the handles' instructions given to assistive technology),
// and what a limited role sees.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, setupAdmin, type AdminSession } from '../helpers/auth.ts';
import { userWithGrants } from '../helpers/admin-users.ts';
import { describeInBrowser, PHONE, screenshots, signIn, startBrowserRun, type BrowserRun } from '../helpers/browser.ts';

describeInBrowser('admin app shell (Chromium)', () => {
  let run: BrowserRun;
  let page: Page;

  beforeEach(async () => {
    run = await startBrowserRun({ env: { CMS_EVENTS_HEARTBEAT_MS: '200' } });
    page = await run.newPage();
  });

  afterEach(async () => {
    try {
      run?.assertNoConsoleErrors();
    } finally {
      await run?.close();
    }
  });

  const createType = (admin: AdminSession, name: string, extra: Record<string, unknown> = {}, workspace?: string) =>
    adminRequest(run.server, admin, 'POST', '/content-types', { name, label: name[0].toUpperCase() + name.slice(1), fields: {}, ...extra }, workspace ? { 'x-service-workspace': workspace } : {});
  const sidebarLabels = async (section: string) => {
    const list = page.getByRole('region', { name: section }).getByRole('listitem');
    await list.first().waitFor();
    return list.allInnerTexts();
  };
  const storedOrder = async (admin: AdminSession) => ((await adminRequest(run.server, admin, 'GET', '/content-types')).body.data as { name: string }[]).map((type) => type.name);

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

  it('signs in, says so when the password is wrong, and signs out', async () => {
    const admin = await setupAdmin(run.server);
    await createType(admin, 'posts');
    await page.goto(`${run.server.baseUrl}/admin`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshots(page, 'login');
    await page.getByLabel('Username').fill(ADMIN_USERNAME);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /username or password/i }).waitFor();

    await signIn(page, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    await page.getByRole('heading', { name: `Welcome, ${ADMIN_USERNAME}` }).waitFor();
    await screenshots(page, 'home');
    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('alert').count()).to.equal(0);
  });

  it('goes back to sign-in when the session ends and offers the unsaved edit back', async () => {
    await setupAdmin(run.server);
    await signIn(page, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('link', { name: 'Your profile' }).click();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    await screenshots(page, 'profile');
    await page.getByLabel('Display name').fill('Ada Lovelace');
    await page.getByText('Unsaved changes').waitFor();

    // The session ends on the server (as after idle expiry or a password reset); the live stream notices.
    await run.server.services.sessions.destroyForUser(run.server.services.accounts.users()[0].id);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Your session has ended' }).waitFor();
    expect(page.url()).to.equal(`${run.server.baseUrl}/admin/profile`);
    await screenshots(page, 'login-expired');

    await signIn(page, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    await page.getByRole('region', { name: 'Unsaved changes' }).waitFor();
    expect(await page.getByLabel('Display name').inputValue()).to.equal(ADMIN_USERNAME);
    await page.getByRole('button', { name: 'Restore my changes' }).click();
    expect(await page.getByLabel('Display name').inputValue()).to.equal('Ada Lovelace');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Profile saved.').waitFor();
    expect(run.server.services.accounts.users()[0].display_name).to.equal('Ada Lovelace');

    await page.reload();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    expect(await page.getByRole('region', { name: 'Unsaved changes' }).count()).to.equal(0);
  });

  it('switches workspaces, remembers the choice, and shows new types live', async () => {
    const admin = await setupAdmin(run.server);
    expect((await adminRequest(run.server, admin, 'POST', '/workspaces', { slug: 'blog', label: 'Blog' })).status).to.equal(201);
    await createType(admin, 'posts');
    await createType(admin, 'articles', {}, 'blog');
    await signIn(page, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    expect(await sidebarLabels('Collections')).to.deep.equal(['Posts']);

    await page.getByLabel('Workspace').selectOption('blog');
    await page.getByRole('region', { name: 'Collections' }).getByText('Articles').waitFor();
    expect(await sidebarLabels('Collections')).to.deep.equal(['Articles']);
    await page.reload();
    await page.getByRole('region', { name: 'Collections' }).getByText('Articles').waitFor();
    expect(await page.getByLabel('Workspace').inputValue()).to.equal('blog');

    await createType(admin, 'about', { singleton: true }, 'blog');
    await createType(admin, 'pages');
    await page.getByRole('region', { name: 'Single pages' }).getByText('About').waitFor();
    expect(await sidebarLabels('Collections')).to.deep.equal(['Articles']);
  });

  it('reorders types with the keyboard', async () => {
    const admin = await setupAdmin(run.server);
    for (const name of ['alpha', 'beta', 'gamma']) await createType(admin, name);
    await signIn(page, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Move Gamma' }).focus();
    await page.keyboard.press('ArrowUp');
    await page.getByText('Order saved.').waitFor();
    await page.keyboard.press('ArrowUp');
    await page.getByRole('status').filter({ hasText: 'Gamma moved to position 1 of 3.' }).waitFor();
    await pollOrder(() => storedOrder(admin), ['gamma', 'alpha', 'beta']);
    expect(await sidebarLabels('Collections')).to.deep.equal(['Gamma', 'Alpha', 'Beta']);
    await screenshots(page, 'shell-reordered');
  });

  it('gives each reorder handle its instructions as an accessible description, out of sight', async () => {
    const admin = await setupAdmin(run.server);
    for (const name of ['alpha', 'beta']) await createType(admin, name);
    await createType(admin, 'about', { singleton: true });
    await signIn(page, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    const instructions = 'Drag, or use the up and down arrow keys, to change the order.';
    for (const name of ['alpha', 'beta', 'about']) {
      const handle = page.locator(`[data-name="${name}"] .type-nav__handle`);
      await handle.waitFor();
      // Chromium's own accessibility tree: what a screen reader is given.
      expect(await accessibleDescription(page, `[data-name="${name}"] .type-nav__handle`), name).to.equal(instructions);
      const describedBy = await handle.getAttribute('aria-describedby');
      expect(describedBy, `${name}: described by text in the page, not by a tooltip only`).to.be.a('string');
      const text = page.locator(`[id="${describedBy}"]`);
      expect(await text.textContent()).to.equal(instructions);
      const box = await text.boundingBox();
      expect(box!.width * box!.height, 'the text takes no room in the sidebar').to.be.at.most(1);
    }
  });

  it('reorders types by dragging', async () => {
    const admin = await setupAdmin(run.server);
    for (const name of ['alpha', 'beta', 'gamma']) await createType(admin, name);
    await createType(admin, 'home', { singleton: true });
    await signIn(page, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    const handle = await page.getByRole('button', { name: 'Move Alpha' }).boundingBox();
    const last = await page.getByRole('region', { name: 'Collections' }).getByRole('listitem').last().boundingBox();
    if (!handle || !last) throw new Error('the sidebar is not laid out');
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2, last.y + last.height - 2, { steps: 8 });
    await page.mouse.up();
    await page.getByText('Order saved.').waitFor();
    await pollOrder(() => storedOrder(admin), ['beta', 'gamma', 'alpha', 'home']);
    expect(await sidebarLabels('Collections')).to.deep.equal(['Beta', 'Gamma', 'Alpha']);
  });

  it('shows a limited role no administration entries and no reordering', async () => {
    const admin = await setupAdmin(run.server);
    await createType(admin, 'posts');
    await createType(admin, 'about', { singleton: true });
    await userWithGrants(run.server, admin, 'writer', [{ effect: 'allow', actions: ['content.*', 'schema.read'], resources: ['*'] }]);
    await signIn(page, run.server.baseUrl, 'writer', 'writer-password-1');
    expect(await sidebarLabels('Collections')).to.deep.equal(['Posts']);
    expect(await sidebarLabels('Single pages')).to.deep.equal(['About']);
    expect(await page.getByRole('region', { name: 'Administration' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: /^Move / }).count()).to.equal(0);
    await screenshots(page, 'shell-limited');

    const adminPage = await run.newPage();
    await signIn(adminPage, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    await adminPage.getByRole('button', { name: 'Move Posts' }).waitFor();
    expect(await adminPage.getByRole('button', { name: /^Move / }).count()).to.equal(2);
  });

  it('folds the sidebar into a menu button below 768 px', async () => {
    const admin = await setupAdmin(run.server);
    await createType(admin, 'posts');
    await page.setViewportSize(PHONE);
    await signIn(page, run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).to.equal('false');
    expect(await page.getByLabel('Workspace').isVisible()).to.equal(false);
    await menu.click();
    await page.getByLabel('Workspace').waitFor({ state: 'visible' });
    await page.screenshot({ path: 'test-results/screenshots/shell-menu-open-360.png', animations: 'disabled' });
    await page.keyboard.press('Escape');
    await page.getByLabel('Workspace').waitFor({ state: 'hidden' });
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
