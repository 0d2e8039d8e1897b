// Who is acting: anonymous, an API token, or an admin-session user. Every
// service method takes the principal as its first argument.

/** Whether a grant allows or denies; a matching deny always wins. */
export type GrantEffect = 'allow' | 'deny';

/** Extra limits of a grant, checked against the payload or the entry. */
export interface GrantConditions {
  /** Allowed payload/entry statuses. */
  status?: string[];
  /** Allowed locales of the payload. */
  locales?: string[];
  /** Only entries whose author_id is the principal's user id. */
  own?: boolean;
}

/** A permission grant (API.md "Tokens and grants"). */
export interface Grant {
  effect: GrantEffect;
  actions: string[];
  resources: string[];
  fields?: string[];
  conditions?: GrantConditions;
}

/** The caller a service acts for, set by authenticate() on every request. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'token'; id: string; name: string; grants: Grant[] }
  | { kind: 'user'; id: string; username: string; displayName: string; role: string; grants: Grant[] };

/** The principal of a request without a token or session; it holds no grants. */
export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });

/** Name and email recorded as the git author for writes by this principal. */
export function gitAuthorOf(principal: Principal): { name: string; email: string } {
  switch (principal.kind) {
    case 'user':
      return { name: principal.displayName || principal.username, email: `${principal.username}@users.cms.local` };
    case 'token':
      return { name: `token ${principal.name}`, email: `${principal.id}@tokens.cms.local` };
    default:
      return { name: 'anonymous', email: 'anonymous@cms.local' };
  }
}

/** A stable id of the actor for trailers and `author_id`/`updated_by`. */
export function actorIdOf(principal: Principal): string | undefined {
  if (principal.kind === 'user') return principal.id;
  if (principal.kind === 'token') return `token:${principal.id}`;
  return undefined;
}
