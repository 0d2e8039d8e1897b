// "No one hands out more than they hold": whether one set of grants allows
// at least everything another allows. User managers may only change users,
// and grant roles or create tokens, within their own rights.
import { AppError } from '../../errors/app-error.ts';
import { KNOWN_ACTIONS } from './grant-validation.ts';
import { ALL_WORKSPACES, isAllowed, type AccessRequest } from './grants.ts';
import type { Grant, Principal } from './principal.ts';

const WORKSPACE_PREFIX = /^workspace:([^:]+):([\s\S]+)$/;

/**
 * Whether `held` allows every action on every resource an allow grant of
 * `wanted` names, each taken literally (wildcards included, so `content:*`
 * is covered by `*` or `content:*`, not by `content:posts:*`). Conservative:
 * a held grant limited by conditions or fields covers nothing here, since
 * the facts it needs are not known until a request is made.
 */
export function grantsCover(held: readonly Grant[], wanted: readonly Grant[]): boolean {
  const unconditional = held.filter((grant) => grant.effect === 'deny' || (!grant.conditions && !grant.fields));
  return wanted
    .filter((grant) => grant.effect === 'allow')
    .every((grant) => expandActions(grant.actions).every((action) => grant.resources.every((resource) => isAllowed(unconditional, requestFor(action, resource)))));
}

/** Throws forbidden (403) unless `principal` holds at least the rights in `wanted`; `what` says what was refused. */
export function assertHoldsAtLeast(principal: Principal, wanted: readonly Grant[], what: string): void {
  const held = principal.kind === 'anonymous' ? [] : principal.grants;
  if (!grantsCover(held, wanted)) throw new AppError('forbidden', `You cannot ${what}: it has rights you do not have yourself.`);
}

// `*` and `area.*` stand for every known action they match.
function expandActions(actions: readonly string[]): string[] {
  return actions.flatMap((action) => (action.includes('*') ? KNOWN_ACTIONS.filter((known) => action === '*' || known.startsWith(action.slice(0, -1))) : [action]));
}

function requestFor(action: string, resource: string): AccessRequest {
  const scoped = WORKSPACE_PREFIX.exec(resource);
  return scoped ? { action, resource: scoped[2], workspace: scoped[1] } : { action, resource, workspace: ALL_WORKSPACES };
}
