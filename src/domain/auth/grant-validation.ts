// Validation of grants before they are saved on a token or a role: known
// actions only, resources of a known shape, no unknown keys. Matching lives in
// grants.ts; this file only decides what may be stored.
import { AppError, type FieldErrors } from '../../errors/app-error.ts';
import { ENTRY_STATUSES } from '../model/entry.ts';
import { LOCALE_PATTERN } from '../model/content-type.ts';
import type { Grant, GrantConditions } from './principal.ts';
import { isPlainObject } from '../../lib/plain-object.ts';

/** Every action a grant may name (SPEC "Authentication", API.md "Tokens and grants"). */
export const KNOWN_ACTIONS: readonly string[] = Object.freeze([
  'schema.create', 'schema.read', 'schema.update', 'schema.delete',
  'content.read', 'content.create', 'content.update', 'content.publish', 'content.delete',
  'media.read', 'media.upload', 'media.update', 'media.delete',
  'users.read', 'users.create', 'users.update', 'users.delete',
  'roles.read', 'roles.create', 'roles.update', 'roles.delete',
  'tokens.read', 'tokens.create', 'tokens.revoke',
  'backups.read', 'backups.create', 'backups.restore', 'backups.delete',
  'webhooks.manage',
  'workspaces.manage',
  'trash.read', 'trash.restore', 'trash.purge',
  'activity.read',
  'problems.read',
  'updates.check', 'updates.download', 'updates.install',
  'git.pull', 'git.push',
  'releases.read', 'releases.create', 'releases.delete',
  'replication.read',
]);

/** The areas: the part before the dot of an action and before the first colon of a resource. */
export const GRANT_AREAS: readonly string[] = Object.freeze([...new Set(KNOWN_ACTIONS.map((action) => action.split('.')[0]))]);

const GRANT_KEYS = new Set(['effect', 'actions', 'resources', 'fields', 'conditions']);
const CONDITION_KEYS = new Set(['status', 'locales', 'own']);
const MAX_GRANTS = 100;
const MAX_LIST = 100;
const MAX_RESOURCE_LENGTH = 300;
const WORKSPACE_PATTERN = /^(\*|[a-z0-9-]{1,64})$/;
const NAME_GLOB = /^[A-Za-z0-9_*-]{1,128}$/;
const ID_GLOB = /^[A-Za-z0-9_.@*-]{1,128}(:[A-Za-z0-9_.@*-]{1,128})*$/;
const FIELD_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Checks and copies a list of grants from a request body (the `permissions`
 * of a token or role); `path` prefixes the keys of `error.fields`. Used before
 * anything is saved. Throws validation_failed (422) naming each bad action,
 * resource or key.
 */
export function validateGrants(input: unknown, path = 'permissions'): Grant[] {
  const errors: FieldErrors = {};
  if (!Array.isArray(input)) {
    errors[path] = 'Permissions must be a list of grants.';
  } else if (input.length > MAX_GRANTS) {
    errors[path] = `At most ${MAX_GRANTS} grants are allowed.`;
  } else {
    const grants = input.map((item, index) => checkGrant(item, `${path}.${index}`, errors));
    if (Object.keys(errors).length === 0) return grants;
  }
  throw new AppError('validation_failed', 'The permissions are not valid.', { fields: errors });
}

function checkGrant(item: unknown, at: string, errors: FieldErrors): Grant {
  if (!isPlainObject(item)) {
    errors[at] = 'A grant must be an object with effect, actions and resources.';
    return { effect: 'deny', actions: [], resources: [] };
  }
  for (const key of Object.keys(item)) {
    if (!GRANT_KEYS.has(key)) errors[`${at}.${key}`] = `Unknown grant key "${key}".`;
  }
  const effect = item.effect;
  if (effect !== 'allow' && effect !== 'deny') errors[`${at}.effect`] = 'The effect must be "allow" or "deny".';
  const grant: Grant = {
    effect: effect === 'allow' ? 'allow' : 'deny',
    actions: checkList(item.actions, `${at}.actions`, errors, actionProblem),
    resources: checkList(item.resources, `${at}.resources`, errors, resourceProblem),
  };
  if (item.fields !== undefined) grant.fields = checkList(item.fields, `${at}.fields`, errors, fieldProblem);
  if (item.conditions !== undefined) grant.conditions = checkConditions(item.conditions, `${at}.conditions`, errors);
  return grant;
}

function checkList(value: unknown, at: string, errors: FieldErrors, problemOf: (item: string) => string | undefined): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST) {
    errors[at] = `Must be a list of 1 to ${MAX_LIST} strings.`;
    return [];
  }
  const items: unknown[] = value;
  const out: string[] = [];
  for (const [index, item] of items.entries()) {
    const problem = typeof item === 'string' ? problemOf(item) : 'Must be a string.';
    if (problem !== undefined) errors[`${at}.${index}`] = problem;
    else if (typeof item === 'string') out.push(item);
  }
  return [...new Set(out)];
}

function checkConditions(value: unknown, at: string, errors: FieldErrors): GrantConditions {
  if (!isPlainObject(value)) {
    errors[at] = 'Conditions must be an object.';
    return {};
  }
  const conditions: GrantConditions = {};
  for (const key of Object.keys(value)) {
    if (!CONDITION_KEYS.has(key)) errors[`${at}.${key}`] = `Unknown condition "${key}".`;
  }
  if (value.status !== undefined) conditions.status = checkList(value.status, `${at}.status`, errors, statusProblem);
  if (value.locales !== undefined) conditions.locales = checkList(value.locales, `${at}.locales`, errors, localeProblem);
  if (value.own !== undefined) {
    if (typeof value.own === 'boolean') conditions.own = value.own;
    else errors[`${at}.own`] = 'The own condition must be true or false.';
  }
  return conditions;
}

function actionProblem(action: string): string | undefined {
  if (action === '*' || KNOWN_ACTIONS.includes(action)) return undefined;
  const [area, verb, extra] = action.split('.');
  if (verb === '*' && extra === undefined && GRANT_AREAS.includes(area)) return undefined;
  return `Unknown action "${action}".`;
}

/** Why `resource` is not a valid grant resource, or undefined when it is. */
export function resourceProblem(resource: string): string | undefined {
  const malformed = `Malformed resource "${resource.slice(0, 80)}".`;
  if (resource.length === 0 || resource.length > MAX_RESOURCE_LENGTH || CONTROL.test(resource)) return malformed;
  let body = resource;
  if (resource.startsWith('workspace:')) {
    const [, workspace, rest] = /^workspace:([^:]*):([\s\S]*)$/.exec(resource) ?? [];
    if (workspace === undefined || !WORKSPACE_PATTERN.test(workspace)) return malformed;
    body = rest;
  }
  if (body === '*') return undefined;
  const colon = body.indexOf(':');
  if (colon <= 0) return malformed;
  const area = body.slice(0, colon);
  const rest = body.slice(colon + 1);
  if (!GRANT_AREAS.includes(area)) return `Unknown resource type "${area}" in "${resource.slice(0, 80)}".`;
  return restIsValid(area, rest) ? undefined : malformed;
}

function restIsValid(area: string, rest: string): boolean {
  if (rest === '*') return true;
  switch (area) {
    case 'schema':
      return NAME_GLOB.test(rest);
    case 'content': {
      const parts = rest.split(':');
      return parts.length === 2 && parts.every((part) => NAME_GLOB.test(part));
    }
    case 'media':
      // Filenames and category paths are free text (`media:category:Brand / *`).
      return rest.trim() !== '' && rest !== 'category:';
    default:
      return ID_GLOB.test(rest);
  }
}

function fieldProblem(field: string): string | undefined {
  return FIELD_NAME.test(field) ? undefined : `Invalid field name "${field.slice(0, 80)}".`;
}

function statusProblem(status: string): string | undefined {
  return (ENTRY_STATUSES as readonly string[]).includes(status) ? undefined : `Unknown status "${status.slice(0, 40)}".`;
}

function localeProblem(locale: string): string | undefined {
  return LOCALE_PATTERN.test(locale) ? undefined : `Invalid locale "${locale.slice(0, 40)}".`;
}
