// Admin sessions and API tokens for tests, made through the real admin API
// (setup, login, token creation) exactly as a client would.
import type { TestResponse, TestServer } from './server.ts';

export interface AdminSession {
  cookie: string;
  csrf: string;
}

export interface TestGrant {
  effect: 'allow' | 'deny';
  actions: string[];
  resources: string[];
  fields?: string[];
  conditions?: { status?: string[]; locales?: string[]; own?: boolean };
}

export const FULL_ACCESS: TestGrant[] = [{ effect: 'allow', actions: ['*'], resources: ['*'] }];
export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'correct horse battery';

/** Runs first-run setup (the first user becomes admin) and returns its session. */
export function setupAdmin(server: TestServer): Promise<AdminSession> {
  return startSession(server, '/setup', 201);
}

/** Logs the admin in again (setup runs only once per server) and returns a new session. */
export function loginAdmin(server: TestServer): Promise<AdminSession> {
  return startSession(server, '/login', 200);
}

async function startSession(server: TestServer, route: string, expectedStatus: number): Promise<AdminSession> {
  const response = await fetch(`${server.baseUrl}/admin/api${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  });
  const body = (await response.json()) as { meta?: { csrf_token?: string } };
  if (response.status !== expectedStatus || !body.meta?.csrf_token) throw new Error(`${route} failed with ${response.status}`);
  return { cookie: cookieOf(response), csrf: body.meta.csrf_token };
}

/** Sends an admin request with the session cookie and CSRF header. */
export function adminRequest(server: TestServer, session: AdminSession, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
  return server.request(method, `/admin/api${url}`, { body, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, ...headers } });
}

/** Creates an API token with the given grants and returns the plain token. */
export async function issueToken(server: TestServer, session: AdminSession, permissions: TestGrant[], name = 'test token'): Promise<string> {
  const response = await adminRequest(server, session, 'POST', '/tokens', { name, permissions });
  if (response.status !== 201) throw new Error(`token creation failed with ${response.status}: ${response.text}`);
  return response.body.data.token as string;
}

/** A full-access token on a server that is set up on the way. */
export async function fullAccessToken(server: TestServer): Promise<string> {
  return issueToken(server, await setupAdmin(server), FULL_ACCESS, 'full access');
}

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}
