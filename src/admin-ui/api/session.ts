// First-run setup, sign-in, sign-out and "who am I".
import { get, post, type ApiResult } from './client.ts';
import type { MeMeta, User } from './types.ts';

/** The signed-in user, their capabilities and the CSRF token. Throws ApiError (401 signed out, 503 not set up). */
export function fetchMe(): Promise<ApiResult<User, MeMeta>> {
  return get<User, MeMeta>('/me');
}

/** Signs in. Throws ApiError (401 invalid_credentials, 429 rate_limited). */
export function signIn(username: string, password: string): Promise<ApiResult<User, { csrf_token: string }>> {
  return post<User, { csrf_token: string }>('/login', { username, password });
}

/** The first-run form (POST /setup). */
export interface SetupInput {
  username: string;
  password: string;
  display_name?: string;
  email?: string;
  workspace?: string;
}

/** Creates the first user and signs them in. Throws ApiError (409 already_set_up, 422 validation_failed). */
export function setUp(input: SetupInput): Promise<ApiResult<User, { csrf_token: string }>> {
  return post<User, { csrf_token: string }>('/setup', input);
}

/** Ends the session. Throws ApiError. */
export function signOut(): Promise<unknown> {
  return post('/logout');
}
