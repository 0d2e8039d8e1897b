// First-run setup and password login (API.md "Admin session"). Starting and
// ending the cookie session is the HTTP layer's job; this decides who gets in.
import { AppError } from '../../errors/app-error.ts';
import { WORKSPACE_SLUG } from '../model/workspace-file.ts';
import type { AccountStore, UserRecord } from './account-store.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import type { UserService } from './user-service.ts';

/** Body of POST /admin/api/setup. */
export interface SetupInput {
  username: string;
  password: string;
  email?: string;
  display_name?: string;
  /** Label of the first workspace. */
  workspace?: string;
  /** Slug of the first workspace; without it the label goes to the default workspace. */
  workspace_slug?: string;
}

/** One sign-in attempt and how it ended; the activity log records them. */
export interface LoginAttempt {
  username: string;
  address: string;
  outcome: 'success' | 'invalid_credentials' | 'rate_limited';
  /** The user's id, on success. */
  userId?: string;
}

/**
 * What setup asks of the workspaces: name or create the first one. The
 * workspace service sits above auth (it authorizes through it), so it is
 * handed in as this, never imported.
 */
export interface SetupWorkspaces {
  find(slug: string): object | undefined;
  create(principal: Principal, input: { slug: string; label: string }): Promise<unknown>;
  update(principal: Principal, slug: string, input: { label: string; archived: boolean }): Promise<unknown>;
}

/** What LoginService needs; all built in services.ts. */
export interface LoginServiceDeps {
  accounts: AccountStore;
  users: UserService;
  workspaces: SetupWorkspaces;
  throttle: LoginThrottle;
  defaultWorkspace: string;
  /** Told about every login attempt; must not throw. */
  onAttempt?: (attempt: LoginAttempt) => void;
}

/** Setup and login rules. */
export class LoginService {
  private readonly deps: LoginServiceDeps;

  constructor(deps: LoginServiceDeps) {
    this.deps = deps;
  }

  /**
   * Creates the first user as admin and, when asked, names or creates the
   * first workspace. Throws already_set_up (409) once a user exists,
   * validation_failed (422) for bad input (checked before anything is written).
   */
  /** Throws already_set_up (409) once a user exists: checked before a setup body is even read. */
  assertNotSetUp(): void {
    if (this.deps.users.hasUsers()) throw new AppError('already_set_up', 'The service is already set up.');
  }

  async setup(input: SetupInput): Promise<UserRecord> {
    const { users, workspaces, defaultWorkspace } = this.deps;
    this.assertNotSetUp();
    const slug = input.workspace_slug ?? defaultWorkspace;
    if (!WORKSPACE_SLUG.test(slug)) {
      throw new AppError('validation_failed', 'The workspace slug is not valid.', { fields: { workspace_slug: 'Use 1 to 64 lowercase letters, digits and hyphens.' } });
    }
    const label = input.workspace?.trim() || undefined;
    if (label !== undefined && label.length > 100) {
      throw new AppError('validation_failed', 'The workspace label is not valid.', { fields: { workspace: 'Use at most 100 characters.' } });
    }
    const user = await users.createFirstAdmin(input);
    const principal = users.principalFor(user.id);
    if (principal && (label !== undefined || input.workspace_slug !== undefined)) {
      const wanted = label ?? slug;
      if (workspaces.find(slug)) await workspaces.update(principal, slug, { label: wanted, archived: false });
      else await workspaces.create(principal, { slug, label: wanted });
    }
    return user;
  }

  /**
   * Checks a username and password. Throws rate_limited (429) after 5
   * failures for the username or address in 15 minutes, and invalid_credentials
   * (401) for an unknown user or wrong password (the same answer for both).
   */
  async login(username: string, password: string, address: string): Promise<UserRecord> {
    const { accounts, throttle, onAttempt } = this.deps;
    try {
      throttle.assertAllowed(username, address);
    } catch (error) {
      onAttempt?.({ username, address, outcome: 'rate_limited' });
      throw error;
    }
    const user = accounts.findUserByUsername(username);
    const valid = await verifyPassword(password, user?.password_hash);
    if (!user || !valid) {
      throttle.recordFailure(username, address);
      onAttempt?.({ username, address, outcome: 'invalid_credentials' });
      throw new AppError('invalid_credentials', 'The username or password is wrong.');
    }
    throttle.recordSuccess(username);
    onAttempt?.({ username, address, outcome: 'success', userId: user.id });
    return user;
  }
}
