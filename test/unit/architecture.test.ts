// Reads the imports of every file under src/ and checks STYLE.md's layering:
// api → http → domain → storage → lib, errors and config import only lib, and
// each third-party library has its one owner.
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
  'admin-ui': ['admin-ui'],
};
// A library and the only folders or files that may import it.
const OWNERS: Record<string, string[]> = {
  'isomorphic-git': ['storage/content-repo.ts', 'storage/git/'],
  koa: ['http/', 'api/', 'app.ts'],
  '@koa/router': ['http/', 'api/'],
  'koa-body': ['http/', 'api/'],
  'koa-session': ['http/'],
  sharp: ['domain/media/images.ts'],
  archiver: ['domain/backups/'],
  yauzl: ['domain/backups/'],
  minisearch: ['domain/search/'],
  bcryptjs: ['domain/auth/passwords.ts'],
  'gray-matter': ['domain/entries/front-matter.ts'],
  'js-yaml': ['domain/entries/front-matter.ts'],
};
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
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(edge.file), edge.specifier));
        const to = layerOf(target);
        return to === 'root' || !(ALLOWED[from] ?? []).includes(to);
      })
      .map((edge) => `${edge.file} → ${edge.specifier}`);
    expect(violations).to.deep.equal([]);
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
