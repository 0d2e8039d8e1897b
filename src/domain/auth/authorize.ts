// The gate every service calls before it acts: turns the grants engine's
// yes/no into SPEC's 401/403 rules for the acting principal. Resource naming
// for admin areas is documented in docs/permissions.md.
import { AppError } from '../../errors/app-error.ts';
import { isAllowed, type AccessRequest } from './grants.ts';
import type { Principal } from './principal.ts';

/**
 * Whether `principal` may do `request`. Anonymous principals hold no grants,
 * so this is false for them; use it to filter (lists, optional fields). Throws nothing.
 */
export function can(principal: Principal, request: AccessRequest): boolean {
  if (principal.kind === 'anonymous') return false;
  return isAllowed(principal.grants, request, principal.kind === 'user' ? principal.id : undefined);
}

/**
 * Asserts that `principal` may do `request`; services call it first thing.
 * Throws unauthorized (401) for an anonymous principal and forbidden (403)
 * for a token or user whose grants do not allow it.
 */
export function authorize(principal: Principal, request: AccessRequest): void {
  if (principal.kind === 'anonymous') {
    throw new AppError('unauthorized', 'This request needs a valid API token (Authorization: Bearer …).');
  }
  if (!can(principal, request)) {
    throw new AppError('forbidden', `You are not allowed to ${request.action} on ${request.resource}.`);
  }
}
