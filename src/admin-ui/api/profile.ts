// The signed-in user's own profile.
import { del, post, put, setCsrfToken } from './client.ts';
import type { User } from './types.ts';

/** What PUT /profile accepts; a password change needs `old_password`. */
export interface ProfileInput {
  display_name?: string;
  email?: string;
  password?: string;
  old_password?: string;
}

/**
 * Saves the profile. A new password ends every session, so the answer
 * carries this browser's new session's CSRF token, which is kept for the
 * writes that follow. Throws ApiError (422 validation_failed with fields,
 * 401 invalid_credentials for a wrong old password).
 */
export async function updateProfile(input: ProfileInput): Promise<User> {
  const result = await put<User, { csrf_token?: string }>('/profile', input);
  if (result.meta.csrf_token) setCsrfToken(result.meta.csrf_token);
  return result.data;
}

/** Uploads a new avatar (PNG, JPEG, GIF or WebP up to 2 MB). Throws ApiError (413, 422 file_type_not_allowed). */
export async function uploadAvatar(file: File): Promise<User> {
  const form = new FormData();
  form.append('avatar', file);
  return (await post<User>('/profile/avatar', form)).data;
}

/** Removes the avatar; initials show instead. Throws ApiError. */
export async function removeAvatar(): Promise<User> {
  return (await del<User>('/profile/avatar')).data;
}
