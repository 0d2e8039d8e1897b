// The built admin web app (`npm run build` writes it to dist/admin): its
// index.html and the content-hashed files of assets/, read once at start and
// held in memory, each with a gzip copy made when it is first asked for (so
// compressing megabytes of chunks and source maps does not delay the start). Files are found by exact name in a
// map, never by joining a request path onto the folder, so no path can escape it.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { isNotFound } from '../lib/errno.ts';

/** One file of the app, ready to send. */
export interface BundleFile {
  contentType: string;
  body: Buffer;
  /** The gzip-compressed body, or undefined when compressing does not make it smaller. */
  gzipped(): Buffer | undefined;
  /** A strong entity tag of the body, quoted. */
  etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** The app's files; `load` gives undefined when the app has not been built. */
export class AppBundle {
  private constructor(
    readonly index: BundleFile,
    private readonly assets: ReadonlyMap<string, BundleFile>,
  ) {}

  /**
   * Reads `dir`/index.html and every file directly in `dir`/assets. Returns
   * undefined when index.html is missing (the app was not built); throws
   * what reading the files throws otherwise.
   */
  static async load(dir: string): Promise<AppBundle | undefined> {
    let html: Buffer;
    try {
      html = await readFile(path.join(dir, 'index.html'));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    const assets = new Map<string, BundleFile>();
    const assetDir = path.join(dir, 'assets');
    const entries = await readdir(assetDir, { withFileTypes: true }).catch((error: unknown) => {
      if (isNotFound(error)) return [];
      throw error;
    });
    for (const entry of entries) {
      if (entry.isFile()) assets.set(entry.name, bundleFile(entry.name, await readFile(path.join(assetDir, entry.name))));
    }
    return new AppBundle(bundleFile('index.html', html), assets);
  }

  /** A bundle of files held in memory already: an index page and its assets by name. */
  static of(index: Buffer, assets: Record<string, Buffer>): AppBundle {
    return new AppBundle(bundleFile('index.html', index), new Map(Object.entries(assets).map(([name, body]) => [name, bundleFile(name, body)])));
  }

  /** The file `assets/{name}`, or undefined when there is none by exactly that name. */
  asset(name: string): BundleFile | undefined {
    return this.assets.get(name);
  }
}

function bundleFile(name: string, body: Buffer): BundleFile {
  const contentType = CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
  const compressible = !contentType.startsWith('image/png') && !contentType.startsWith('font/');
  let gzipped: { smaller: Buffer | undefined } | undefined;
  return {
    contentType,
    body,
    gzipped: () => {
      if (gzipped === undefined) {
        const compressed = compressible ? gzipSync(body, { level: 9 }) : undefined;
        gzipped = { smaller: compressed && compressed.length < body.length ? compressed : undefined };
      }
      return gzipped.smaller;
    },
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

/**
 * The stylesheet and script of Swagger UI (the swagger-ui-dist package), which
 * renders the API reference page at /api/docs from this server, never a CDN.
 * Throws when the package is not installed.
 */
export async function loadSwaggerUi(): Promise<Record<string, Buffer>> {
  const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files: Record<string, Buffer> = {};
  for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
    // The source map comment would send browsers' devtools to a file this server does not serve.
    files[name] = Buffer.from((await readFile(path.join(dir, name), 'utf8')).replace(/\n\/[/*]# sourceMappingURL=\S+(\s*\*\/)?\s*$/, '\n'));
  }
  return files;
}
