import { Hono } from 'hono';
import { invoiceMonthSchema } from '../../shared/gst-schemas.ts';
import { ORGANISER_MESSAGES } from '../../shared/organiser-schemas.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { getCreditNoteForDownload, getInvoiceForDownload } from '../services/invoices/read-invoices.ts';
import { streamInvoicesCsv } from '../services/invoices/stream-invoices-csv.ts';
import { getAccountRole } from '../services/roles/get-account-role.ts';
import { sessionUserOf } from './session-of.ts';
import { pdfWorkerOf } from './ticket-files.ts';

/**
 * GET /api/invoices/{invoiceId}.pdf: the buyer's own invoice, or (admission invoices) for the event's
 * owner, co-organisers and admins; anyone else gets the 404 of an invoice that does not exist.
 * GET /api/invoices/credit-notes/{creditNoteId}.pdf: a credit note, for whoever may download its invoice.
 * GET /api/invoices/month/{yyyy-mm}.csv: the signed-in organiser's own invoices of that month (IST)
 * for their accountant. Organisers and admins only (403 for others, 401 signed out).
 */
export function invoiceFileRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();

  routes.get('/month/:file', async (c) => {
    const user = await sessionUserOf(c, deps);
    c.header('Cache-Control', 'private, no-store');
    if (!user) return c.json({ error: { message: 'User not authenticated' } }, 401);
    const role = getAccountRole(deps.db, user.id);
    if (role !== 'organiser' && role !== 'admin') {
      return c.json({ error: { message: ORGANISER_MESSAGES.notAllowed } }, 403);
    }
    const match = /^(.+)\.csv$/.exec(c.req.param('file'));
    const month = invoiceMonthSchema.safeParse({ month: match?.[1] ?? '' });
    if (!month.success) return c.json({ error: { message: 'Month must look like 2026-04' } }, 400);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="jalsa-invoices-${month.data.month}.csv"`);
    return c.body(streamInvoicesCsv(deps.db, user.id, month.data.month));
  });

  routes.get('/credit-notes/:file', async (c) => {
    const match = /^(.+)\.pdf$/.exec(c.req.param('file'));
    if (!match) return c.json({ error: { message: 'Not found' } }, 404);
    const userId = (await sessionUserOf(c, deps))?.id ?? null;
    // Throws the not-found DomainError, which app.onError answers with 404.
    const { invoice, creditNote } = getCreditNoteForDownload(
      deps.db,
      match[1]!,
      userId,
      userId ? getAccountRole(deps.db, userId) : 'none',
    );
    c.header('Cache-Control', 'private, no-store');
    c.header('Content-Type', 'application/pdf');
    const safe = creditNote.number.replace(/[^A-Za-z0-9_-]/g, '-');
    c.header('Content-Disposition', `attachment; filename="jalsa-credit-note-${safe}.pdf"`);
    return c.body(new Uint8Array(await pdfWorkerOf(deps).renderInvoice(invoice, creditNote)));
  });

  routes.get('/:file', async (c) => {
    const match = /^(.+)\.pdf$/.exec(c.req.param('file'));
    if (!match) return c.json({ error: { message: 'Not found' } }, 404);
    const userId = (await sessionUserOf(c, deps))?.id ?? null;
    // Throws the not-found DomainError, which app.onError answers with 404.
    const invoice = getInvoiceForDownload(
      deps.db,
      match[1]!,
      userId,
      userId ? getAccountRole(deps.db, userId) : 'none',
    );
    c.header('Cache-Control', 'private, no-store');
    c.header('Content-Type', 'application/pdf');
    const safe = invoice.number.replace(/[^A-Za-z0-9_-]/g, '-');
    c.header('Content-Disposition', `attachment; filename="jalsa-invoice-${safe}.pdf"`);
    return c.body(new Uint8Array(await pdfWorkerOf(deps).renderInvoice(invoice)));
  });
  return routes;
}
