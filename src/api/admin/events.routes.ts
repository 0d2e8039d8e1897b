// GET /admin/api/events: live updates for the signed-in user as server-sent
// events, one per change the event bus carries that the user may see
// (domain/live/). The stream opens with a `ready` event, sends a heartbeat
// comment at a fixed interval and ends when the session ends (logout, idle
// expiry, user deleted) or the server stops. See docs/live-updates.md.
import Router from '@koa/router';
import type { DomainEvent } from '../../domain/model/events.ts';
import type { LiveFeed } from '../../domain/live/live-feed.ts';
import { AppError } from '../../errors/app-error.ts';
import { openEventStream } from '../../http/event-stream.ts';
import { sessionKeyOf } from '../../http/session.ts';
import type { AppState } from '../../http/state.ts';

/** What the events route needs: the feed, and whether a session key is still signed in. */
export interface EventsRouteServices {
  live: LiveFeed;
  sessions: { isLive(key: string): boolean };
}

const RETRY_MS = 3000;

/** The route /events relative to the admin root. Throws unauthenticated (401) without a session user. */
export function createEventsRouter(services: EventsRouteServices, options: { heartbeatMs: number }): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/events', (ctx) => {
    const principal = ctx.state.principal;
    const key = sessionKeyOf(ctx);
    // A bearer token never reaches the admin API as a user; the guard already asked for a session.
    if (principal.kind !== 'user' || key === undefined) throw new AppError('unauthenticated', 'Sign in to the admin interface first.');
    let unsubscribe = () => undefined as void;
    const stream = openEventStream(ctx, {
      retryMs: RETRY_MS,
      onEnd: () => {
        clearInterval(heartbeat);
        unsubscribe();
      },
    });
    const subscription = {
      userId: principal.id,
      isSignedIn: () => services.sessions.isLive(key),
      send: (event: DomainEvent) => stream.send(event.type, presentEvent(event)),
      end: () => stream.end(),
    };
    // Started before subscribing, so a feed that is already closed (and ends the stream at once) also clears it.
    const heartbeat = setInterval(() => services.live.check(subscription) && stream.heartbeat(), options.heartbeatMs);
    unsubscribe = services.live.subscribe(subscription);
    stream.send('ready', { heartbeat_ms: options.heartbeatMs });
  });
  return router;
}

/** The JSON of one event, shaped like a webhook payload (docs/operations.md). */
function presentEvent(event: DomainEvent): Record<string, unknown> {
  return { event: event.type, workspace: event.workspace, occurred_at: event.occurredAt, ...(event.actor ? { actor: event.actor } : {}), data: event.data };
}
