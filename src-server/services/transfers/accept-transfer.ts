import { and, eq, not, sql } from 'drizzle-orm';
import { TRANSFER_MESSAGES } from '../../../shared/transfer-schemas.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { bookingTransfers } from '../../db/schema/transfers.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { conflict, forbidden } from '../../errors.ts';
import { recordBookingEvent } from '../bookings/booking-history.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { findTransfer } from './find-transfer.ts';
import { transferAcceptedMail } from './transfer-mails.ts';
import { loadTransferableBooking, transferRefusal } from './transfer-rules.ts';

/**
 * The recipient, signed in with the address the sender gave, accepts: in one write transaction the
 * booking moves to their account with the name (and mobile) the sender gave, its token generation goes
 * up, so the sender's QR is refused at the gate and the recipient's new one admits, and the sender is
 * told. The rules are asked again here: a check-in or a cancellation since the offer refuses it. Another
 * account gets a clear refusal and nothing changes; accepting twice answers the same booking.
 */
export function acceptTransfer(
  db: Db,
  token: string,
  user: { id: string; email: string },
  now: Date,
): Promise<{ bookingId: string }> {
  return writeTransaction(db, (tx) => {
    const transfer = findTransfer(tx, token);
    if (transfer.status === 'accepted') {
      if (transfer.toUserId === user.id) return { bookingId: transfer.bookingId };
      throw conflict(TRANSFER_MESSAGES.linkUsed);
    }
    if (transfer.status === 'cancelled') throw conflict(TRANSFER_MESSAGES.linkCancelled);
    if (user.email.toLowerCase() !== transfer.toEmail)
      throw forbidden(TRANSFER_MESSAGES.otherEmail(transfer.toEmail));
    const booking = loadTransferableBooking(tx, transfer.bookingId);
    if (!booking) throw conflict(TRANSFER_MESSAGES.linkInvalid);
    const refusal = transferRefusal(booking, now);
    if (refusal) throw conflict(refusal);

    const at = now.toISOString();
    const profile = tx.select({ phone: users.phone }).from(users).where(eq(users.id, user.id)).get();
    const moved = tx
      .update(bookings)
      .set({
        userId: user.id,
        userName: transfer.toName,
        userEmail: transfer.toEmail,
        userPhone: transfer.toPhone || profile?.phone || '',
        transferCount: sql`${bookings.transferCount} + 1`,
        paidByUserId: booking.paidByUserId ?? booking.userId,
      })
      .where(
        and(
          eq(bookings.id, booking.id),
          eq(bookings.userId, transfer.fromUserId),
          eq(bookings.status, 'confirmed'),
          not(everAdmitted()),
          eq(bookings.transferCount, booking.transferCount),
        ),
      )
      .run().changes;
    if (moved !== 1) throw conflict(TRANSFER_MESSAGES.linkInvalid);
    tx.update(bookingTransfers)
      .set({ status: 'accepted', acceptedAt: at, toUserId: user.id })
      .where(eq(bookingTransfers.id, transfer.id))
      .run();
    recordBookingEvent(tx, {
      bookingId: booking.id,
      kind: 'transfer_accepted',
      actor: 'buyer',
      actorUserId: user.id,
      at: now,
      details: { fromName: transfer.fromName, toName: transfer.toName },
    });
    // The mailed link proves the address, as a team invitation's does.
    tx.update(users).set({ isEmailVerified: true, updatedAt: at }).where(eq(users.id, user.id)).run();
    const senderAccount = tx
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, transfer.fromUserId))
      .get();
    enqueueMail(
      tx,
      transferAcceptedMail({
        transferId: transfer.id,
        to: senderAccount?.email ?? booking.userEmail,
        fromName: transfer.fromName,
        toName: transfer.toName,
        eventName: booking.eventName,
        bookingId: booking.id,
      }),
      now,
    );
    return { bookingId: booking.id };
  });
}
