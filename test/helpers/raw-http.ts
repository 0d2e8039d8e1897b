// Requests with the path sent exactly as written. fetch() normalizes `..`,
// `%2e%2e` and the like before sending, so hostile-path tests go through
// node:http, which puts the path on the wire untouched.
import http from 'node:http';
import type { TestResponse } from './server.ts';

export interface RawRequestOptions {
  /** A JSON body (serialized, sent with Content-Type: application/json). */
  body?: unknown;
  headers?: Record<string, string>;
  token?: string;
}

/** Sends `method rawPath` to the server at `baseUrl`; answers like TestServer.request. */
export function rawRequest(baseUrl: string, method: string, rawPath: string, options: RawRequestOptions = {}): Promise<TestResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path: rawPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: toHeaders(response.headers), body: parseJson(text), text });
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends a request and, as soon as the first chunk of the answer's body
 * arrives, destroys the connection, like a browser tab closed mid-download or
 * a `git clone` stopped with Ctrl-C. Resolves with the answer's status.
 */
export function abortAfterFirstChunk(url: string, options: { method?: string; headers?: Record<string, string>; body?: Uint8Array } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      response.once('data', () => {
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
      response.once('end', () => reject(new Error(`the answer (${response.statusCode}) ended before it could be aborted`)));
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.end(options.body);
  });
}

/** How a streamed answer ended: its status (0 when none came), whether it arrived whole, and its body's length. */
export interface AnswerEnding {
  status: number;
  ending: 'complete' | 'cut off';
  bytes: number;
}

/** Reads an answer to its end or until the connection breaks; never rejects. */
export function readAnswer(url: string): Promise<AnswerEnding> {
  return new Promise((resolve) => {
    http
      .get(url, (response) => {
        let bytes = 0;
        const status = response.statusCode ?? 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.once('end', () => resolve({ status, ending: response.complete ? 'complete' : 'cut off', bytes }));
        response.once('error', () => resolve({ status, ending: 'cut off', bytes }));
      })
      .once('error', () => resolve({ status: 0, ending: 'cut off', bytes: 0 }));
  });
}
