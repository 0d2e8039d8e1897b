// Reads the imports of every file under src/ and checks STYLE.md's layering:
// api → http → domain → storage → lib, errors and config import only lib, the
// floors inside domain/, the one write path of the content repo, and each
// third-party library has its one owner.
import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '../../src');
const ROOTS = new Set(['main.ts', 'app.ts', 'services.ts', 'cli.ts']);
// The admin web app (src/admin-ui) is browser code with its own tsconfig: it
// may import only itself (and its npm packages), and nothing imports it.
const ALLOWED: Record<string, string[]> = {
  api: ['api', 'http', 'domain', 'errors', 'config', 'lib'],
  http: ['http', 'domain', 'errors', 'config', 'lib'],
  domain: ['domain', 'storage', 'errors', 'config', 'lib'],
  storage: ['storage', 'errors', 'config', 'lib'],
  lib: ['lib'],
  errors: ['errors', 'lib'],
  config: ['config', 'lib'],
  cli: ['cli', 'domain', 'storage', 'errors', 'config', 'lib'],
  'admin-ui': ['admin-ui'],
};
// A library and the only folders or files that may import it.
const OWNERS: Record<string, string[]> = {
  koa: ['http/', 'api/', 'app.ts'],
  '@koa/router': ['http/', 'api/'],
  'koa-body': ['http/', 'api/'],
  'koa-session': ['http/'],
  sharp: ['domain/media/images.ts'],
  archiver: ['domain/backups/'],
  yauzl: ['domain/backups/'],
  minisearch: ['domain/search/'],
  bcryptjs: ['domain/auth/passwords.ts'],
  'gray-matter': ['domain/model/front-matter.ts'],
  'js-yaml': ['domain/model/yaml-text.ts'],
  yaml: ['domain/model/yaml-text.ts'],
};
// The floors of domain/, ground floor first (docs/architecture.md draws the
// same table). A domain folder (or a file directly under domain/, by its
// name) imports only from its own folder and from folders on lower floors.
const DOMAIN_FLOORS: string[][] = [
  ['model', 'state'], // the model and file format; state documents
  ['auth', 'locales', 'search'], // grants and accounts; locale resolution; full-text search
  ['query'], // the in-memory query engine
  ['content'], // the content index and the write path
  ['workspaces'],
  ['types', 'entries', 'media', 'webhooks', 'activity', 'changes'], // services; the changes feed
  ['trash', 'history', 'backups', 'live', 'git'], // services built on entries, webhooks, media; the live feed; git as a peer
  ['health', 'updates', 'replica'], // health asks backups whether ZIP archives load; replica: following a primary, built on the git peer
  ['dashboard'], // the app info reports health
];
// The only file outside storage/ that holds the content repo's write methods.
const WRITE_PATH = 'domain/content/content-writer.ts';
const WRITE_METHODS = /\.(commitChanges|serialize|watchHead|markReceived)\(/;
const NODE_IO = new Set(['node:fs', 'node:fs/promises', 'fs', 'fs/promises', 'node:child_process']);

interface ImportEdge {
  file: string;
  specifier: string;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(SRC, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

async function importsOf(file: string): Promise<ImportEdge[]> {
  const text = await readFile(path.join(SRC, file), 'utf8');
  const pattern = /(?:^|\s)(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;
  return [...text.matchAll(pattern)].map((match) => ({ file, specifier: match[1] ?? match[2] ?? match[3] }));
}

function layerOf(file: string): string {
  return ROOTS.has(file) ? 'root' : file.split('/')[0];
}

// `domain/entries/entry-service.ts` → `entries`; `domain/health.ts` → `health`.
function domainUnitOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'domain') return undefined;
  return parts.length > 2 ? parts[1] : parts[1].replace(/\.ts$/, '');
}

function floorOf(unit: string): number {
  return DOMAIN_FLOORS.findIndex((floor) => floor.includes(unit));
}

function targetOf(edge: ImportEdge): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(edge.file), edge.specifier));
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('architecture', () => {
  let edges: ImportEdge[] = [];

  before(async () => {
    const files = await sourceFiles(SRC);
    edges = (await Promise.all(files.map(importsOf))).flat();
    expect(files.length).to.be.greaterThan(10);
  });

  it('imports point down the layers only', () => {
    const violations = edges
      .filter((edge) => edge.specifier.startsWith('.'))
      .filter((edge) => {
        const from = layerOf(edge.file);
        if (from === 'root') return false;
        const to = layerOf(targetOf(edge));
        return to === 'root' || !(ALLOWED[from] ?? []).includes(to);
      })
      .map((edge) => `${edge.file} → ${edge.specifier}`);
    expect(violations).to.deep.equal([]);
  });

  it('ranks every domain folder on a floor', async () => {
    const units = new Set((await sourceFiles(path.join(SRC, 'domain'))).map((file) => domainUnitOf(file)!));
    expect([...units].filter((unit) => floorOf(unit) === -1)).to.deep.equal([]);
  });

  it('domain folders import only from lower floors', () => {
    const violations = edges
      .filter((edge) => edge.specifier.startsWith('.') && layerOf(edge.file) === 'domain')
      .filter((edge) => {
        const from = domainUnitOf(edge.file)!;
        const to = domainUnitOf(targetOf(edge));
        return to !== undefined && to !== from && !(floorOf(to) < floorOf(from));
      })
      .map((edge) => `${edge.file} → ${edge.specifier}`);
    expect(violations).to.deep.equal([]);
  });

  it('commits only through the write path: nothing else calls the content repo\'s write methods', async () => {
    const callers: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      if (file.startsWith('storage/')) continue;
      if (WRITE_METHODS.test(await readFile(path.join(SRC, file), 'utf8'))) callers.push(file);
    }
    expect(callers).to.deep.equal([WRITE_PATH]);
  });

  it('only the write path holds the ContentRepo type in the domain; services get a ContentReader', async () => {
    const holders: string[] = [];
    for (const file of await sourceFiles(path.join(SRC, 'domain'))) {
      if (/\bContentRepo\b/.test(await readFile(path.join(SRC, file), 'utf8'))) holders.push(file);
    }
    expect(holders).to.deep.equal([WRITE_PATH]);
  });

  it('each library is imported only by its owner', () => {
    const violations = edges
      .filter((edge) => !edge.specifier.startsWith('.'))
      .filter((edge) => {
        const owners = OWNERS[packageOf(edge.specifier)];
        return owners !== undefined && !owners.some((owner) => edge.file === owner || edge.file.startsWith(owner));
      })
      .map((edge) => `${edge.file} → ${edge.specifier}`);
    expect(violations).to.deep.equal([]);
  });

  it('domain code touches no files, processes or HTTP', () => {
    const violations = edges
      .filter((edge) => layerOf(edge.file) === 'domain')
      .filter((edge) => NODE_IO.has(edge.specifier) || ['koa', '@koa/router', 'koa-body', 'koa-session'].includes(packageOf(edge.specifier)))
      .map((edge) => `${edge.file} → ${edge.specifier}`);
    expect(violations).to.deep.equal([]);
  });

  // A lazy import (docs/architecture.md, "Loaded on first use") is an edge like any other only when it names its module literally.
  it('every import() names its module literally, so the rules above see it', async () => {
    const hidden: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      if (file.startsWith('admin-ui/')) continue;
      if (/\bimport\(\s*[^\s'"]/.test(await readFile(path.join(SRC, file), 'utf8'))) hidden.push(file);
    }
    expect(hidden).to.deep.equal([]);
  });

  it('only config/ reads process.env', async () => {
    const files = await sourceFiles(SRC);
    const readers: string[] = [];
    for (const file of files) {
      if (file.startsWith('config/')) continue;
      if ((await readFile(path.join(SRC, file), 'utf8')).includes('process.env')) readers.push(file);
    }
    expect(readers).to.deep.equal([]);
  });
});
