import { and, eq } from 'drizzle-orm';
import { changes, row, runSync, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { returnBookingAddOnsSteps } from '../add-ons/add-on-stock.ts';
import { isBoxOfficeBookingSteps } from '../box-office/sales-channels.ts';
import { returnDiscountUseSteps } from '../discounts/discount-uses.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';
import { type DbOrTx, returnSeatsSteps } from '../inventory/holds.ts';
import { type CreditShare, issueCreditNotesSteps } from '../invoices/issue-credit-note.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { partRefundedPaiseSteps } from '../partial-refunds/refund-part-in.ts';
import { queueRefundSteps } from '../refunds/queue-refund.ts';
import { offerReturnedSeatsSteps } from '../waitlist/offer-returned-seats.ts';
import { bookingCancelledMail, type CancelReason } from './booking-change-mails.ts';
import { recordBookingEventSteps } from './booking-history.ts';
import { bookingLockKey } from './booking-lock.ts';
import { payerOfSteps } from './payer.ts';

/**
 * Cancels one confirmed booking inside the caller's write transaction: the booking turns 'cancelled'
 * (only from 'confirmed', so two cancels cannot both pass), its seats go back to `available` (keeping
 * available + active holds + confirmed tickets = total) unless people were ever admitted with it (then
 * `seats_kept`: they stay sold, or a capacity of 2 would let 3 in), a refund (full, or what the buyer's policy
 * allows when they cancel themselves) is queued on the one refund path
 * (unique per payment) and the buyer's mail is queued. Returns the refund's id, or null when the booking
 * was not confirmed (already cancelled).
 */
export function cancelBookingIn(
  tx: DbOrTx,
  deps: Pick<AppDeps, 'env'>,
  bookingId: string,
  reason: CancelReason,
  now: Date,
  /**
   * The buyer's own cancellation refunds what the event's policy allows (its quote) and credits the
   * invoices by the same share; otherwise the whole total is refunded and credited.
   */
  partial?: { refundAmountPaise: number; credit: CreditShare },
  /** Who cancelled it: the organiser's or buyer's account; null for a slot's or event's cancellation run. */
  actorUserId: string | null = null,
): { refundId: string | null; amountPaise: number } | null {
  return runSync(cancelBookingSteps(tx as WriteTx, deps, bookingId, reason, now, { partial, actorUserId }));
}

/**
 * `cancelBookingIn` written once for both engines (ADR 0045). On PostgreSQL the conditional UPDATE of
 * the booking takes its row lock first, so a second cancel (or a part refund, which serialises on the
 * same booking) waits and then finds it cancelled; seats, quotas and add-ons go back in id order.
 */
export function* cancelBookingSteps(
  tx: WriteTx,
  deps: Pick<AppDeps, 'env'>,
  bookingId: string,
  reason: CancelReason,
  now: Date,
  options: {
    partial?: { refundAmountPaise: number; credit: CreditShare };
    actorUserId?: string | null;
  } = {},
): Steps<{ refundId: string | null; amountPaise: number } | null> {
  const { bookings, bookingTransfers, paymentOrders } = tablesOf(tx);
  const { partial, actorUserId = null } = options;
  // A part refund of this booking reads what is left and then writes: it and this wait for each other.
  yield* serialize(bookingLockKey(bookingId));
  const booking = yield* row(
    tx
      .update(bookings)
      .set({
        status: 'cancelled',
        cancelledAt: now.toISOString(),
        cancelReason: reason,
        // Read before this row changes: seats someone walked in on are never sold again (issue 35).
        seatsKept: everAdmitted(bookings),
      })
      .where(and(eq(bookings.id, bookingId), eq(bookings.status, 'confirmed')))
      .returning(),
  );
  if (!booking) return null;
  // An offer to transfer it is void now: its link says so rather than offering a cancelled booking.
  yield* changes(
    tx
      .update(bookingTransfers)
      .set({ status: 'cancelled', cancelledAt: now.toISOString() })
      .where(and(eq(bookingTransfers.bookingId, booking.id), eq(bookingTransfers.status, 'pending'))),
  );
  const returned = booking.seatsKept
    ? []
    : booking.ticketTypes.map((line) => ({ ticketTypeId: line.id, quantity: line.quantity }));
  // Seats back to `available`, keeping available + active holds + confirmed tickets = total.
  yield* returnSeatsSteps(tx, returned);
  // The waiting list gets them before anyone's Proceed can (ADR 0027).
  // On PostgreSQL the rows just given back stay locked: two returns offer one after the other.
  for (const line of returned) yield* offerReturnedSeatsSteps(tx, deps, line.ticketTypeId, now);
  // Its add-ons not yet handed over go back on sale (ADR 0041).
  yield* returnBookingAddOnsSteps(tx, booking.id, now);
  // The whole booking is off: its discount code's use goes back for someone else (issue 40).
  const paid = yield* row(
    tx
      .select({ holdId: paymentOrders.holdId })
      .from(paymentOrders)
      .where(eq(paymentOrders.id, booking.orderId)),
  );
  if (paid && booking.discountCode !== null) yield* returnDiscountUseSteps(tx, paid.holdId, now);
  // What part refunds gave back already is not refunded again (ADR 0043); the buyer's quote is net of them.
  const amountPaise =
    partial?.refundAmountPaise ??
    Math.max(0, booking.totalAmountPaise - (yield* partRefundedPaiseSteps(tx, booking.id)).amount);
  // A box-office booking took nothing through the gateway (ADR 0042): no gateway refund to queue.
  const refundId = (yield* isBoxOfficeBookingSteps(tx, booking.id))
    ? null
    : yield* queueRefundSteps(
        tx,
        {
          paymentId: booking.paymentId,
          orderId: booking.orderId,
          // The money goes back to whoever paid, also after a transfer (ADR 0025).
          userId: booking.paidByUserId ?? booking.userId,
          amountPaise,
          reason:
            reason === 'organiser' ? 'booking_cancelled' : reason === 'buyer' ? 'buyer_cancelled' : reason,
          bookingId: booking.id,
        },
        now,
      );
  yield* recordBookingEventSteps(tx, {
    bookingId: booking.id,
    kind: 'cancelled',
    actor: reason === 'organiser' ? 'organiser' : reason === 'buyer' ? 'buyer' : 'system',
    actorUserId,
    at: now,
    details: { reason, refundPaise: refundId ? amountPaise : 0 },
  });
  // GST: the booking's invoices are cancelled by credit notes referring to them, for what was given back
  // (ADR 0024).
  yield* issueCreditNotesSteps(tx, booking.id, reason, now, partial?.credit);
  const facts = {
    bookingId: booking.id,
    eventName: booking.eventName,
    slotStart: booking.ticketSlot,
    amountPaise,
    reason,
    supportEmail: deps.env.SUPPORT_EMAIL,
  };
  const payer = yield* payerOfSteps(tx, booking);
  if (payer) {
    // Given away (ADR 0025): the payer hears about their money, the holder that the ticket is void.
    yield* enqueueMailSteps(
      tx,
      bookingCancelledMail({ ...facts, userName: payer.name ?? '', userEmail: payer.email }),
      now,
    );
    yield* enqueueMailSteps(
      tx,
      bookingCancelledMail({
        ...facts,
        userName: booking.userName,
        userEmail: booking.userEmail,
        recipient: 'holder',
      }),
      now,
    );
  } else {
    yield* enqueueMailSteps(
      tx,
      bookingCancelledMail({ ...facts, userName: booking.userName, userEmail: booking.userEmail }),
      now,
    );
  }
  return { refundId, amountPaise };
}
