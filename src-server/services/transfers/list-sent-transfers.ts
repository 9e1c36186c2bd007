import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { bookingTransfers } from '../../db/schema/transfers.ts';

/**
 * The sender's side of My Bookings: bookings they gave away, shown as "Transferred". Only what the
 * sender already knew (the show, and the name and address they typed), never the recipient's account.
 */
export function listSentTransfers(db: Db, userId: string) {
  return db
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
    .orderBy(desc(bookingTransfers.acceptedAt))
    .all()
    .map(({ paidByUserId, ...row }) => ({
      ...row,
      /** The sender paid: the GST invoice stays with them (ADR 0025). */
      paidBySender: paidByUserId === userId,
    }));
}
