import { and, eq, not, sql } from 'drizzle-orm';
import { TRANSFER_MESSAGES } from '../../../shared/transfer-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict, forbidden } from '../../errors.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { findTransferSteps } from './find-transfer.ts';
import { transferAcceptedMail } from './transfer-mails.ts';
import { loadTransferableBookingSteps, transferRefusal } from './transfer-rules.ts';

/**
 * The recipient, signed in with the address the sender gave, accepts: in one write transaction the
 * booking moves to their account with the name (and mobile) the sender gave, its token generation goes
 * up, so the sender's QR is refused at the gate and the recipient's new one admits, and the sender is
 * told. The rules are asked again here: a check-in or a cancellation since the offer refuses it. Another
 * account gets a clear refusal and nothing changes; accepting twice answers the same booking.
 *
 * Written once for both engines (ADR 0045). On PostgreSQL the transfer is read and the rules asked under
 * the booking's lock (`bookingLockKey`), which a gate admission, a cancellation and a part refund of the
 * booking take too: two accepts, or an accept and a scan or a cancel, take turns, and the later one reads
 * what the first did.
 */
export async function acceptTransfer(
  db: DbOrTx,
  token: string,
  user: { id: string; email: string },
  now: Date,
): Promise<{ bookingId: string }> {
  // The link names the booking to lock; read again under the lock, as it may have changed since.
  const offered = await runnerFor(db).read((d) => findTransferSteps(d, token));
  return runnerFor(db).write(function* (tx) {
    const { bookings, bookingTransfers, users } = tablesOf(tx);
    yield* serialize(bookingLockKey(offered.bookingId));
    const transfer = yield* findTransferSteps(tx, token);
    if (transfer.status === 'accepted') {
      if (transfer.toUserId === user.id) return { bookingId: transfer.bookingId };
      throw conflict(TRANSFER_MESSAGES.linkUsed);
    }
    if (transfer.status === 'cancelled') throw conflict(TRANSFER_MESSAGES.linkCancelled);
    if (user.email.toLowerCase() !== transfer.toEmail)
      throw forbidden(TRANSFER_MESSAGES.otherEmail(transfer.toEmail));
    const booking = yield* loadTransferableBookingSteps(tx, transfer.bookingId);
    if (!booking) throw conflict(TRANSFER_MESSAGES.linkInvalid);
    const refusal = transferRefusal(booking, now);
    if (refusal) throw conflict(refusal);

    const at = now.toISOString();
    const profile = yield* row(tx.select({ phone: users.phone }).from(users).where(eq(users.id, user.id)));
    const moved = yield* changes(
      tx
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
            not(everAdmitted(bookings)),
            eq(bookings.transferCount, booking.transferCount),
          ),
        ),
    );
    if (moved !== 1) throw conflict(TRANSFER_MESSAGES.linkInvalid);
    yield* changes(
      tx
        .update(bookingTransfers)
        .set({ status: 'accepted', acceptedAt: at, toUserId: user.id })
        .where(eq(bookingTransfers.id, transfer.id)),
    );
    yield* recordBookingEventSteps(tx, {
      bookingId: booking.id,
      kind: 'transfer_accepted',
      actor: 'buyer',
      actorUserId: user.id,
      at: now,
      details: { fromName: transfer.fromName, toName: transfer.toName },
    });
    // The mailed link proves the address, as a team invitation's does.
    yield* changes(
      tx.update(users).set({ isEmailVerified: true, updatedAt: at }).where(eq(users.id, user.id)),
    );
    const senderAccount = yield* row(
      tx.select({ email: users.email }).from(users).where(eq(users.id, transfer.fromUserId)),
    );
    yield* enqueueMailSteps(
      tx as WriteTx,
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
