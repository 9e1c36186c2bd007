import { and, eq, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema/bookings.ts';
import { ticketTypes } from '../../db/schema/catalog.ts';
import { paymentOrders } from '../../db/schema/payments.ts';
import { bookingTransfers } from '../../db/schema/transfers.ts';
import type { AppDeps } from '../../deps.ts';
import { returnBookingAddOnsIn } from '../add-ons/add-on-stock.ts';
import { isBoxOfficeBooking } from '../box-office/sales-channels.ts';
import { returnDiscountUseIn } from '../discounts/discount-uses.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { type CreditShare, issueCreditNotes } from '../invoices/issue-credit-note.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { partRefundedPaise } from '../partial-refunds/refund-part-in.ts';
import { returnQuotaSeatsIn } from '../quotas/quota-seats.ts';
import { queueRefund } from '../refunds/queue-refund.ts';
import { offerReturnedSeats } from '../waitlist/offer-returned-seats.ts';
import { bookingCancelledMail, type CancelReason } from './booking-change-mails.ts';
import { recordBookingEvent } from './booking-history.ts';
import { payerOf } from './payer.ts';

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
  const booking = tx
    .update(bookings)
    .set({
      status: 'cancelled',
      cancelledAt: now.toISOString(),
      cancelReason: reason,
      // Read before this row changes: seats someone walked in on are never sold again (issue 35).
      seatsKept: everAdmitted(),
    })
    .where(and(eq(bookings.id, bookingId), eq(bookings.status, 'confirmed')))
    .returning()
    .get();
  if (!booking) return null;
  // An offer to transfer it is void now: its link says so rather than offering a cancelled booking.
  tx.update(bookingTransfers)
    .set({ status: 'cancelled', cancelledAt: now.toISOString() })
    .where(and(eq(bookingTransfers.bookingId, booking.id), eq(bookingTransfers.status, 'pending')))
    .run();
  for (const line of booking.seatsKept ? [] : booking.ticketTypes) {
    tx.update(ticketTypes)
      .set({ availableTickets: sql`${ticketTypes.availableTickets} + ${line.quantity}` })
      .where(eq(ticketTypes.id, line.id))
      .run();
    returnQuotaSeatsIn(tx, [{ ticketTypeId: line.id, quantity: line.quantity }]);
    // The waiting list gets them before anyone's Proceed can (ADR 0027).
    offerReturnedSeats(tx, deps, line.id, now);
  }
  // Its add-ons not yet handed over go back on sale (ADR 0041).
  returnBookingAddOnsIn(tx, booking.id, now);
  // The whole booking is off: its discount code's use goes back for someone else (issue 40).
  const paid = tx
    .select({ holdId: paymentOrders.holdId })
    .from(paymentOrders)
    .where(eq(paymentOrders.id, booking.orderId))
    .get();
  if (paid && booking.discountCode !== null) returnDiscountUseIn(tx, paid.holdId, now);
  // What part refunds gave back already is not refunded again (ADR 0043); the buyer's quote is net of them.
  const amountPaise =
    partial?.refundAmountPaise ??
    Math.max(0, booking.totalAmountPaise - partRefundedPaise(tx, booking.id).amount);
  // A box-office booking took nothing through the gateway (ADR 0042): no gateway refund to queue.
  const refundId = isBoxOfficeBooking(tx, booking.id)
    ? null
    : queueRefund(
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
  recordBookingEvent(tx, {
    bookingId: booking.id,
    kind: 'cancelled',
    actor: reason === 'organiser' ? 'organiser' : reason === 'buyer' ? 'buyer' : 'system',
    actorUserId,
    at: now,
    details: { reason, refundPaise: refundId ? amountPaise : 0 },
  });
  // GST: the booking's invoices are cancelled by credit notes referring to them, for what was given back
  // (ADR 0024).
  issueCreditNotes(tx, booking.id, reason, now, partial?.credit);
  const facts = {
    bookingId: booking.id,
    eventName: booking.eventName,
    slotStart: booking.ticketSlot,
    amountPaise,
    reason,
    supportEmail: deps.env.SUPPORT_EMAIL,
  };
  const payer = payerOf(tx, booking);
  if (payer) {
    // Given away (ADR 0025): the payer hears about their money, the holder that the ticket is void.
    enqueueMail(
      tx,
      bookingCancelledMail({ ...facts, userName: payer.name ?? '', userEmail: payer.email }),
      now,
    );
    enqueueMail(
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
    enqueueMail(
      tx,
      bookingCancelledMail({ ...facts, userName: booking.userName, userEmail: booking.userEmail }),
      now,
    );
  }
  return { refundId, amountPaise };
}
