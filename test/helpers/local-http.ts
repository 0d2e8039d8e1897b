// A small HTTP server on 127.0.0.1 for tests that need something to talk to:
// a webhook receiver that records what it was sent, or an update feed that
// serves files. Each request's raw body is kept so signatures can be checked.
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/**
 * Answers one request. Return a status and body, or `'hang'` to never answer
 * (the connection is closed when the server closes).
 */
export type Responder = (request: ReceivedRequest, count: number) => { status: number; body?: string | Buffer; headers?: Record<string, string> } | 'hang';

export interface LocalHttpServer {
  /** `http://127.0.0.1:{port}`. */
  url: string;
  requests: ReceivedRequest[];
  /** Replaces how requests are answered. */
  respond(responder: Responder): void;
  close(): Promise<void>;
}

/** A server listening on 127.0.0.1: its `http://127.0.0.1:{port}`, and close(), which also drops open connections. */
export interface ListeningServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` (a Koa app's callback()) on 127.0.0.1 and a free port. */
export async function listenLocally(handler: RequestListener): Promise<ListeningServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Starts a server on 127.0.0.1 and a free port; answers 200 `{}` until told otherwise. */
export async function startLocalHttp(responder: Responder = () => ({ status: 200, body: '{}' })): Promise<LocalHttpServer> {
  let current = responder;
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = await listenLocally((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const received = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks) };
      requests.push(received);
      const answer = current(received, requests.length);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body ?? '');
    });
  });
  return {
    url: server.url,
    requests,
    respond: (next) => {
      current = next;
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      await server.close();
    },
  };
}
