// Who may see which entries: the visibility rules of SPEC "States and
// transitions" combined with the grants of the principal.
import { authorize, can } from './authorize.ts';
import type { Principal } from './principal.ts';
import type { ContentType } from '../model/content-type.ts';
import type { StoredEntry } from '../model/entry.ts';

/** The grant check for one action on a collection (`content:{type}:*`). */
export function collectionRequest(workspace: string, type: string, action: string, payload?: { status?: string; locale?: string; fields?: string[] }) {
  return { action, resource: `content:${type}:*`, workspace, payload };
}

/**
 * The grant check for one action on one entry: `content:{type}:{id}`, also
 * known as `content:{type}:{slug}`, with its author for `own`. The entry's
 * status stands in when the payload sets none, so status conditions hold.
 */
export function entryRequest(workspace: string, entry: StoredEntry, action: string, payload: { status?: string; locale?: string; fields?: string[] } = {}) {
  return {
    action,
    resource: `content:${entry.type}:${entry.id}`,
    aliases: [`content:${entry.type}:${entry.slug}`],
    workspace,
    payload: { ...payload, status: payload.status ?? entry.status },
    ownerId: entry.author_id,
  };
}

/** Whether the principal reads the whole collection, hidden statuses included. */
export function readsWholeCollection(principal: Principal, workspace: string, type: string): boolean {
  return can(principal, collectionRequest(workspace, type, 'content.read'));
}

/**
 * Throws unauthorized/forbidden when the type is private and the principal
 * lacks content.read on it (SPEC authentication rule 7).
 */
export function assertCanReadType(principal: Principal, workspace: string, type: ContentType): void {
  if (type.visibility === 'private') authorize(principal, collectionRequest(workspace, type.name, 'content.read'));
}
