// Users of the admin interface: CRUD under `users.*` grants, the rules that
// keep at least one admin, and the principal a session user acts as. Own
// profile changes, avatars and login live in profile-service.ts and
// login-service.ts.
import { customAlphabet } from 'nanoid';
import { AppError, notFound } from '../../errors/app-error.ts';
import { ADMIN_ROLE, type AccountStore, type UserRecord } from './account-store.ts';
import { authorize } from './authorize.ts';
import { ALL_WORKSPACES } from './grants.ts';
import { hashPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import type { SessionStore } from './session-store.ts';
import { checkDisplayName, checkEmail, checkUsername, updatedContactFields } from './user-fields.ts';
import { assertHoldsAtLeast } from './grant-coverage.ts';

/** Body of POST /admin/api/users. */
export interface CreateUserInput {
  username: string;
  password: string;
  email?: string;
  display_name?: string;
  role?: string;
}

/** Body of PUT /admin/api/users/{id}. */
export interface UpdateUserInput {
  email?: string;
  display_name?: string;
  role?: string;
  password?: string;
}

/** The role a new user gets when none is given: the least privileged built-in. */
export const DEFAULT_ROLE = 'viewer';

const newUserId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 12);

/** User management for the admin API and user lookup for authenticate(). */
export class UserService {
  private readonly accounts: AccountStore;
  private readonly sessions: SessionStore;

  constructor(accounts: AccountStore, sessions: SessionStore) {
    this.accounts = accounts;
    this.sessions = sessions;
  }

  /** Whether any user exists; before that, only setup answers on the admin API. */
  hasUsers(): boolean {
    return this.accounts.users().length > 0;
  }

  /** The user with this id, without a permission check (for sessions and presenters). */
  find(id: string): UserRecord | undefined {
    return this.accounts.findUser(id);
  }

  /** The principal a session user acts as, with the current grants of their role. */
  principalFor(userId: string): Principal | undefined {
    const user = this.accounts.findUser(userId);
    if (!user) return undefined;
    return { kind: 'user', id: user.id, username: user.username, displayName: user.display_name, role: user.role, grants: this.accounts.grantsOf(user.role) };
  }

  /** All users. Throws unauthorized (401), forbidden (403) without `users.read`. */
  list(principal: Principal): UserRecord[] {
    authorize(principal, { action: 'users.read', resource: 'users:*', workspace: ALL_WORKSPACES });
    return [...this.accounts.users()];
  }

  /**
   * Every user's id and display name (or username), so screens can say who
   * wrote an entry without the `users.read` grant: names are not secret among
   * the people of one admin. Throws forbidden (403) for anyone but a signed-in user.
   */
  authors(principal: Principal): { id: string; name: string }[] {
    if (principal.kind !== 'user') throw new AppError('forbidden', 'Only signed-in users may list authors.');
    return this.accounts.users().map((user) => ({ id: user.id, name: user.display_name || user.username }));
  }

  /** One user; everyone may read their own record. Throws forbidden (403), not_found (404). */
  get(principal: Principal, id: string): UserRecord {
    if (!(principal.kind === 'user' && principal.id === id)) {
      authorize(principal, { action: 'users.read', resource: `users:${id}`, workspace: ALL_WORKSPACES });
    }
    return this.require(id);
  }

  /**
   * Creates a user. Throws forbidden (403) without `users.create` (or when a
   * non-admin assigns the admin role), validation_failed (422), conflict (409) for a taken username.
   */
  async create(principal: Principal, input: CreateUserInput): Promise<UserRecord> {
    authorize(principal, { action: 'users.create', resource: 'users:*', workspace: ALL_WORKSPACES });
    const role = input.role ?? DEFAULT_ROLE;
    this.checkRole(principal, role);
    return this.insert(input, role);
  }

  /**
   * Creates the first user as admin during setup. Throws already_set_up (409)
   * once any user exists, validation_failed (422) for bad input.
   */
  async createFirstAdmin(input: CreateUserInput): Promise<UserRecord> {
    if (this.hasUsers()) throw new AppError('already_set_up', 'The service is already set up.');
    return this.insert(input, ADMIN_ROLE, () => {
      if (this.hasUsers()) throw new AppError('already_set_up', 'The service is already set up.');
    });
  }

  /**
   * Updates display name, email, role or password (which ends the user's
   * sessions). Throws forbidden (403), not_found (404), validation_failed (422),
   * conflict (409) when the last admin would be demoted.
   */
  async update(principal: Principal, id: string, input: UpdateUserInput): Promise<UserRecord> {
    authorize(principal, { action: 'users.update', resource: `users:${id}`, workspace: ALL_WORKSPACES });
    const current = this.require(id);
    this.assertOutranks(principal, current, 'change this user');
    const demotes = (user: UserRecord) => input.role !== undefined && input.role !== user.role && user.role === ADMIN_ROLE;
    if (input.role !== undefined && input.role !== current.role) this.checkRole(principal, input.role);
    if (demotes(current)) this.assertNotLastAdmin('demoted');
    const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
    const updated = await this.save(id, (user) => {
      // Checked again after hashing: another request may have demoted an admin meanwhile.
      if (demotes(user)) this.assertNotLastAdmin('demoted');
      return {
        ...user,
        ...updatedContactFields(user, input),
        role: input.role ?? user.role,
        password_hash: passwordHash ?? user.password_hash,
      };
    });
    if (passwordHash !== undefined) await this.sessions.destroyForUser(id);
    return updated;
  }

  /** Ends every session of a user (after a password change). Throws what saving the sessions throws. */
  async endSessions(id: string): Promise<void> {
    await this.sessions.destroyForUser(id);
  }

  /** Deletes a user and ends their sessions. Throws forbidden (403), not_found (404), conflict (409) for the last admin. */
  async delete(principal: Principal, id: string): Promise<UserRecord> {
    authorize(principal, { action: 'users.delete', resource: `users:${id}`, workspace: ALL_WORKSPACES });
    const user = this.require(id);
    this.assertOutranks(principal, user, 'delete this user');
    if (user.role === ADMIN_ROLE) this.assertNotLastAdmin('deleted');
    await this.accounts.replaceUsers(this.accounts.users().filter((other) => other.id !== id));
    await this.sessions.destroyForUser(id);
    return user;
  }

  /**
   * Applies `change` to the stored user and saves it (for profile updates).
   * Throws not_found (404), validation_failed (422) from `change`.
   */
  async save(id: string, change: (user: UserRecord) => UserRecord): Promise<UserRecord> {
    const current = this.require(id);
    const updated = { ...change(current), id: current.id, updated_at: new Date().toISOString() };
    await this.accounts.replaceUsers(this.accounts.users().map((user) => (user.id === id ? updated : user)));
    return updated;
  }

  private async insert(input: CreateUserInput, role: string, recheck?: () => void): Promise<UserRecord> {
    const username = checkUsername(input.username);
    const email = checkEmail(input.email ?? '');
    const displayName = checkDisplayName(input.display_name ?? '', username);
    const taken = () => {
      if (this.accounts.findUserByUsername(username)) throw new AppError('conflict', `The username "${username}" is taken.`);
    };
    taken();
    const passwordHash = await hashPassword(input.password);
    // Hashing yields the event loop; re-check everything that may have changed meanwhile.
    recheck?.();
    taken();
    const now = new Date().toISOString();
    const user: UserRecord = { id: newUserId(), username, display_name: displayName, email, role, password_hash: passwordHash, avatar: null, created_at: now, updated_at: now };
    await this.accounts.replaceUsers([...this.accounts.users(), user]);
    return user;
  }

  // Assigning admin hands out every permission, so only admins may do it.
  private checkRole(principal: Principal, role: string): void {
    if (!this.accounts.findRole(role)) throw new AppError('validation_failed', `No role "${role}".`, { fields: { role: `Unknown role "${role}".` } });
    if (role === ADMIN_ROLE && !(principal.kind === 'user' && principal.role === ADMIN_ROLE)) {
      throw new AppError('forbidden', 'Only administrators may grant the admin role.');
    }
    assertHoldsAtLeast(principal, this.accounts.grantsOf(role), `give the role "${role}"`);
  }

  // A user manager may change, reset or delete only users whose role grants no more than their own.
  private assertOutranks(principal: Principal, user: UserRecord, what: string): void {
    assertHoldsAtLeast(principal, this.accounts.grantsOf(user.role), what);
  }

  private assertNotLastAdmin(verb: string): void {
    if (this.accounts.countUsersWithRole(ADMIN_ROLE) <= 1) throw new AppError('conflict', `The last administrator cannot be ${verb}.`);
  }

  private require(id: string): UserRecord {
    const user = this.accounts.findUser(id);
    if (!user) throw notFound(`No user "${id}".`);
    return user;
  }
}
