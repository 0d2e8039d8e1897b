import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

// What the server's modules load before their first answer is start-up time
// (docs/performance.md, "Cold start"); these CommonJS libraries load with the
// first request that needs them.
const LOADED_ON_FIRST_USE = ['ajv', 'gray-matter', 'js-yaml', 'sanitize-html', 'yaml'];
// And these parts of our own (docs/architecture.md, "Loaded on first use").
const OWN_PARTS_LOADED_ON_FIRST_USE = ['api/admin.ts', 'api/admin/', 'api/openapi/openapi-document.ts', 'domain/backups/backup-service.ts', 'domain/backups/backup-writer.ts', 'domain/backups/backup-restore.ts', 'domain/backups/zip-writer.ts'];

// Imports the server's modules as a start does, with a loader hook that notes every module loaded (ESM has no require.cache).
const script = (library: string[]) => `
  import { register, createRequire } from 'node:module';
  import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
  import os from 'node:os';
  import path from 'node:path';
  const log = path.join(mkdtempSync(path.join(os.tmpdir(), 'start-up-loads-')), 'loaded');
  const hook = 'import { appendFileSync } from "node:fs"; let log; export function initialize(data) { log = data.log; } export async function load(url, context, next) { appendFileSync(log, url + "\\\\n"); return next(url, context); }';
  register('data:text/javascript,' + encodeURIComponent(hook), { data: { log } });
  await import('./src/services.ts');
  await import('./src/app.ts');
  const files = Object.keys(createRequire(import.meta.url).cache);
  const urls = readFileSync(log, 'utf8');
  rmSync(path.dirname(log), { recursive: true });
  const own = urls.split('\\n').filter((url) => url.includes('/src/')).map((url) => url.slice(url.indexOf('/src/') + 5));
  console.log(JSON.stringify({
    libraries: ${JSON.stringify(library)}.filter((name) => files.some((file) => file.includes('/node_modules/' + name + '/'))),
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

  it('leaves the admin API, the backups and the OpenAPI document builder unloaded until their first request', () => {
    expect(loaded.own).to.include('services.ts');
    expect(loaded.own).to.include('api/public.ts');
    expect(loaded.own.filter((file) => OWN_PARTS_LOADED_ON_FIRST_USE.some((part) => file.startsWith(part)))).to.deep.equal([]);
  });
});
