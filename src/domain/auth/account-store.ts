// Users and roles as held in the state folder (never in the content repo),
// kept in memory so authenticating a session reads no disk. The rules about
// who may change them live in user-service.ts and role-service.ts.
import type { Grant } from './principal.ts';
import { StateFile, type JsonState } from '../state/state-file.ts';

/** A stored user; `password_hash` never leaves the domain (presenters drop it). */
export interface UserRecord {
  id: string;
  username: string;
  display_name: string;
  email: string;
  role: string;
  password_hash: string;
  /** The avatar's state-file name and MIME type, or null. */
  avatar: { file: string; mime: string } | null;
  created_at: string;
  updated_at: string;
}

/** A stored role: a named set of grants shared by its users. */
export interface RoleRecord {
  id: string;
  label: string;
  permissions: Grant[];
  builtin: boolean;
  created_at: string;
  updated_at: string;
}

/** The role that may do everything; it cannot be deleted or reduced. */
export const ADMIN_ROLE = 'admin';

/** The admin role's grants, fixed in code so no stored file can reduce them. */
export const ADMIN_GRANTS: readonly Grant[] = Object.freeze([{ effect: 'allow', actions: ['*'], resources: ['*'] }]);

const EDITOR_GRANTS: Grant[] = [
  { effect: 'allow', actions: ['schema.read', 'content.*', 'media.*', 'trash.read', 'trash.restore', 'activity.read', 'problems.read'], resources: ['*'] },
];
const VIEWER_GRANTS: Grant[] = [{ effect: 'allow', actions: ['schema.read', 'content.read', 'media.read'], resources: ['*'] }];

function builtInRoles(now: string): RoleRecord[] {
  const role = (id: string, label: string, permissions: Grant[]): RoleRecord => ({ id, label, permissions, builtin: true, created_at: now, updated_at: now });
  return [role(ADMIN_ROLE, 'Administrator', [...ADMIN_GRANTS]), role('editor', 'Editor', EDITOR_GRANTS), role('viewer', 'Viewer', VIEWER_GRANTS)];
}

/**
 * In-memory users and roles backed by two state documents (`users`, `roles`).
 * Created once at start by services.ts; all reads are synchronous.
 */
export class AccountStore {
  private readonly usersFile: StateFile<UserRecord[]>;
  private readonly rolesFile: StateFile<RoleRecord[]>;

  private constructor(usersFile: StateFile<UserRecord[]>, rolesFile: StateFile<RoleRecord[]>) {
    this.usersFile = usersFile;
    this.rolesFile = rolesFile;
  }

  /** Loads both documents, seeding the built-in roles on first start. Throws what the state store throws. */
  static async load(state: JsonState): Promise<AccountStore> {
    const users = await StateFile.open<UserRecord[]>(state, 'users', []);
    const roles = await StateFile.open<RoleRecord[]>(state, 'roles', []);
    const store = new AccountStore(users, roles);
    if (!roles.value.some((role) => role.id === ADMIN_ROLE)) {
      const seeded = builtInRoles(new Date().toISOString()).filter((role) => !store.findRole(role.id));
      await roles.replace([...seeded, ...roles.value]);
    }
    return store;
  }

  /** All users, oldest first. */
  users(): readonly UserRecord[] {
    return this.usersFile.value;
  }

  /** The user with this id, if any. */
  findUser(id: string): UserRecord | undefined {
    return this.usersFile.value.find((user) => user.id === id);
  }

  /** The user with this username, compared case-insensitively. */
  findUserByUsername(username: string): UserRecord | undefined {
    const wanted = username.toLowerCase();
    return this.usersFile.value.find((user) => user.username.toLowerCase() === wanted);
  }

  /** How many users hold `roleId`. */
  countUsersWithRole(roleId: string): number {
    return this.usersFile.value.filter((user) => user.role === roleId).length;
  }

  /** All roles in creation order. */
  roles(): readonly RoleRecord[] {
    return this.rolesFile.value;
  }

  /** The role with this id, if any. */
  findRole(id: string): RoleRecord | undefined {
    return this.rolesFile.value.find((role) => role.id === id);
  }

  /** The grants of a role: ADMIN_GRANTS for admin, none for an unknown role. */
  grantsOf(roleId: string): Grant[] {
    if (roleId === ADMIN_ROLE) return [...ADMIN_GRANTS];
    return this.findRole(roleId)?.permissions ?? [];
  }

  /** Replaces the user list and saves it; memory is rolled back if the write fails. */
  replaceUsers(next: UserRecord[]): Promise<void> {
    return this.usersFile.replace(next);
  }

  /** Replaces the role list and saves it; memory is rolled back if the write fails. */
  replaceRoles(next: RoleRecord[]): Promise<void> {
    return this.rolesFile.replace(next);
  }
}
