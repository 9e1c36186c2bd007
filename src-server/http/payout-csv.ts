import { Hono } from 'hono';
import { ORGANISER_MESSAGES } from '../../shared/organiser-schemas.ts';
import { MonthlyPayoutCsvInput, PayoutStatementInput } from '../../shared/sales-schemas.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { getAccountRole, runsTheConsole } from '../services/roles/get-account-role.ts';
import { streamMonthlyPayoutCsv } from '../services/sales/stream-monthly-payout-csv.ts';
import { streamPayoutCsv } from '../services/sales/stream-payout-csv.ts';
import { requireEventPermission } from '../services/team/require-event-permission.ts';
import { sessionUserOf } from './session-of.ts';

/**
 * GET /api/organiser/events/{eventId}/payout.csv?month=yyyy-MM: the payout statement as CSV, every month
 * (or the one asked for) and a total row. Exactly eventProcedure('viewPayouts')'s answers, as
 * orders-csv.ts does for viewSales: signed out 401; an event that is not the caller's, or does not
 * exist, 404; gate staff and co-organisers 403.
 *
 * GET /api/organiser/payout.csv?month=yyyy-MM: the organiser's month, every event of theirs in it and
 * the total (stream-monthly-payout-csv.ts). Exactly console.monthlyPayoutStatement's answers
 * (organiserProcedure): signed out 401, anyone but organisers and admins 403, a malformed month or one
 * still to come 400; the rows are the caller's own events only.
 */
export function payoutCsvRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();
  routes.get('/events/:eventId/payout.csv', async (c) => {
    const user = await sessionUserOf(c, deps);
    c.header('Cache-Control', 'private, no-store');
    if (!user) throw unauthorized();
    const event = await requireEventPermission(deps.db, c.req.param('eventId'), user.id, 'viewPayouts');

    const query = PayoutStatementInput.safeParse(c.req.query());
    if (!query.success) {
      return c.json({ error: { message: query.error.issues[0]?.message ?? 'Invalid input' } }, 400);
    }
    const slug =
      event.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60) || 'event';
    const period = query.data.month ?? deps.clock.now().toISOString().slice(0, 10);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="jalsa-payout-${slug}-${period}.csv"`);
    return c.body(streamPayoutCsv(deps.db, event.id, query.data.month));
  });

  routes.get('/payout.csv', async (c) => {
    const user = await sessionUserOf(c, deps);
    c.header('Cache-Control', 'private, no-store');
    if (!user) throw unauthorized();
    const role = await getAccountRole(deps.db, user.id);
    if (!runsTheConsole(role)) throw forbidden(ORGANISER_MESSAGES.notAllowed);

    const query = MonthlyPayoutCsvInput.safeParse(c.req.query());
    if (!query.success) {
      return c.json({ error: { message: query.error.issues[0]?.message ?? 'Invalid input' } }, 400);
    }
    const month = query.data.month;
    // Reads the rows first: a month still to come is the service's 400, before any header is sent.
    const body = await streamMonthlyPayoutCsv(deps.db, user.id, month, deps.clock.now());
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="jalsa-payout-${month}.csv"`);
    return c.body(body);
  });
  return routes;
}
