// The activity log (SPEC admin table: GET /activity): newest first, filtered
// by level, type, workspace, actor, content type and time, paged. Needs activity.read.
import Router from '@koa/router';
import { ACTIVITY_LEVELS, ACTIVITY_PAGE, type ActivityLog, type ActivityQuery } from '../../domain/activity/activity-log.ts';
import { choiceParam, pagingParams, textParam, timeParam, validateQuery, type QueryValues } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';

/** Route /activity, relative to the admin root. */
export function createActivityRouter(activity: ActivityLog): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/activity', validateQuery(parseActivityQuery), async (ctx) => {
    const page = await activity.list(ctx.state.principal, ctx.state.query);
    ctx.body = { data: page.records, meta: { total: page.total, limit: page.limit, offset: page.offset } };
  });
  return router;
}

// `limit` (at most ACTIVITY_PAGE.max), `offset`, `level`, `type`, `workspace`, `actor` and `content_type` as free text, `from` and `until` as times.
function parseActivityQuery(query: QueryValues): ActivityQuery {
  return {
    ...pagingParams(query, ACTIVITY_PAGE.max),
    level: choiceParam(query, 'level', ACTIVITY_LEVELS),
    type: textParam(query, 'type'),
    workspace: textParam(query, 'workspace'),
    actor: textParam(query, 'actor'),
    contentType: textParam(query, 'content_type'),
    from: timeParam(query, 'from'),
    until: timeParam(query, 'until'),
  };
}
