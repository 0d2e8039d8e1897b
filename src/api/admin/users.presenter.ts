// The public shape of a user record (API.md "Admin session"): never a hash,
// avatars as absolute URLs.
import type { UserRecord } from '../../domain/auth/account-store.ts';

/** A user as the admin API returns it. */
export interface UserView {
  id: string;
  username: string;
  display_name: string;
  email: string;
  role: string;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
}

/** Shapes a stored user for responses; `baseUrl` makes the avatar URL absolute. */
export function presentUser(user: UserRecord, baseUrl: string): UserView {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    email: user.email,
    role: user.role,
    // The version parameter changes with each upload, so caches never show a stale avatar.
    avatar_url: user.avatar ? `${baseUrl}/admin/api/users/${user.id}/avatar?v=${Date.parse(user.updated_at)}` : null,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}
