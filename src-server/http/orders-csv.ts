import { Hono } from 'hono';
import { ORGANISER_MESSAGES } from '../../shared/organiser-schemas.ts';
import { OrdersFilter } from '../../shared/sales-schemas.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { resolveSessionUser } from '../services/accounts/session-user.ts';
import { getAccountRole } from '../services/roles/get-account-role.ts';
import { streamOrdersCsv } from '../services/sales/stream-orders-csv.ts';
import { eventRoleMay } from '../services/team/event-permissions.ts';
import { loadEventAccess } from '../services/team/load-event-access.ts';

/**
 * GET /api/organiser/events/{eventId}/orders.csv?q=&slotId=&status=&sort=: the orders table as a
 * streamed CSV download. A plain route (a file, not JSON), with exactly eventProcedure('viewSales')'s
 * answers: signed out 401; an event that is not the caller's, or does not exist, 404; gate staff 403.
 */
export function ordersCsvRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();
  routes.get('/events/:eventId/orders.csv', async (c) => {
    const resHeaders = new Headers();
    const session = await resolveSessionUser(deps, {
      cookieHeader: c.req.header('cookie') ?? null,
      resHeaders,
      origin: new URL(c.req.url).origin,
    });
    for (const cookie of resHeaders.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
    c.header('Cache-Control', 'private, no-store');
    if (!session) return c.json({ error: { message: 'User not authenticated' } }, 401);

    const eventId = c.req.param('eventId');
    const role = getAccountRole(deps.db, session.user.id);
    const access = eventId.length <= 100 ? loadEventAccess(deps.db, eventId, session.user.id, role) : null;
    if (!access) return c.json({ error: { message: ORGANISER_MESSAGES.eventNotFound } }, 404);
    if (!eventRoleMay(access.role, 'viewSales'))
      return c.json({ error: { message: ORGANISER_MESSAGES.notAllowed } }, 403);

    const filter = OrdersFilter.safeParse(c.req.query());
    if (!filter.success) {
      return c.json({ error: { message: filter.error.issues[0]?.message ?? 'Invalid input' } }, 400);
    }
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header(
      'Content-Disposition',
      `attachment; filename="${csvFileName(access.event.name, deps.clock.now())}"`,
    );
    return c.body(streamOrdersCsv(deps.db, access.event.id, filter.data));
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
