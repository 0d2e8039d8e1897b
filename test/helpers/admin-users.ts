// Extra admin-API helpers for the auth tests: logging in as any user and
// making users with a custom role.
import { adminRequest, cookieHeaderOf, type AdminSession, type TestGrant } from './auth.ts';
import type { TestResponse, TestServer } from './server.ts';

/** Logs in and returns the raw response (for error-code tests). */
export function postLogin(server: TestServer, username: string, password: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  return server.request('POST', '/admin/api/login', { body: { username, password }, headers });
}

/** Logs in and returns the session; fails the test when login does not answer 200. */
export async function login(server: TestServer, username: string, password: string): Promise<AdminSession> {
  const response = await postLogin(server, username, password);
  if (response.status !== 200) throw new Error(`login failed with ${response.status}: ${response.text}`);
  return { cookie: cookieHeaderOf(response.headers), csrf: response.body.meta.csrf_token as string };
}

/** Creates a role with `permissions` and a user holding it, and returns that user's session and id. */
export async function userWithGrants(server: TestServer, admin: AdminSession, name: string, permissions: TestGrant[]): Promise<{ session: AdminSession; id: string }> {
  const role = await adminRequest(server, admin, 'POST', '/roles', { id: `${name}-role`, label: `${name} role`, permissions });
  if (role.status !== 201) throw new Error(`role creation failed with ${role.status}: ${role.text}`);
  const password = `${name}-password-1`;
  const user = await adminRequest(server, admin, 'POST', '/users', { username: name, password, role: `${name}-role` });
  if (user.status !== 201) throw new Error(`user creation failed with ${user.status}: ${user.text}`);
  return { session: await login(server, name, password), id: user.body.data.id as string };
}
