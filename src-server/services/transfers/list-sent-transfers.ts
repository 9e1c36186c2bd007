import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/**
 * The sender's side of My Bookings: bookings they gave away, shown as "Transferred". Only what the
 * sender already knew (the show, and the name and address they typed), never the recipient's account.
 * On either engine (ADR 0045).
 */
export function listSentTransfers(db: DbOrTx, userId: string) {
  return runStatements(db, function* (d) {
    const { bookings, bookingTransfers } = tablesOf(d);
    const sent = yield* rows(
      d
        .select({
          transferId: bookingTransfers.id,
          bookingId: bookingTransfers.bookingId,
          toName: bookingTransfers.toName,
          toEmail: bookingTransfers.toEmail,
          acceptedAt: bookingTransfers.acceptedAt,
          eventName: bookings.eventName,
          eventLocation: bookings.eventLocation,
          ticketSlot: bookings.ticketSlot,
          ticketSlotEnd: bookings.ticketSlotEnd,
          ticketCount: bookings.ticketCount,
          totalAmountPaise: bookings.totalAmountPaise,
          paidByUserId: bookings.paidByUserId,
        })
        .from(bookingTransfers)
        .innerJoin(bookings, eq(bookings.id, bookingTransfers.bookingId))
        .where(and(eq(bookingTransfers.fromUserId, userId), eq(bookingTransfers.status, 'accepted')))
        .orderBy(desc(bookingTransfers.acceptedAt)),
    );
    return sent.map(({ paidByUserId, ...row }) => ({
      ...row,
      /** The sender paid: the GST invoice stays with them (ADR 0025). */
      paidBySender: paidByUserId === userId,
    }));
  });
}
