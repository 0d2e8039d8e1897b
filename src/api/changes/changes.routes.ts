// The changes feed route (docs/changes-feed.md): parses since, limit and
// cursor, and hands them to domain/changes/ with the caller.
import Router from '@koa/router';
import type { ChangesFeed, ChangesQuery } from '../../domain/changes/changes-feed.ts';
import { AppError } from '../../errors/app-error.ts';
import { integerParam, textParam, validateQuery, type QueryValues } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';
import { nameParam } from '../context.ts';

/** Items per page when `limit` is not given, and the most a page may hold. */
export const DEFAULT_CHANGES_LIMIT = 100;
export const MAX_CHANGES_LIMIT = 1000;

// A full commit id: the feed hands out `meta.head` whole, and an abbreviation could name two commits.
const COMMIT_ID = /^[0-9a-fA-F]{40}$/;

/** `since` (a full commit id, either case), `limit` and `cursor`. Throws invalid_request. */
export function parseChangesQuery(query: QueryValues): ChangesQuery {
  const since = textParam(query, 'since');
  if (since !== undefined && !COMMIT_ID.test(since)) {
    const message = 'The query parameter "since" must be a full commit id (40 hexadecimal characters), such as the meta.head of an earlier answer.';
    throw new AppError('invalid_request', message, { fields: { since: message } });
  }
  const limit = integerParam(query, 'limit', { min: 1, max: MAX_CHANGES_LIMIT }) ?? DEFAULT_CHANGES_LIMIT;
  const cursor = textParam(query, 'cursor');
  return { ...(since === undefined ? {} : { since: since.toLowerCase() }), limit, ...(cursor === undefined ? {} : { cursor }) };
}

/** `GET /changes`, relative to a workspace root. */
export function createChangesRouter(feed: ChangesFeed): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/changes', validateQuery(parseChangesQuery), async (ctx) => {
    const { items, meta } = await feed.read(ctx.state.principal, nameParam(ctx, 'ws'), ctx.state.query);
    ctx.body = { data: items, meta };
  });
  return router;
}
