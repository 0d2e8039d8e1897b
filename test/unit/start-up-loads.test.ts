import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { contentRepoOf, externalCommit } from '../helpers/git.ts';
import { startTestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

// What the server's modules load before their first answer is start-up time
// (docs/performance.md, "Cold start"); these CommonJS libraries load with the
// first request that needs them.
const LOADED_ON_FIRST_USE = ['ajv', 'gray-matter', 'js-yaml', 'sanitize-html', 'yaml'];
// What a start on existing content loads besides: none of these (docs/architecture.md, "Loaded on first use").
const NOT_READ_BY_A_START = [...LOADED_ON_FIRST_USE, 'esprima', '@sindresorhus/slugify', '@sindresorhus/transliterate'];
// And these parts of our own (docs/architecture.md, "Loaded on first use").
const OWN_PARTS_LOADED_ON_FIRST_USE = ['api/admin.ts', 'domain/updates/', 'domain/backups/zip-reader.ts', 'domain/dashboard/', 'domain/trash/', 'domain/history/revision-service.ts', 'domain/history/entry-history.ts', 'domain/git/git-status.ts', 'domain/git/release-service.ts', 'domain/auth/role-service.ts', 'domain/auth/profile-service.ts', 'domain/webhooks/webhook-actions.ts', 'api/admin/', 'api/openapi/openapi-document.ts', 'domain/backups/backup-service.ts', 'domain/backups/backup-writer.ts', 'domain/backups/backup-restore.ts', 'domain/backups/zip-writer.ts'];

// Optional libraries that the health report asks about in a child process (docs/architecture.md, "Loaded on first use").
const PROBED_BY_HEALTH = ['sharp', 'archiver', 'yauzl'];
// What a started server is asked: a public list of the one entry there is, or the health report with every extension available.
const ASK_FOR_LIST = `
    const listed = await fetch(running.url + '/api/v1/workspaces/default/content/posts');
    if (listed.status !== 200 || (await listed.json()).data.length !== 1) throw new Error('the public list answered ' + listed.status);`;
const ASK_FOR_HEALTH = `
    const { extensions } = (await (await fetch(running.url + '/api/v1/health')).json()).data;
    if (!extensions.gd || !extensions.zip) throw new Error('health reported ' + JSON.stringify(extensions));`;

// Imports the server's modules as a start does (or, given a data root, starts it and asks `ask`), with a loader hook that notes every module loaded (ESM has no require.cache).
const script = (library: string[], dataDir?: string, ask = ASK_FOR_LIST) => `
  import { register, createRequire } from 'node:module';
  import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
  import os from 'node:os';
  import path from 'node:path';
  const log = path.join(mkdtempSync(path.join(os.tmpdir(), 'start-up-loads-')), 'loaded');
  const hook = 'import { appendFileSync } from "node:fs"; let log; export function initialize(data) { log = data.log; } export async function load(url, context, next) { appendFileSync(log, url + "\\\\n"); return next(url, context); }';
  register('data:text/javascript,' + encodeURIComponent(hook), { data: { log } });
  await import('./src/services.ts');
  await import('./src/app.ts');
  const dataDir = ${JSON.stringify(dataDir ?? null)};
  if (dataDir !== null) {
    const { startServer } = await import('./src/main.ts');
    const running = await startServer({ env: { CMS_LOG_LEVEL: 'silent' }, flags: { port: '0', host: '127.0.0.1', data: dataDir } });
    ${ask}
    await running.close();
  }
  const files = Object.keys(createRequire(import.meta.url).cache);
  const urls = readFileSync(log, 'utf8');
  rmSync(path.dirname(log), { recursive: true });
  const own = urls.split('\\n').filter((url) => url.includes('/src/')).map((url) => url.slice(url.indexOf('/src/') + 5));
  console.log(JSON.stringify({
    libraries: ${JSON.stringify(library)}.filter((name) => [...files, urls].some((file) => file.includes('/node_modules/' + name + '/'))),
    own,
  }));
`;

describe('start-up loads', () => {
  let loaded: { libraries: string[]; own: string[] };

  before(async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(LOADED_ON_FIRST_USE)], { cwd: root });
    loaded = JSON.parse(stdout.trim().split('\n').pop() ?? '');
  });

  it('leaves the libraries only some requests need unloaded until then', () => {
    expect(loaded.libraries).to.deep.equal([]);
  });

  it('leaves the admin API, the services only it uses (backups, updates, the rest of adminOnly) and the OpenAPI document builder unloaded until their first request', () => {
    expect(loaded.own).to.include('services.ts');
    expect(loaded.own).to.include('api/public.ts');
    expect(loaded.own.filter((file) => OWN_PARTS_LOADED_ON_FIRST_USE.some((part) => file.startsWith(part)))).to.deep.equal([]);
  });
});

describe('a start on existing content', () => {
  // The files of a type, its entry and workspace.yaml as the server writes them (flat front matter, nested YAML).
  const TYPE_FILE = 'label: Posts\nvisibility: public\nslug_field: slug\nslug_source: title\nlocales: []\nfields:\n  category:\n    type: select\n    options:\n      - value: news\n        label: News\n  tags:\n    type: select\n    multiple: true\n    options:\n      - value: alpha\n        label: alpha\n';
  const ENTRY_FILE = '---\nid: 9fm8kkw5rwrpbolh\ntitle: "Post 1: Esse"\nstatus: published\npublished_at: 2025-05-05T16:18:30.000Z\ncreated_at: 2026-11-27T14:19:36.276Z\ncategory: news\ntags:\n  - alpha\n---\n\nBody\n';

  it('reads its types, workspaces and entries and answers a public list without loading a YAML library or the slug library', async () => {
    const first = await startTestServer();
    await first.close({ keepData: true });
    await externalCommit(contentRepoOf(first.dataDir), { write: { 'default/types/posts.yaml': TYPE_FILE, 'default/entries/posts/post-1.md': ENTRY_FILE } }, 'A type and its entry');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(NOT_READ_BY_A_START, first.dataDir)], { cwd: root });
    const loaded = JSON.parse(stdout.trim().split('\n').pop() ?? '') as { libraries: string[] };
    expect(loaded.libraries).to.deep.equal([]);
  });
});

describe('a start in an empty folder and a health report', () => {
  it('writes a new repository and reports images and ZIP archives available without loading sharp, archiver or yauzl into the server', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'start-up-loads-data-'));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(PROBED_BY_HEALTH, dataDir, ASK_FOR_HEALTH)], { cwd: root });
      const loaded = JSON.parse(stdout.trim().split('\n').pop() ?? '') as { libraries: string[] };
      expect(loaded.libraries).to.deep.equal([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
