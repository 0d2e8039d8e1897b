// Users, roles, API tokens and the grant catalogue: who may do what.
import { del, get, post, put } from './client.ts';
import type { User } from './types.ts';

/** A permission grant (docs/permissions.md "Grants"). */
export interface Grant {
  effect: 'allow' | 'deny';
  actions: string[];
  resources: string[];
  fields?: string[];
  conditions?: { status?: string[]; locales?: string[]; own?: boolean };
}

export interface Role {
  id: string;
  label: string;
  permissions: Grant[];
  builtin: boolean;
  user_count: number;
}

export interface Token {
  id: string;
  name: string;
  description?: string;
  permissions: Grant[];
  created_at: string;
  created_by?: string;
  expires_at: string | null;
  last_used_at: string | null;
}

/** The actions of one area (`content`: read, create, …). */
export interface ActionGroup {
  area: string;
  actions: string[];
}

export interface UserBody {
  username?: string;
  password?: string;
  display_name?: string;
  email?: string;
  role?: string;
}

/** Every user. Throws ApiError (403 without users.read). */
export async function listUsers(): Promise<User[]> {
  return (await get<User[]>('/users')).data;
}

/** Creates a user. Throws ApiError (422 with `fields`, 409 for a taken username). */
export async function createUser(body: UserBody): Promise<User> {
  return (await post<User>('/users', body)).data;
}

/** Changes a user (a `password` resets it). Throws ApiError (403 for a user with more rights than yours). */
export async function updateUser(id: string, body: UserBody): Promise<User> {
  return (await put<User>(`/users/${encodeURIComponent(id)}`, body)).data;
}

/** Deletes a user. Throws ApiError (not yourself, not the last administrator). */
export async function deleteUser(id: string): Promise<void> {
  await del(`/users/${encodeURIComponent(id)}`);
}

/** Every role with its grants and how many users have it. Throws ApiError. */
export async function listRoles(): Promise<Role[]> {
  return (await get<Role[]>('/roles')).data;
}

/** One role. Throws ApiError (404). */
export async function getRole(id: string): Promise<Role> {
  return (await get<Role>(`/roles/${encodeURIComponent(id)}`)).data;
}

/** Creates a role (its id made from the label). Throws ApiError (422 with `fields`). */
export async function createRole(label: string, permissions: Grant[]): Promise<Role> {
  return (await post<Role>('/roles', { label, permissions })).data;
}

/** Saves a role's label and grants. Throws ApiError. */
export async function updateRole(id: string, label: string, permissions: Grant[]): Promise<Role> {
  return (await put<Role>(`/roles/${encodeURIComponent(id)}`, { label, permissions })).data;
}

/** Deletes a role nobody has. Throws ApiError (409 while users have it). */
export async function deleteRole(id: string): Promise<void> {
  await del(`/roles/${encodeURIComponent(id)}`);
}

/** Every API token, newest first, without secrets. Throws ApiError. */
export async function listTokens(): Promise<Token[]> {
  return (await get<Token[]>('/tokens')).data;
}

/** Creates a token; the plain token is in the answer only this once. Throws ApiError. */
export async function createToken(body: { name: string; description?: string; expires_at?: string | null; permissions: Grant[] }): Promise<Token & { token: string }> {
  return (await post<Token & { token: string }>('/tokens', body)).data;
}

/** Revokes a token at once. Throws ApiError. */
export async function revokeToken(id: string): Promise<void> {
  await del(`/tokens/${encodeURIComponent(id)}`);
}

/** The grant actions by area. Throws ApiError. */
export async function listGrantActions(): Promise<ActionGroup[]> {
  return (await get<ActionGroup[]>('/grant-actions')).data;
}
