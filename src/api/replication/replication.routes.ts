// {base}/replication/v1 on a primary: what replicas need besides git
// (docs/deployment.md "Replicas"). A token with `replication.read`:
// GET /changes (long poll: where the primary is, as soon as it moves),
// GET /state (users, roles, token hashes, sessions, cookie keys) and
// GET /media/{ws}/{filename} (a media original, whatever its visibility).
import Router from '@koa/router';
import { LONGEST_WAIT_MS, type ReplicationPoint, type ReplicationSource } from '../../domain/replica/replication-source.ts';
import { integerParam, textParam, validateQuery, type QueryValues } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';

/** The replication endpoint's root. */
export const REPLICATION_PREFIX = '/replication/v1';

interface ChangesQuery {
  since: Partial<ReplicationPoint>;
  waitMs: number;
}

/** Builds the router for /replication/v1 (primary only). */
export function createReplicationRouter(source: ReplicationSource): Router<AppState> {
  const router = new Router<AppState>({ prefix: REPLICATION_PREFIX });
  router.get('/changes', validateQuery(parseChangesQuery), async (ctx) => {
    ctx.body = { data: await source.changes(ctx.state.principal, ctx.state.query.since, ctx.state.query.waitMs) };
    // A stopping primary lets go of its replicas' connections, so it can close.
    if (source.isClosing) ctx.set('Connection', 'close');
  });
  router.get('/state', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: source.state(ctx.state.principal) };
  });
  router.get('/media/:ws/:filename', async (ctx) => {
    const file = await source.mediaFile(ctx.state.principal, ctx.params.ws, ctx.params.filename);
    ctx.type = 'application/octet-stream';
    ctx.length = file.size;
    ctx.body = file.stream;
  });
  return router;
}

// `head` and `state` as the replica holds them, `wait` in milliseconds (default 0: answer at once).
function parseChangesQuery(query: QueryValues): ChangesQuery {
  return {
    since: { head: textParam(query, 'head'), state: textParam(query, 'state') },
    waitMs: integerParam(query, 'wait', { min: 0, max: LONGEST_WAIT_MS }) ?? 0,
  };
}
