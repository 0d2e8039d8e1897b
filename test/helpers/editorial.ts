// Helpers for the editorial admin tests (trash, revisions, bulk, activity,
// dashboard): types and entries made through the admin API, and signed-in
// users with a role of chosen grants.
import { adminRequest, type AdminSession, type TestGrant } from './auth.ts';
import type { TestServer } from './server.ts';

/** An entry as the admin API returns it (the fields the tests read). */
export interface AdminEntry {
  id: string;
  slug: string;
  title: string;
  status: string;
  published_at: string | null;
  updated_at: string;
  data: Record<string, unknown>;
}

/** Creates a content type through the admin API; fails the test on any other answer than 201. */
export async function createType(server: TestServer, session: AdminSession, body: Record<string, unknown>, workspace?: string): Promise<void> {
  const response = await adminRequest(server, session, 'POST', '/content-types', body, workspace ? { 'x-service-workspace': workspace } : {});
  if (response.status !== 201) throw new Error(`type creation failed with ${response.status}: ${response.text}`);
}

/** Creates an entry through the admin API and returns it. */
export async function createEntry(server: TestServer, session: AdminSession, type: string, body: Record<string, unknown>): Promise<AdminEntry> {
  const response = await adminRequest(server, session, 'POST', `/content/${type}`, body);
  if (response.status !== 201) throw new Error(`entry creation failed with ${response.status}: ${response.text}`);
  return response.body.data as AdminEntry;
}

/** Creates a role with `permissions`, a user holding it, and signs that user in. */
export async function sessionWithGrants(server: TestServer, admin: AdminSession, name: string, permissions: TestGrant[]): Promise<AdminSession> {
  const role = await adminRequest(server, admin, 'POST', '/roles', { id: `${name}-role`, label: `${name} role`, permissions });
  if (role.status !== 201) throw new Error(`role creation failed with ${role.status}: ${role.text}`);
  const password = `${name}-password-1`;
  const user = await adminRequest(server, admin, 'POST', '/users', { username: name, password, role: `${name}-role` });
  if (user.status !== 201) throw new Error(`user creation failed with ${user.status}: ${user.text}`);
  const login = await server.request('POST', '/admin/api/login', { body: { username: name, password } });
  if (login.status !== 200) throw new Error(`login failed with ${login.status}: ${login.text}`);
  const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  return { cookie, csrf: login.body.meta.csrf_token as string };
}
