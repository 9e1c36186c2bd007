import { Hono } from 'hono';
import { publicLinkBase } from '../../shared/public-links.ts';
import type { AppEnv } from '../app-env.ts';
import { oncePer } from '../db/once-per.ts';
import type { AppDeps } from '../deps.ts';
import { getOwnBooking } from '../services/bookings/owner-bookings.ts';
import { bookingIcs } from '../services/tickets/calendar.ts';
import { createTicketPdfWorker } from '../services/tickets/ticket-pdf-worker.ts';
import { sessionUserOf } from './session-of.ts';

/**
 * GET /api/tickets/{bookingId}.pdf and /api/tickets/{bookingId}.ics: the ticket as a PDF and as a
 * calendar entry, for the booking's owner only (session cookie). Anyone else, signed in or not, gets
 * the same 404 as for a booking that does not exist.
 */
export function ticketFileRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();
  routes.get('/:file', async (c) => {
    const match = /^(.+)\.(pdf|ics)$/.exec(c.req.param('file'));
    if (!match) return c.json({ error: { message: 'Not found' } }, 404);
    const [, bookingId, kind] = match as unknown as [string, string, 'pdf' | 'ics'];

    const user = await sessionUserOf(c, deps);
    // Throws the not-found DomainError, which app.onError answers with 404.
    const booking = await getOwnBooking(deps.db, deps.appSecret, user?.id ?? null, bookingId);
    // A cancelled booking's ticket is not valid for entry: no file that looks like one.
    if (booking.status === 'cancelled') {
      return c.json({ error: { message: 'This booking was cancelled and refunded' } }, 410);
    }

    c.header('Cache-Control', 'private, no-store');
    const filename = `jalsa-ticket-${safeFilePart(booking.id)}.${kind}`;
    c.header('Content-Disposition', `attachment; filename="${filename}"`);
    if (kind === 'ics') {
      const origin = publicLinkBase(deps.env.PUBLIC_URL, c.req.url);
      c.header('Content-Type', 'text/calendar; charset=utf-8');
      return c.body(bookingIcs({ ...booking, ticketType: { name: booking.ticketTypeName } }, origin));
    }
    c.header('Content-Type', 'application/pdf');
    return c.body(new Uint8Array(await pdfWorkerOf(deps).render([booking])));
  });
  return routes;
}

/** One PDF thread per app: drawing a PDF never holds up the requests this process answers. */
export const pdfWorkerOf = oncePer((_deps: AppDeps) => createTicketPdfWorker());

const safeFilePart = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_');
