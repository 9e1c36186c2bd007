import { and, asc, eq, notExists } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { issueAdmissionInvoiceSteps } from './issue-booking-invoices.ts';
import type { PlatformGst } from './platform-gst.ts';

/**
 * Issues what an organiser is owed once their invoice details are complete (issue 35): an admission
 * invoice for each of their confirmed bookings that has none (sold while the profile was empty or carried
 * over without an address), oldest booking first, through the one issuing path, so the numbers continue
 * the organiser's series with no gap. Runs inside the profile save's write transaction; a second run finds
 * every booking invoiced and issues nothing. The buyer's GSTIN, if they gave one at checkout, is read from
 * the hold the booking was paid for. Returns the new invoices' ids.
 */
export function* issueOwedInvoicesSteps(
  tx: DbOrTx,
  platform: PlatformGst | null,
  organiserId: string,
  now: Date,
): Steps<string[]> {
  const { bookings, events, invoices, holds, paymentOrders } = tablesOf(tx);
  // Two runs for one organiser never overlap: the profile's UPSERT before this holds its row until the
  // transaction ends, so on PostgreSQL a second save waits, then (READ COMMITTED) finds them invoiced.
  const owed = yield* rows(
    tx
      .select({ id: bookings.id, details: holds.details })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .leftJoin(paymentOrders, eq(paymentOrders.id, bookings.orderId))
      .leftJoin(holds, eq(holds.id, paymentOrders.holdId))
      .where(
        and(
          eq(events.ownerId, organiserId),
          eq(bookings.status, 'confirmed'),
          notExists(
            tx
              .select({ id: invoices.id })
              .from(invoices)
              .where(and(eq(invoices.bookingId, bookings.id), eq(invoices.kind, 'admission'))),
          ),
        ),
      )
      .orderBy(asc(bookings.createdAt), asc(bookings.id)),
  );
  const ids: string[] = [];
  for (const booking of owed) {
    const id = yield* issueAdmissionInvoiceSteps(tx, platform, booking.id, booking.details ?? {}, now);
    if (id) ids.push(id);
  }
  return ids;
}
