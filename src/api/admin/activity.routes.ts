// The activity log (SPEC admin table: GET /activity): newest first, filtered
// by level and type, paged. Needs activity.read.
import Router from '@koa/router';
import { ACTIVITY_LEVELS, type ActivityLevel, type ActivityLog } from '../../domain/activity/activity-log.ts';
import { AppError } from '../../errors/app-error.ts';
import type { AppState } from '../../http/state.ts';
import { pagingOf, stringParam, type QueryValues } from './admin-params.ts';

/** Route /activity, relative to the admin root. */
export function createActivityRouter(activity: ActivityLog): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/activity', async (ctx) => {
    const page = await activity.list(ctx.state.principal, { ...pagingOf(ctx.query), level: levelOf(ctx.query), type: stringParam(ctx.query, 'type'), workspace: stringParam(ctx.query, 'workspace') });
    ctx.body = { data: page.records, meta: { total: page.total, limit: page.limit, offset: page.offset } };
  });
  return router;
}

function levelOf(query: QueryValues): ActivityLevel | undefined {
  const level = stringParam(query, 'level');
  if (level === undefined) return undefined;
  const known = ACTIVITY_LEVELS.find((candidate) => candidate === level);
  if (!known) throw new AppError('invalid_request', `The level must be one of: ${ACTIVITY_LEVELS.join(', ')}.`);
  return known;
}
