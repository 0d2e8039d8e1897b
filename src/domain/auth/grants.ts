// The grants engine: the one answer to "may these grants do action A on
// resource R in workspace W with this payload" (API.md "Tokens and grants").
// Tokens and roles share it. Who the principal is, and what to do with a "no",
// belongs to authorize.ts; validating stored grants lives in grant-validation.ts.
import type { Grant, GrantConditions } from './principal.ts';

/** Grant validation and the action lists, re-exported so callers need one import. */
export { validateGrants, KNOWN_ACTIONS, GRANT_AREAS } from './grant-validation.ts';

/**
 * The workspace value for admin areas that are not scoped to a workspace
 * (users, roles, tokens, updates…): only unprefixed or `workspace:*:` grants
 * match it, so a grant limited to one workspace never reaches global settings.
 */
export const ALL_WORKSPACES = '*';

/** One question to the grants engine. */
export interface AccessRequest {
  /** A known action, e.g. `content.update`. */
  action: string;
  /** The resource without workspace prefix, e.g. `content:posts:hello` or `users:*`. */
  resource: string;
  /**
   * Other names of the same resource (an entry is `content:{type}:{id}` and
   * `content:{type}:{slug}`): a grant naming any of them matches, so a deny on
   * either name also wins.
   */
  aliases?: string[];
  /** The workspace slug the request acts in, or ALL_WORKSPACES for global admin areas. */
  workspace: string;
  /**
   * Facts the conditions and `fields` look at: the status the payload sets (or
   * the entry's status for reads and deletes), the locale written or read, and
   * the custom field names a create/update writes.
   */
  payload?: { status?: string; locale?: string; fields?: string[] };
  /** The entry's `author_id` (the creator's id on create), for the `own` condition. */
  ownerId?: string;
}

/**
 * Whether `grants` allow `request`: a matching deny beats any matching allow,
 * and nothing matching means no. `userId` is the acting user, for `own`.
 * Used by authorize() and can(); pure and cheap, so lists may ask per entry. Throws nothing.
 */
export function isAllowed(grants: readonly Grant[], request: AccessRequest, userId?: string): boolean {
  let allowed = false;
  for (const grant of grants) {
    if (!grantApplies(grant, request, userId)) continue;
    if (grant.effect === 'deny') return false;
    allowed = true;
  }
  return allowed;
}

function grantApplies(grant: Grant, request: AccessRequest, userId: string | undefined): boolean {
  return (
    grant.actions.some((pattern) => globMatch(pattern, request.action)) &&
    grant.resources.some((pattern) => resourceMatches(pattern, request)) &&
    fieldsMatch(grant, request.payload?.fields) &&
    conditionsHold(grant.conditions, request, userId)
  );
}

const WORKSPACE_PREFIX = /^workspace:([^:]+):([\s\S]+)$/;

function resourceMatches(pattern: string, request: AccessRequest): boolean {
  const scoped = WORKSPACE_PREFIX.exec(pattern);
  if (scoped && !globMatch(scoped[1], request.workspace)) return false;
  const resourcePattern = scoped ? scoped[2] : pattern;
  return globMatch(resourcePattern, request.resource) || (request.aliases ?? []).some((alias) => globMatch(resourcePattern, alias));
}

// On an allow grant, `fields` is an allow-list: writing any other field makes
// the grant not match. On a deny grant it names the forbidden fields: the deny
// matches only when the payload writes one of them.
function fieldsMatch(grant: Grant, written: string[] | undefined): boolean {
  if (!grant.fields || !written) return true;
  const listed = grant.fields;
  if (grant.effect === 'deny') return written.some((field) => listed.includes(field));
  return written.every((field) => listed.includes(field));
}

// A condition on a fact the request does not carry does not hold, for allow
// and deny alike, so callers must pass the status, locale and owner they know.
function conditionsHold(conditions: GrantConditions | undefined, request: AccessRequest, userId: string | undefined): boolean {
  if (!conditions) return true;
  const { status, locale } = request.payload ?? {};
  if (conditions.status && (status === undefined || !conditions.status.includes(status))) return false;
  if (conditions.locales && (locale === undefined || !conditions.locales.includes(locale))) return false;
  if (conditions.own === true && (userId === undefined || request.ownerId !== userId)) return false;
  return true;
}

/**
 * Whether `value` matches `pattern`, where `*` stands for any run of
 * characters (separators included) and everything else is literal. Iterative
 * with one backtrack point, so it is linear in practice and never explodes.
 */
export function globMatch(pattern: string, value: string): boolean {
  let p = 0;
  let v = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (v < value.length) {
    if (p < pattern.length && pattern[p] === '*') {
      starAt = p++;
      resumeAt = v;
    } else if (p < pattern.length && pattern[p] === value[v]) {
      p++;
      v++;
    } else if (starAt !== -1) {
      p = starAt + 1;
      v = ++resumeAt;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
