// Starts the real server on port 0 over a fresh temp data root, and offers a
// small fetch wrapper that returns status, headers and parsed JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunningServer } from '../../src/main.ts';
import { removeAtExit } from './temp-folders.ts';

// A top-level await, so that every test file using this helper runs as an ES
// module, as the server does in production. Mocha require()s a test file
// first, and tsx turns a required .ts file into CommonJS; the server's own
// import() of the parts it loads on first use (the admin API, src/app.ts)
// would then load a second copy of every module those parts share with the
// rest (AppError, the entry versions). A module with a top-level await cannot
// be CommonJS, so mocha imports the test file instead.
const { startServer } = await import('../../src/main.ts');

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  running: RunningServer;
  services: RunningServer['services'];
  /** Sends a request; JSON bodies are serialized, the answer's JSON parsed when there is one. */
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is (for malformed-body tests). */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  token?: string;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary response shapes and let chai check them, so the body stays untyped here only.
  body: any;
  text: string;
}

export interface TestServerOptions {
  dataDir?: string;
  env?: Record<string, string>;
}

/**
 * Starts a server; pass `dataDir` to reopen an existing data root (restart
 * tests). A data root made here is removed by close() or, when kept, at exit.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await newDataDir());
  const running = await startServer({
    env: { CMS_LOG_LEVEL: 'silent', CMS_WATCH_INTERVAL_MS: '100', ...options.env },
    flags: { port: '0', host: '127.0.0.1', data: dataDir },
  });
  const baseUrl = running.url;
  return {
    baseUrl,
    dataDir,
    running,
    services: running.services,
    request: (method, url, requestOptions = {}) => send(baseUrl, method, url, requestOptions),
    close: async (closeOptions = {}) => {
      await running.close();
      if (!closeOptions.keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cms-test-'));
  removeAtExit(dir);
  return dir;
}

async function send(baseUrl: string, method: string, url: string, options: RequestOptions): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(baseUrl + url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
