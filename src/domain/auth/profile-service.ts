// The signed-in user's own profile: display name, email, password (which
// needs the old one) and avatar. Avatars are small images kept in the state
// folder, never in the content repo; their type is sniffed, not trusted.
import { AppError, notFound } from '../../errors/app-error.ts';
import type { UserRecord } from './account-store.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import { updatedContactFields } from './user-fields.ts';
import type { UserService } from './user-service.ts';

/** Body of PUT /admin/api/profile. */
export interface ProfileInput {
  display_name?: string;
  email?: string;
  password?: string;
  old_password?: string;
}

/** Binary files of the state folder, as the avatar feature needs them. */
export interface AvatarFiles {
  read(name: string): Promise<Uint8Array | undefined>;
  write(name: string, bytes: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
}

/** An avatar ready to serve. */
export interface Avatar {
  bytes: Uint8Array;
  mime: string;
}

/** Largest avatar accepted, in bytes. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

// SVG is left out on purpose: it can carry scripts.
const AVATAR_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Own-profile operations; each needs a signed-in user. */
export class ProfileService {
  private readonly users: UserService;
  private readonly files: AvatarFiles;

  constructor(users: UserService, files: AvatarFiles) {
    this.users = users;
    this.files = files;
  }

  /**
   * Updates the caller's display name, email or password; a password change
   * ends all of the caller's sessions (signed in elsewhere, the old password
   * no longer lets anyone stay in). Throws
   * unauthenticated (401) without a user, validation_failed (422) when a new
   * password comes without `old_password`, invalid_credentials (401) when it is wrong.
   */
  async update(principal: Principal, input: ProfileInput): Promise<UserRecord> {
    const current = this.users.find(userIdOf(principal));
    if (!current) throw notFound('Your user record no longer exists.');
    let passwordHash: string | undefined;
    if (input.password !== undefined) {
      if (input.old_password === undefined) {
        throw new AppError('validation_failed', 'Changing the password needs the current password.', { fields: { old_password: 'The current password is required.' } });
      }
      if (!(await verifyPassword(input.old_password, current.password_hash))) {
        throw new AppError('invalid_credentials', 'The current password is wrong.');
      }
      passwordHash = await hashPassword(input.password);
    }
    const updated = await this.users.save(current.id, (user) => ({
      ...user,
      ...updatedContactFields(user, input),
      password_hash: passwordHash ?? user.password_hash,
    }));
    // A new password ends every session of the user, this one too: the caller starts a fresh one.
    if (passwordHash !== undefined) await this.users.endSessions(current.id);
    return updated;
  }

  /**
   * Stores a new avatar for the caller. Throws unauthenticated (401),
   * payload_too_large (413) over 2 MB, file_type_not_allowed (422) unless PNG, JPEG, GIF or WebP.
   */
  async setAvatar(principal: Principal, bytes: Uint8Array): Promise<UserRecord> {
    const id = userIdOf(principal);
    if (bytes.byteLength > MAX_AVATAR_BYTES) throw new AppError('payload_too_large', 'An avatar may be at most 2 MB.');
    // Imported on first use, like every library that no start-up step needs.
    const { fileTypeFromBuffer } = await import('file-type');
    const sniffed = await fileTypeFromBuffer(bytes);
    if (!sniffed || !AVATAR_TYPES.has(sniffed.mime)) {
      throw new AppError('file_type_not_allowed', 'An avatar must be a PNG, JPEG, GIF or WebP image.', { fields: { avatar: 'Not an allowed image type.' } });
    }
    const file = `avatar-${id}`;
    await this.files.write(file, bytes);
    return this.users.save(id, (user) => ({ ...user, avatar: { file, mime: sniffed.mime } }));
  }

  /** Removes the caller's avatar (no error when there is none). Throws unauthenticated (401). */
  async removeAvatar(principal: Principal): Promise<UserRecord> {
    const id = userIdOf(principal);
    const user = await this.users.save(id, (current) => ({ ...current, avatar: null }));
    await this.files.remove(`avatar-${id}`);
    return user;
  }

  /**
   * A user's avatar for any signed-in user (avatars show next to authors).
   * Throws unauthenticated (401), not_found (404) for an unknown user or no avatar.
   */
  async avatarOf(principal: Principal, userId: string): Promise<Avatar> {
    userIdOf(principal);
    const avatar = this.users.find(userId)?.avatar;
    const bytes = avatar ? await this.files.read(avatar.file) : undefined;
    if (!avatar || !bytes) throw notFound(`User "${userId}" has no avatar.`);
    return { bytes, mime: avatar.mime };
  }
}

function userIdOf(principal: Principal): string {
  if (principal.kind !== 'user') throw new AppError('unauthenticated', 'Sign in to the admin interface first.');
  return principal.id;
}
