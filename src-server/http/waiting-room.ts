import { Hono } from 'hono';
import { QUEUE_TOKEN_HEADER } from '../../shared/waiting-room.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { checkWaitingRoomStatus } from '../services/waiting-room/check-status.ts';

/**
 * GET /api/waiting-room/{eventId}: the waiting page's status check (services/waiting-room/check-status.ts).
 * A plain route rather than tRPC: it is the request a rush repeats most, and it needs neither the
 * session (the queue token in the `x-waiting-room-token` header says who asks) nor tRPC's batching.
 */
export function waitingRoomRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();
  routes.get('/:eventId', (c) => {
    const eventId = c.req.param('eventId');
    if (eventId.length > 200) return c.json({ error: { message: 'Not found' } }, 404);
    const status = checkWaitingRoomStatus(
      { sqlite: deps.sqlite, appSecret: deps.appSecret, now: deps.clock.now() },
      eventId,
      c.req.header(QUEUE_TOKEN_HEADER),
    );
    c.header('Cache-Control', 'private, no-store');
    return c.json(status);
  });
  return routes;
}
