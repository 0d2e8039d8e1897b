// Browser tests of the admin app: the production build of src/admin-ui
// (built once per run into a temp folder) served by the real server on port
// 0, driven in Debian's Chromium through playwright-core. Pages fail their
// test on any console error or uncaught exception; screenshots go to
// test-results/screenshots/ (git-ignored).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { promisify } from 'node:util';
import { startTestServer, type TestResponse, type TestServer, type TestServerOptions } from './server.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminRequest, setupAdmin, type AdminSession } from './auth.ts';
import { removeAtExit } from './temp-folders.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Where Chromium is looked for: CHROMIUM_PATH, else Debian's package. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOTS = path.join(ROOT, 'test-results', 'screenshots');
const DESKTOP = { width: 1280, height: 800 };
/** The phone size UI.md asks every screen to be looked at in. */
export const PHONE = { width: 360, height: 740 };

let appDir: Promise<string> | undefined;

/**
 * Like mocha's describe(), for suites that need Chromium; without it, the
 * suite is one pending test that says how to install it.
 */
export function describeInBrowser(title: string, suite: () => void): void {
  if (existsSync(CHROMIUM_PATH)) describe(title, suite);
  else describe(title, () => it(`runs in Chromium: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH; not found at ${CHROMIUM_PATH})`));
}

/** A server with the built app, a browser, and the console errors of its pages. */
export interface BrowserRun {
  server: TestServer;
  browser: Browser;
  /** A page in a fresh context (its own cookies and storage) that records console errors. */
  newPage(): Promise<Page>;
  /** Fails when any page of the run logged an error; call it after each test. */
  assertNoConsoleErrors(): void;
  close(): Promise<void>;
}

/**
 * Starts the server (fresh temp data root) with the production build of the
 * app and launches Chromium with a fresh profile (playwright makes a new
 * user-data-dir per launch).
 */
export async function startBrowserRun(options: TestServerOptions = {}): Promise<BrowserRun> {
  appDir ??= buildApp();
  const server = await startTestServer({ ...options, env: { CMS_ADMIN_APP_DIR: await appDir, ...options.env } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS, headless: true });
  const errors: string[] = [];
  return {
    server,
    browser,
    newPage: async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !isAnsweredApiError(message.text(), message.location().url, server.baseUrl)) errors.push(`console: ${message.text()} (${message.location().url})`);
      });
      return page;
    },
    assertNoConsoleErrors: () => {
      const found = errors.splice(0);
      if (found.length > 0) throw new Error(`The browser logged errors:\n${found.join('\n')}`);
    },
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

// Chromium logs every 4xx/5xx answer as "Failed to load resource". For the
// admin API those are answers the app reads and shows (401 before sign-in,
// 422 with field messages), not faults; for anything else they are.
function isAnsweredApiError(text: string, url: string, baseUrl: string): boolean {
  return text.startsWith('Failed to load resource: the server responded with a status of') && url.startsWith(`${baseUrl}/admin/api/`);
}

/** What withAdminBrowser() hands each test: the run, a page, and the session of the first administrator. */
export interface AdminBrowser {
  run: BrowserRun;
  page: Page;
  admin: AdminSession;
  /** Calls the admin API (`url` below /admin/api) as the first administrator, past the browser: to arrange or check what a test's screens show. */
  api(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** Signs the first administrator in on `page` through the sign-in screen (signIn() below), then opens `path` if given. */
  signIn(path?: string): Promise<void>;
  /** Opens `path` of the server (`/admin/…`) in `page`. */
  open(path: string): Promise<void>;
}

/**
 * Registers hooks that start a fresh run for every test (server on port 0,
 * first-run setup done, a page with a 10 s default timeout) and, after it,
 * fail on console errors and close everything. Read the fields inside tests.
 */
export function withAdminBrowser(options: TestServerOptions = {}): AdminBrowser {
  const current = {
    api: (method: string, url: string, body?: unknown, headers?: Record<string, string>) => adminRequest(current.run.server, current.admin, method, url, body, headers),
    signIn: async (path?: string) => {
      await signIn(current.page, current.run.server.baseUrl, ADMIN_USERNAME, ADMIN_PASSWORD);
      if (path !== undefined) await current.open(path);
    },
    open: async (path: string) => {
      await current.page.goto(`${current.run.server.baseUrl}${path}`);
    },
  } as AdminBrowser;
  beforeEach(async () => {
    current.run = await startBrowserRun(options);
    current.page = await current.run.newPage();
    current.page.setDefaultTimeout(10_000);
    current.admin = await setupAdmin(current.run.server);
  });
  afterEach(async () => {
    try {
      current.run?.assertNoConsoleErrors();
    } finally {
      await current.run?.close();
    }
  });
  return current;
}

/** Saves `page` as test-results/screenshots/{name}-1280.png and -360.png, then restores the desktop size. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize(DESKTOP);
}

/** Opens /admin and signs in through the sign-in screen; resolves when the shell shows. */
export async function signIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  if (!page.url().startsWith(baseUrl)) await page.goto(`${baseUrl}/admin`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Attached, not visible: below 768 px the sidebar is folded away.
  await page.getByRole('navigation', { name: 'Main', includeHidden: true }).waitFor({ state: 'attached' });
}

// The production build of the app, made once per test run into a temp
// folder, so the tests always drive the current sources. Vite runs in its own
// process: the test process's TypeScript loader would get in its way. The
// folder goes when the test process exits.
async function buildApp(): Promise<string> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'cms-admin-app-'));
  removeAtExit(outDir);
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', 'src/admin-ui/vite.config.ts', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT });
  return outDir;
}
