// Roles: named grant sets for users (API.md "Tokens and grants"). The
// built-in admin role always holds every action and cannot be deleted or
// reduced; a role that users hold cannot be deleted.
import { AppError, notFound } from '../../errors/app-error.ts';
import { slugify, uniqueSlug } from '../model/slug.ts';
import { ADMIN_ROLE, type AccountStore, type RoleRecord } from './account-store.ts';
import { authorize } from './authorize.ts';
import { ALL_WORKSPACES } from './grants.ts';
import { validateGrants } from './grant-validation.ts';
import type { Principal } from './principal.ts';
import { assertHoldsAtLeast } from './grant-coverage.ts';

/** Body of POST /admin/api/roles. */
export interface CreateRoleInput {
  id?: string;
  label: string;
  permissions: unknown;
}

/** Body of PUT /admin/api/roles/{id}. */
export interface UpdateRoleInput {
  label?: string;
  permissions?: unknown;
}

const ROLE_ID = /^[a-z0-9-]{1,64}$/;
const MAX_LABEL = 100;

/** Role management for the admin API; every method checks `roles.*` grants first. */
export class RoleService {
  private readonly accounts: AccountStore;

  constructor(accounts: AccountStore) {
    this.accounts = accounts;
  }

  /** How many users hold the role (shown so the UI knows whether it can be deleted). */
  countUsers(id: string): number {
    return this.accounts.countUsersWithRole(id);
  }

  /** All roles with their grants. Throws forbidden (403) without `roles.read`. */
  list(principal: Principal): RoleRecord[] {
    authorize(principal, { action: 'roles.read', resource: 'roles:*', workspace: ALL_WORKSPACES });
    return [...this.accounts.roles()];
  }

  /** One role. Throws forbidden (403) without `roles.read`, not_found (404) for an unknown id. */
  get(principal: Principal, id: string): RoleRecord {
    authorize(principal, { action: 'roles.read', resource: `roles:${id}`, workspace: ALL_WORKSPACES });
    return this.require(id);
  }

  /**
   * Creates a role; without `id` one is made from the label. Throws forbidden
   * (403), validation_failed (422) for a bad id, label or grants, conflict (409) for a taken id.
   */
  async create(principal: Principal, input: CreateRoleInput): Promise<RoleRecord> {
    authorize(principal, { action: 'roles.create', resource: 'roles:*', workspace: ALL_WORKSPACES });
    const label = checkLabel(input.label);
    const permissions = validateGrants(input.permissions);
    assertHoldsAtLeast(principal, permissions, 'create this role');
    const id = input.id ?? uniqueSlug((await slugify(label)).slice(0, 60), (candidate) => this.accounts.findRole(candidate) !== undefined);
    if (!ROLE_ID.test(id)) throw new AppError('validation_failed', 'The role id is not valid.', { fields: { id: 'Use 1 to 64 lowercase letters, digits and hyphens.' } });
    if (this.accounts.findRole(id)) throw new AppError('conflict', `A role "${id}" already exists.`);
    const now = new Date().toISOString();
    const role: RoleRecord = { id, label, permissions, builtin: false, created_at: now, updated_at: now };
    await this.accounts.replaceRoles([...this.accounts.roles(), role]);
    return role;
  }

  /**
   * Changes a role's label or grants; the admin role keeps its grants.
   * Throws forbidden (403), not_found (404), validation_failed (422).
   */
  async update(principal: Principal, id: string, input: UpdateRoleInput): Promise<RoleRecord> {
    authorize(principal, { action: 'roles.update', resource: `roles:${id}`, workspace: ALL_WORKSPACES });
    const current = this.require(id);
    assertHoldsAtLeast(principal, current.permissions, 'change this role');
    const label = input.label === undefined ? current.label : checkLabel(input.label);
    let permissions = current.permissions;
    if (input.permissions !== undefined) {
      permissions = validateGrants(input.permissions);
      assertHoldsAtLeast(principal, permissions, 'give this role these rights');
      if (id === ADMIN_ROLE && JSON.stringify(permissions) !== JSON.stringify(current.permissions)) {
        throw new AppError('validation_failed', 'The admin role always holds every permission.', { fields: { permissions: 'The admin role cannot be changed.' } });
      }
    }
    const updated: RoleRecord = { ...current, label, permissions, updated_at: new Date().toISOString() };
    await this.accounts.replaceRoles(this.accounts.roles().map((role) => (role.id === id ? updated : role)));
    return updated;
  }

  /**
   * Deletes an unused role other than admin. Throws forbidden (403),
   * not_found (404), conflict (409) for the admin role or a role users still hold.
   */
  async delete(principal: Principal, id: string): Promise<void> {
    authorize(principal, { action: 'roles.delete', resource: `roles:${id}`, workspace: ALL_WORKSPACES });
    assertHoldsAtLeast(principal, this.require(id).permissions, 'delete this role');
    if (id === ADMIN_ROLE) throw new AppError('conflict', 'The admin role cannot be deleted.');
    const holders = this.accounts.countUsersWithRole(id);
    if (holders > 0) throw new AppError('conflict', `The role "${id}" is held by ${holders} user(s) and cannot be deleted.`);
    await this.accounts.replaceRoles(this.accounts.roles().filter((role) => role.id !== id));
  }

  private require(id: string): RoleRecord {
    const role = this.accounts.findRole(id);
    if (!role) throw notFound(`No role "${id}".`);
    return role;
  }
}

function checkLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed === '' || trimmed.length > MAX_LABEL) {
    throw new AppError('validation_failed', 'The role label is not valid.', { fields: { label: `Use 1 to ${MAX_LABEL} characters.` } });
  }
  return trimmed;
}
