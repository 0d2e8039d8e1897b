// Which domain events a signed-in user may receive on the live stream
// (GET /admin/api/events): the same grants that decide what they may read.
import { can } from '../auth/authorize.ts';
import { ALL_WORKSPACES } from '../auth/grants.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContentIndex } from '../content/content-index.ts';
import { collectionRequest, entryRequest } from '../auth/content-access.ts';
import type { DomainEvent } from '../model/events.ts';

/**
 * Whether `principal` may see `event`. Entry events need `content.read` on
 * the entry as it is now (gone entries: on its id or slug), plus on the
 * collection when the type is private; type events need a public type or
 * `schema.read`; media events need `media.read` on the file; git events
 * need `git.pull`. Throws nothing.
 */
export function mayReceive(principal: Principal, event: DomainEvent, content: ContentIndex): boolean {
  const { workspace, data } = event;
  if (event.type.startsWith('git.')) return can(principal, { action: 'git.pull', resource: 'git:*', workspace: ALL_WORKSPACES });
  if (event.type.startsWith('content.')) {
    const indexed = content.findType(workspace, data.type);
    if (indexed?.type.visibility === 'private' && !can(principal, collectionRequest(workspace, data.type, 'content.read'))) return false;
    const entry = indexed?.index.get(data.id);
    if (entry) return can(principal, entryRequest(workspace, entry, 'content.read'));
    return can(principal, { action: 'content.read', resource: `content:${data.type}:${data.id}`, aliases: [`content:${data.type}:${data.slug}`], workspace });
  }
  if (event.type.startsWith('schema.')) {
    const isPublic = content.findType(workspace, data.type)?.type.visibility === 'public';
    return isPublic || can(principal, { action: 'schema.read', resource: `schema:${data.type}`, workspace });
  }
  return can(principal, { action: 'media.read', resource: `media:${data.filename}`, workspace });
}
