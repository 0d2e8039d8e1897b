// npm run audit:ui: Lighthouse accessibility and performance scores for the
// admin app's screens, and the size of the JavaScript the first screen loads.
// It starts the compiled server (dist/, `npm run build`) on a free port with
// a temp data root, sets up an administrator with sample content, signs in
// through the API and hands the session cookie to Lighthouse, which drives
// Debian's Chromium (CHROME_PATH, default /usr/bin/chromium).
// Add a screen: one line in SCREENS. Audit some only: `npm run audit:ui -- home profile`;
// add `--mobile` for Lighthouse's mobile preset (default: its desktop preset).
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

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
  { name: 'entries', path: '/admin/content/posts', signedIn: true },
  { name: 'editor', path: '/admin/content/posts/hello-audit', signedIn: true },
  { name: 'versions', path: '/admin/content/posts/hello-audit/versions', signedIn: true },
  { name: 'trash', path: '/admin/trash/posts', signedIn: true },
  { name: 'types', path: '/admin/types', signedIn: true },
  { name: 'type-builder', path: '/admin/types/posts', signedIn: true },
  { name: 'media', path: '/admin/media', signedIn: true },
  { name: 'users', path: '/admin/users', signedIn: true },
  { name: 'roles', path: '/admin/roles', signedIn: true },
  { name: 'role', path: '/admin/roles/editor', signedIn: true },
  { name: 'tokens', path: '/admin/tokens', signedIn: true },
  { name: 'webhooks', path: '/admin/webhooks', signedIn: true },
  { name: 'releases', path: '/admin/releases', signedIn: true },
  { name: 'backups', path: '/admin/backups', signedIn: true },
  { name: 'workspaces', path: '/admin/workspaces', signedIn: true },
  { name: 'activity', path: '/admin/activity', signedIn: true },
  { name: 'updates', path: '/admin/updates', signedIn: true },
];

const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN = { username: 'admin', password: 'audit password 123' };
const POST_FIELDS = {
  summary: { type: 'textarea', label: 'Summary' },
  body: { type: 'markdown', label: 'Body' },
  text: { type: 'html', label: 'Text' },
  category: { type: 'select', label: 'Category', options: ['news', 'tech'] },
  tags: { type: 'select', label: 'Tags', multiple: true, options: ['a', 'b'] },
  featured: { type: 'boolean', label: 'Featured' },
};

// `--mobile`: Lighthouse's default (mobile) preset, a phone screen on a slow network, instead of its desktop preset.
const isMobile = process.argv.includes('--mobile');
const wanted = process.argv.slice(2).filter((arg) => arg !== '--mobile');
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
  console.log(`\nLighthouse (${isMobile ? 'mobile' : 'desktop'} preset, ${server.url})\n${'screen'.padEnd(12)} accessibility  performance`);
  for (const screen of screens) {
    const result = await lighthouse(`${server.url}${screen.path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['accessibility', 'performance'],
      throttlingMethod: 'simulate',
      extraHeaders: screen.signedIn ? { Cookie: cookie } : undefined,
      // Lighthouse's own presets: a screen with the matching network and CPU throttling.
    }, isMobile ? undefined : desktopConfig);
    const categories = result?.lhr.categories;
    const score = (key: string) => String(Math.round((categories?.[key]?.score ?? 0) * 100)).padStart(5);
    const metric = (id: string) => result?.lhr.audits[id]?.displayValue ?? '?';
    console.log(`${screen.name.padEnd(12)} ${score('accessibility')}          ${score('performance')}   (FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')})`);
    if (process.env.AUDIT_DETAILS) console.log(JSON.stringify({ lcp: result?.lhr.audits['largest-contentful-paint-element']?.details, requests: (result?.lhr.audits['network-requests']?.details as { items?: { url: string; networkRequestTime: number; networkEndTime: number; transferSize: number }[] })?.items?.map((r) => `${Math.round(r.networkRequestTime)}-${Math.round(r.networkEndTime)} ${r.transferSize} ${r.url.replace(server.url, '')}`) }, null, 1));
    for (const audit of Object.values(result?.lhr.audits ?? {})) {
      if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary') console.log(`  - ${audit.id}: ${audit.title}`);
    }
  }
} finally {
  await chrome.kill();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}


// Sets up the administrator, two localized types and 60 posts (one of them
// `hello-audit`, the editor's), then signs in: the session cookie.
async function seed(base: string): Promise<string> {
  const setup = await fetch(`${base}/admin/api/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...ADMIN, display_name: 'Audit' }) });
  const csrf = ((await setup.json()) as { meta: { csrf_token: string } }).meta.csrf_token;
  const cookie = setup.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const send = (url: string, body: unknown) =>
    fetch(`${base}/admin/api${url}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }, body: JSON.stringify(body) });
  await send('/content-types', { name: 'posts', label: 'Posts', locales: ['en', 'de'], default_locale: 'en', fields: POST_FIELDS });
  await send('/content-types', { name: 'about', label: 'About', singleton: true, fields: {} });
  await send('/content/posts', { title: 'Hello audit', slug: 'hello-audit', summary: 'A post to audit.', body: '# Hello\n\nSome *text*.', text: '<p>Rich <strong>text</strong></p>', category: 'news', tags: ['a'] });
  for (let n = 1; n < 60; n++) await send('/content/posts', { title: `Post number ${n}`, status: n % 2 ? 'published' : 'draft', category: n % 3 ? 'news' : 'tech' });
  // A second version of the audited entry, and an entry in the trash.
  await fetch(`${base}/admin/api/content/posts/hello-audit`, { method: 'PATCH', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }, body: JSON.stringify({ summary: 'A post to audit, edited.' }) });
  await fetch(`${base}/admin/api/content/posts/post-number-1`, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrf } });
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
