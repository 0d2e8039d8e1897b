// npm run audit:ui: Lighthouse accessibility and performance scores for the
// admin app's screens, and the size of the JavaScript the first screen loads.
// It starts the compiled server (dist/, `npm run build`) on a free port with
// a temp data root, sets up an administrator with sample content, signs in
// through the API and hands the session cookie to Lighthouse, which drives
// Debian's Chromium (CHROME_PATH, default /usr/bin/chromium).
// Add a screen: one line in SCREENS. Audit some only: `npm run audit:ui -- home profile`.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

interface Screen {
  name: string;
  /** Path under the server, e.g. /admin/profile. */
  path: string;
  /** Audit as the signed-in administrator (false: as a visitor, e.g. the sign-in screen). */
  signedIn: boolean;
}

const SCREENS: Screen[] = [
  { name: 'sign-in', path: '/admin', signedIn: false },
  { name: 'home', path: '/admin', signedIn: true },
  { name: 'profile', path: '/admin/profile', signedIn: true },
];

const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN = { username: 'admin', password: 'audit password 123' };

const wanted = process.argv.slice(2);
const screens = wanted.length > 0 ? SCREENS.filter((screen) => wanted.includes(screen.name)) : SCREENS;
if (screens.length === 0) throw new Error(`No such screen; known: ${SCREENS.map((screen) => screen.name).join(', ')}`);

await printInitialJavaScript();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cms-audit-'));
const { startServer } = (await import(path.join(ROOT, 'dist/server/main.js'))) as typeof import('../src/main.ts');
const server = await startServer({ env: { CMS_LOG_LEVEL: 'error' }, flags: { port: '0', host: '127.0.0.1', data: dataDir } });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const cookie = await seed(server.url);
  console.log(`\nLighthouse (desktop, ${server.url})\n${'screen'.padEnd(12)} accessibility  performance`);
  for (const screen of screens) {
    const result = await lighthouse(`${server.url}${screen.path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['accessibility', 'performance'],
      formFactor: 'desktop',
      screenEmulation: { mobile: false, width: 1280, height: 800, deviceScaleFactor: 1, disabled: false },
      throttlingMethod: 'simulate',
      extraHeaders: screen.signedIn ? { Cookie: cookie } : undefined,
    });
    const categories = result?.lhr.categories;
    const score = (key: string) => String(Math.round((categories?.[key]?.score ?? 0) * 100)).padStart(5);
    console.log(`${screen.name.padEnd(12)} ${score('accessibility')}          ${score('performance')}`);
    for (const audit of Object.values(result?.lhr.audits ?? {})) {
      if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary') console.log(`  - ${audit.id}: ${audit.title}`);
    }
  }
} finally {
  await chrome.kill();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}

// Sets up the administrator and two types, then signs in: the session cookie.
async function seed(base: string): Promise<string> {
  const setup = await fetch(`${base}/admin/api/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...ADMIN, display_name: 'Audit' }) });
  const csrf = ((await setup.json()) as { meta: { csrf_token: string } }).meta.csrf_token;
  const cookie = setup.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  for (const type of [{ name: 'posts', label: 'Posts' }, { name: 'about', label: 'About', singleton: true }]) {
    await fetch(`${base}/admin/api/content-types`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }, body: JSON.stringify({ ...type, fields: {} }) });
  }
  return cookie;
}

// The entry chunk and what it imports statically (Vite's manifest), gzipped: what the first screen loads.
async function printInitialJavaScript(): Promise<void> {
  const dir = path.join(ROOT, 'dist/admin');
  const manifest = JSON.parse(await readFile(path.join(dir, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  let total = 0;
  for (const file of files) total += gzipSync(await readFile(path.join(dir, file)), { level: 9 }).length;
  console.log(`Initial JavaScript of the first screen: ${(total / 1024).toFixed(1)} KB gzipped (${[...files].join(', ')}); budget 200 KB.`);
}
