import { Hono } from 'hono';
import { OrdersFilter } from '../../shared/sales-schemas.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { unauthorized } from '../errors.ts';
import { streamOrdersCsv } from '../services/sales/stream-orders-csv.ts';
import { requireEventPermission } from '../services/team/require-event-permission.ts';
import { sessionUserOf } from './session-of.ts';

/**
 * GET /api/organiser/events/{eventId}/orders.csv?q=&slotId=&status=&sort=: the orders table as a
 * streamed CSV download. A plain route (a file, not JSON), with exactly eventProcedure('viewSales')'s
 * answers: signed out 401; an event that is not the caller's, or does not exist, 404; gate staff 403.
 */
export function ordersCsvRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();
  routes.get('/events/:eventId/orders.csv', async (c) => {
    const user = await sessionUserOf(c, deps);
    c.header('Cache-Control', 'private, no-store');
    if (!user) throw unauthorized();
    // Throws the 404 / 403 DomainError that app.onError answers, exactly as eventProcedure would.
    const event = await requireEventPermission(deps.db, c.req.param('eventId'), user.id, 'viewSales');

    const filter = OrdersFilter.safeParse(c.req.query());
    if (!filter.success) {
      return c.json({ error: { message: filter.error.issues[0]?.message ?? 'Invalid input' } }, 400);
    }
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${csvFileName(event.name, deps.clock.now())}"`);
    return c.body(await streamOrdersCsv(deps.db, event.id, filter.data));
  });
  return routes;
}

/** 'jalsa-orders-sunburn-arena-2026-11-24.csv': ASCII only, so no header encoding is needed. */
function csvFileName(eventName: string, now: Date): string {
  const slug =
    eventName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'event';
  return `jalsa-orders-${slug}-${now.toISOString().slice(0, 10)}.csv`;
}
