// On a primary, every answer to a write says where the write left the
// content repo and the replicated state: `X-CMS-Head` and `X-CMS-State`. A
// replica that forwarded the write waits until it holds both before it
// answers its client, so the client reads its own write from the replica.
// Mounted before the session middleware, so a sign-in's session is saved
// (and counted) by the time the headers are set.
import type { Context, Next } from 'koa';

/** The header naming the content repo's head after a write. */
export const HEAD_HEADER = 'X-CMS-Head';
/** The header naming the replicated-state version after a write. */
export const STATE_HEADER = 'X-CMS-State';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where the primary is now. */
export type ReplicationPointOf = () => Promise<{ head: string; state: string }>;

/** Middleware for a primary that adds the two headers to the answers of unsafe methods. */
export function createReplicationHeaders(pointOf: ReplicationPointOf) {
  return async function replicationHeaders(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } finally {
      if (!SAFE_METHODS.has(ctx.method)) {
        const point = await pointOf();
        ctx.set(HEAD_HEADER, point.head);
        ctx.set(STATE_HEADER, point.state);
      }
    }
  };
}
