// Admin sessions and API tokens for tests, made through the real admin API
// (setup, login, token creation) exactly as a client would, and
// buildAdminServer(), the usual start of an API test.
import { startTestServer, type TestResponse, type TestServer, type TestServerOptions } from './server.ts';

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

/** A grant of every action on every resource: `*` as users write it. */
export const WILDCARD_ACCESS: TestGrant[] = [{ effect: 'allow', actions: ['*'], resources: ['*'] }];
/**
 * Truly every action a token can hold: `*` does not reach `replication.read`,
 * which only a grant naming it gets (the replicated state holds password and
 * token hashes; docs/permissions.md "Known actions"), so it is named here too.
 */
export const FULL_ACCESS: TestGrant[] = [...WILDCARD_ACCESS, { effect: 'allow', actions: ['replication.read'], resources: ['*'] }];
export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'correct horse battery';

/** A running test server whose first user is signed in as admin. */
export interface AdminServer {
  server: TestServer;
  admin: AdminSession;
  /** The admin's user id. */
  adminId: string;
}

/** Options of buildAdminServer(): the server's own, plus grants for an API token. */
export interface AdminServerOptions extends TestServerOptions {
  /** Also issue an API token with these grants (e.g. FULL_ACCESS). */
  token?: TestGrant[];
}

/**
 * Starts a server on a fresh data root (or `dataDir`) and runs setup; with
 * `token`, also issues an API token with those grants. Closes the server if
 * setup fails, so a failing hook leaves nothing running.
 */
export async function buildAdminServer(options: AdminServerOptions & { token: TestGrant[] }): Promise<AdminServer & { token: string }>;
export async function buildAdminServer(options?: AdminServerOptions): Promise<AdminServer>;
export async function buildAdminServer(options: AdminServerOptions = {}): Promise<AdminServer & { token?: string }> {
  const { token: grants, ...serverOptions } = options;
  const server = await startTestServer(serverOptions);
  try {
    const { session, userId } = await startSession(server, '/setup', 201);
    const built = { server, admin: session, adminId: userId };
    return grants === undefined ? built : { ...built, token: await issueToken(server, session, grants) };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** Runs first-run setup (the first user becomes admin) and returns its session. */
export async function setupAdmin(server: TestServer): Promise<AdminSession> {
  return (await startSession(server, '/setup', 201)).session;
}

/** Logs the admin in again (setup runs only once per server) and returns a new session. */
export async function loginAdmin(server: TestServer): Promise<AdminSession> {
  return (await startSession(server, '/login', 200)).session;
}

async function startSession(server: TestServer, route: string, expectedStatus: number): Promise<{ session: AdminSession; userId: string }> {
  const response = await fetch(`${server.baseUrl}/admin/api${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
  });
  const body = (await response.json()) as { data?: { id?: string }; meta?: { csrf_token?: string } };
  if (response.status !== expectedStatus || !body.meta?.csrf_token || !body.data?.id) throw new Error(`${route} failed with ${response.status}`);
  return { session: { cookie: cookieHeaderOf(response.headers), csrf: body.meta.csrf_token }, userId: body.data.id };
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

/** The `name=value` pairs of every Set-Cookie header, joined like a Cookie header. */
export function cookieHeaderOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}
