// One grant as the grants editor edits it: allow or deny, the actions, what
// it applies to (everything, one content type, one entry, or resources typed
// by hand), the workspace, and the conditions of entries.
import type { Grant } from '../api/people.ts';

export type Scope = 'all' | 'type' | 'entry' | 'custom';

export interface GrantDraft {
  key: number;
  effect: 'allow' | 'deny';
  actions: string[];
  scope: Scope;
  type: string;
  entry: string;
  /** Resources typed by hand, separated by commas (scope `custom`). */
  customText: string;
  /** '' for every workspace. */
  workspace: string;
  statuses: string[];
  localesText: string;
  own: boolean;
  /** Kept as they were: the editor does not edit field lists. */
  fields?: string[];
}

let nextKey = 0;

/** A new grant: allow nothing on everything yet. */
export function newGrantDraft(): GrantDraft {
  nextKey += 1;
  return { key: nextKey, effect: 'allow', actions: [], scope: 'all', type: '', entry: '', customText: '', workspace: '', statuses: [], localesText: '', own: false };
}

/** The editor's form of a stored grant; resources it cannot show as a scope are kept as typed text. */
export function grantDraftOf(grant: Grant): GrantDraft {
  const draft: GrantDraft = { ...newGrantDraft(), effect: grant.effect, actions: [...grant.actions], fields: grant.fields };
  const prefix = /^workspace:([^:]+):/.exec(grant.resources[0] ?? '')?.[1];
  const sameWorkspace = prefix !== undefined && grant.resources.every((resource) => resource.startsWith(`workspace:${prefix}:`));
  const resources = sameWorkspace ? grant.resources.map((resource) => resource.slice(`workspace:${prefix}:`.length)) : grant.resources;
  if (sameWorkspace && prefix !== '*') draft.workspace = prefix;
  const single = resources.length === 1 ? /^content:([^:*]+):(.+)$/.exec(resources[0]) : null;
  if (resources.length === 1 && resources[0] === '*') draft.scope = 'all';
  else if (single && single[2] === '*') Object.assign(draft, { scope: 'type', type: single[1] });
  else if (single && !single[2].includes('*')) Object.assign(draft, { scope: 'entry', type: single[1], entry: single[2] });
  else Object.assign(draft, { scope: 'custom', customText: grant.resources.join(', '), workspace: '' });
  draft.statuses = grant.conditions?.status ?? [];
  draft.localesText = (grant.conditions?.locales ?? []).join(', ');
  draft.own = grant.conditions?.own === true;
  return draft;
}

/** The grant the API takes. */
export function grantOf(draft: GrantDraft): Grant {
  const resource = draft.scope === 'type' ? `content:${draft.type}:*` : draft.scope === 'entry' ? `content:${draft.type}:${draft.entry.trim()}` : '*';
  const resources =
    draft.scope === 'custom'
      ? draft.customText.split(',').map((text) => text.trim()).filter(Boolean)
      : [draft.workspace ? `workspace:${draft.workspace}:${resource}` : resource];
  const locales = draft.localesText.split(',').map((code) => code.trim()).filter(Boolean);
  const conditions = {
    ...(draft.statuses.length ? { status: draft.statuses } : {}),
    ...(locales.length ? { locales } : {}),
    ...(draft.own ? { own: true } : {}),
  };
  return {
    effect: draft.effect,
    actions: draft.actions,
    resources,
    ...(draft.fields?.length ? { fields: draft.fields } : {}),
    ...(Object.keys(conditions).length ? { conditions } : {}),
  };
}
