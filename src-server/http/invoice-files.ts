import { type Context, Hono } from 'hono';
import { invoiceMonthSchema } from '../../shared/gst-schemas.ts';
import { type AccountRole, ORGANISER_MESSAGES } from '../../shared/organiser-schemas.ts';
import type { AppEnv } from '../app-env.ts';
import { PLATFORM_ISSUER } from '../db/schema/invoices.ts';
import type { AppDeps } from '../deps.ts';
import { eCreditNoteStampOf, eInvoiceStampOf } from '../services/invoices/e-invoicing-setting.ts';
import { gstr1Zip } from '../services/invoices/export-gstr1.ts';
import { getCreditNoteForDownload, getInvoiceForDownload } from '../services/invoices/read-invoices.ts';
import { streamInvoicesCsv } from '../services/invoices/stream-invoices-csv.ts';
import { getAccountRole, runsTheConsole } from '../services/roles/get-account-role.ts';
import { sessionUserOf } from './session-of.ts';
import { pdfWorkerOf } from './ticket-files.ts';

/**
 * GET /api/invoices/{invoiceId}.pdf: the buyer's own invoice, or (admission invoices) for the event's
 * owner, co-organisers and admins; anyone else gets the 404 of an invoice that does not exist.
 * GET /api/invoices/credit-notes/{creditNoteId}.pdf: a credit note, for whoever may download its invoice.
 * GET /api/invoices/month/{yyyy-mm}.csv: the signed-in organiser's own invoices of that month (IST)
 * for their accountant. Organisers and admins only (403 for others, 401 signed out).
 * GET /api/invoices/gstr1/{yyyy-mm}.zip: the same documents as GSTR-1's tables, a ZIP of the GST offline
 * tool's CSVs (export-gstr1.ts); same access.
 * GET /api/invoices/platform/month/{yyyy-mm}.csv and /api/invoices/platform/gstr1/{yyyy-mm}.zip: the
 * platform's own fee invoices and their credit notes, for the operator: admins only (issue 36).
 */
export function invoiceFileRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();

  // Each export answers for one issuer: the caller's own documents, or the platform's for an admin.
  const ownIssuer = (role: AccountRole, userId: string) => (runsTheConsole(role) ? userId : null);
  const platformIssuer = (role: AccountRole) => (role === 'admin' ? PLATFORM_ISSUER : null);
  for (const [prefix, issuerOf] of [
    ['', ownIssuer],
    ['/platform', platformIssuer],
  ] as const) {
    routes.get(`${prefix}/month/:file`, async (c) => {
      const who = await exportIssuer(c, deps, issuerOf, /^(.+)\.csv$/);
      if (who instanceof Response) return who;
      c.header('Content-Type', 'text/csv; charset=utf-8');
      const name = prefix ? 'jalsa-platform-invoices' : 'jalsa-invoices';
      c.header('Content-Disposition', `attachment; filename="${name}-${who.month}.csv"`);
      return c.body(streamInvoicesCsv(deps.db, who.issuer, who.month));
    });

    routes.get(`${prefix}/gstr1/:file`, async (c) => {
      const who = await exportIssuer(c, deps, issuerOf, /^(.+)\.zip$/);
      if (who instanceof Response) return who;
      c.header('Content-Type', 'application/zip');
      const name = prefix ? 'jalsa-platform-gstr1' : 'jalsa-gstr1';
      c.header('Content-Disposition', `attachment; filename="${name}-${who.month}.zip"`);
      return c.body(new Uint8Array(await gstr1Zip(deps.db, who.issuer, who.month)));
    });
  }

  routes.get('/credit-notes/:file', async (c) => {
    const match = /^(.+)\.pdf$/.exec(c.req.param('file'));
    if (!match) return c.json({ error: { message: 'Not found' } }, 404);
    const userId = (await sessionUserOf(c, deps))?.id ?? null;
    // Throws the not-found DomainError, which app.onError answers with 404.
    const { invoice, creditNote } = await getCreditNoteForDownload(
      deps.db,
      match[1]!,
      userId,
      userId ? await getAccountRole(deps.db, userId) : 'none',
    );
    c.header('Cache-Control', 'private, no-store');
    c.header('Content-Type', 'application/pdf');
    const safe = creditNote.number.replace(/[^A-Za-z0-9_-]/g, '-');
    c.header('Content-Disposition', `attachment; filename="jalsa-credit-note-${safe}.pdf"`);
    // A credit note registered with the IRP (CRN) prints its own IRN and signed QR code.
    const eInvoice = await eCreditNoteStampOf(deps.db, creditNote.id);
    return c.body(
      new Uint8Array(await pdfWorkerOf(deps).renderInvoice(invoice, { ...creditNote, eInvoice })),
    );
  });

  routes.get('/:file', async (c) => {
    const match = /^(.+)\.pdf$/.exec(c.req.param('file'));
    if (!match) return c.json({ error: { message: 'Not found' } }, 404);
    const userId = (await sessionUserOf(c, deps))?.id ?? null;
    // Throws the not-found DomainError, which app.onError answers with 404.
    const invoice = await getInvoiceForDownload(
      deps.db,
      match[1]!,
      userId,
      userId ? await getAccountRole(deps.db, userId) : 'none',
    );
    c.header('Cache-Control', 'private, no-store');
    c.header('Content-Type', 'application/pdf');
    const safe = invoice.number.replace(/[^A-Za-z0-9_-]/g, '-');
    c.header('Content-Disposition', `attachment; filename="jalsa-invoice-${safe}.pdf"`);
    // A registered e-invoice prints its IRN and signed QR code (e-invoicing, issue 36).
    const eInvoice = await eInvoiceStampOf(deps.db, invoice.id);
    return c.body(new Uint8Array(await pdfWorkerOf(deps).renderInvoice({ ...invoice, eInvoice })));
  });
  return routes;
}

/**
 * The signed-in caller's issuer for a monthly export and the month in the file name, or the answer that
 * refuses: 401 signed out, 403 when the caller's role has no such export, 400 for a month not like 2026-04.
 */
async function exportIssuer(
  c: Context<AppEnv>,
  deps: AppDeps,
  issuerOf: (role: AccountRole, userId: string) => string | null,
  filePattern: RegExp,
): Promise<{ issuer: string; month: string } | Response> {
  const user = await sessionUserOf(c, deps);
  c.header('Cache-Control', 'private, no-store');
  if (!user) return c.json({ error: { message: 'User not authenticated' } }, 401);
  const issuer = issuerOf(await getAccountRole(deps.db, user.id), user.id);
  if (!issuer) return c.json({ error: { message: ORGANISER_MESSAGES.notAllowed } }, 403);
  const match = filePattern.exec(c.req.param('file') ?? '');
  const month = invoiceMonthSchema.safeParse({ month: match?.[1] ?? '' });
  if (!month.success) return c.json({ error: { message: 'Month must look like 2026-04' } }, 400);
  return { issuer, month: month.data.month };
}
