import type { Hono } from 'hono';
import { QUEUE_TOKEN_HEADER } from '../../shared/waiting-room.ts';
import type { AppEnv } from '../app-env.ts';
import type { PgDb } from '../db/engine/postgres.ts';
import { isPostgres } from '../db/engine/reads.ts';
import type { AppDeps } from '../deps.ts';
import {
  checkWaitingRoomStatus,
  checkWaitingRoomStatusOnPostgres,
} from '../services/waiting-room/check-status.ts';

export const WAITING_ROOM_STATUS_PATH = '/api/waiting-room/:eventId';

/**
 * GET /api/waiting-room/{eventId}: the waiting page's status check (services/waiting-room/check-status.ts).
 * A plain route rather than tRPC: it is the request a rush repeats most, and it needs neither the
 * session (the queue token in the `x-waiting-room-token` header says who asks) nor tRPC's batching.
 * Mounted ahead of the app's middleware (app.ts), so it sets the headers a JSON answer needs itself.
 */
export function mountWaitingRoomStatus(app: Hono<AppEnv>, deps: AppDeps) {
  const headers = {
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    'content-type': 'application/json',
  };
  const notFound = '{"error":{"message":"Not found"}}';
  if (isPostgres(deps.db)) {
    // PostgreSQL (DATABASE_URL): the same check, awaiting the pool.
    const pool = (deps.db as unknown as PgDb).$client;
    app.get(WAITING_ROOM_STATUS_PATH, async (c) => {
      const eventId = c.req.param('eventId');
      if (eventId.length > 200) return c.body(notFound, 404, headers);
      const status = await checkWaitingRoomStatusOnPostgres(
        { pool, appSecret: deps.appSecret, now: deps.clock.now() },
        eventId,
        c.req.header(QUEUE_TOKEN_HEADER),
      );
      return c.body(JSON.stringify(status), 200, headers);
    });
    return;
  }
  // SQLite: answered synchronously, no promise on the request a rush repeats most.
  app.get(WAITING_ROOM_STATUS_PATH, (c) => {
    const eventId = c.req.param('eventId');
    if (eventId.length > 200) return c.body(notFound, 404, headers);
    const status = checkWaitingRoomStatus(
      { sqlite: deps.sqlite, appSecret: deps.appSecret, now: deps.clock.now() },
      eventId,
      c.req.header(QUEUE_TOKEN_HEADER),
    );
    return c.body(JSON.stringify(status), 200, headers);
  });
}
