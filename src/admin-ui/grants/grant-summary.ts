// What a list of grants allows, in plain words, for people who do not read
// JSON: "May read, create and update entries of Posts (drafts only). May not
// delete anything." One sentence per grant, in the grants' order.
import type { Grant } from '../api/people.ts';

const VERBS: Record<string, string> = {
  read: 'see', create: 'create', update: 'change', delete: 'delete', publish: 'publish',
  upload: 'upload', restore: 'restore', purge: 'empty', revoke: 'revoke', manage: 'manage',
  check: 'check for', download: 'download', install: 'install', pull: 'clone and pull', push: 'push to',
};

const AREA_NOUNS: Record<string, string> = {
  schema: 'content types', content: 'entries', media: 'media files', users: 'users', roles: 'roles', tokens: 'API tokens',
  backups: 'backups', webhooks: 'webhooks', workspaces: 'workspaces', trash: 'the trash', activity: 'the activity log',
  updates: 'updates', git: 'the content repository over git', replication: 'the replication state', releases: 'releases',
  problems: 'the files the server skips',
};

/** One sentence per grant. */
export function summarizeGrants(grants: Grant[], typeLabel: (name: string) => string = (name) => name): string[] {
  if (grants.length === 0) return ['May do nothing yet: add a grant.'];
  return grants.map((grant) => summarizeGrant(grant, typeLabel));
}

function summarizeGrant(grant: Grant, typeLabel: (name: string) => string): string {
  const may = grant.effect === 'deny' ? 'May not' : 'May';
  const what = grant.actions.includes('*') ? 'do everything' : describeActions(grant.actions);
  const where = grant.resources.includes('*') ? '' : ` on ${grant.resources.map((resource) => describeResource(resource, typeLabel)).join(', ')}`;
  return `${may} ${what}${where}${describeConditions(grant)}.`;
}

// "read, create and change entries; upload media files"
function describeActions(actions: string[]): string {
  const byArea = new Map<string, string[]>();
  for (const action of actions) {
    const [area, verb] = action.split('.');
    byArea.set(area, [...(byArea.get(area) ?? []), verb]);
  }
  return [...byArea]
    .map(([area, verbs]) => {
      const noun = AREA_NOUNS[area] ?? area;
      return verbs.includes('*') ? `do everything with ${noun}` : `${list(verbs.map((verb) => VERBS[verb] ?? verb))} ${noun}`;
    })
    .join('; ');
}

function describeResource(resource: string, typeLabel: (name: string) => string): string {
  const workspace = /^workspace:([^:]+):(.*)$/.exec(resource);
  if (workspace) return `${describeResource(workspace[2], typeLabel)} in ${workspace[1] === '*' ? 'every workspace' : `the workspace ${workspace[1]}`}`;
  const content = /^content:([^:]+):(.+)$/.exec(resource);
  if (content) return content[2] === '*' ? `${content[1] === '*' ? 'every content type' : typeLabel(content[1])}` : `the entry ${content[2]} of ${typeLabel(content[1])}`;
  if (resource.endsWith(':*')) return `all ${AREA_NOUNS[resource.slice(0, -2)] ?? resource.slice(0, -2)}`;
  return resource;
}

function describeConditions(grant: Grant): string {
  const parts: string[] = [];
  const { status, locales, own } = grant.conditions ?? {};
  if (status?.length) parts.push(`only when the status is ${list(status, 'or')}`);
  if (locales?.length) parts.push(`only in ${list(locales, 'or')}`);
  if (own) parts.push('only their own entries');
  if (grant.fields?.length) parts.push(`${grant.effect === 'deny' ? 'when writing' : 'writing only'} ${list(grant.fields, grant.effect === 'deny' ? 'or' : 'and')}`);
  return parts.length ? ` (${parts.join('; ')})` : '';
}

function list(items: string[], last = 'and'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}
