import { eq } from 'drizzle-orm';
import type { CancelSomeTicketsInput } from '../../../shared/partial-refund-schemas.ts';
import type { RefundPolicy } from '../../../shared/refund-policy.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { row, rows, runSync, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, conflict } from '../../errors.ts';
import { addOnsPaiseOfBookingSteps } from '../add-ons/add-on-stock.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { quoteOwnCancellationSteps } from '../bookings/buyer-cancellation.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { issueRefundPart } from './issue-refund-part.ts';
import { PART_REFUND_REFUSALS, refundPartSteps } from './refund-part-in.ts';

/** The reason a buyer's own part cancellation carries (order history, credit note). */
export const BUYER_PART_REASON = 'Tickets cancelled by the buyer under the event’s refund policy';

/**
 * The buyer cancels some tickets of their own booking (one of two) where the event's refund policy lets
 * them cancel it at all (issue 36 item 12): the same checks as cancelling the whole booking, decided
 * again inside the write transaction, and the policy's refund for those tickets only: their share of
 * the booking by ticket value (price after any discount), the fee's share kept under 'minus_fee', and
 * the policy's percentage of both under 'percent'. Credited and mailed like the organiser's part refund.
 */
export async function cancelSomeTickets(
  deps: AppDeps,
  userId: string,
  input: CancelSomeTicketsInput,
): Promise<{ refundAmountPaise: number }> {
  // Written once for both engines (ADR 0045): the quote is read under the booking's key (the one its
  // gate admission, transfer and other refunds take), so it is the booking as the refund finds it.
  const now = deps.clock.now();
  const result = await runnerFor(deps.db).write(function* (tx) {
    yield* serialize(bookingLockKey(input.bookingId));
    const quote = yield* quoteOwnCancellationSteps(tx, userId, input.bookingId, now);
    if (!quote.cancellable) throw conflict(quote.reason);
    const refund = yield* policyRefundForSteps(tx, input, quote.rescheduled ? FULL : quote.policy);
    return yield* refundPartSteps(
      tx as WriteTx,
      deps,
      input.bookingId,
      {
        kind: 'buyer',
        amountPaise: refund.amountPaise,
        feePaise: refund.feePaise,
        reason: BUYER_PART_REASON,
        cancelTickets: input.tickets,
        actorUserId: userId,
      },
      now,
    );
  });
  if (result.amountPaise > 0) await issueRefundPart(deps, result.refundPartId);
  return { refundAmountPaise: result.amountPaise };
}

const FULL: RefundPolicy = { rule: 'full', percent: null, cutoffHours: 0 };

/**
 * The policy's refund for the chosen tickets. Their share is their value over the booking's value as
 * bought (the tickets it has now plus those earlier parts cancelled), so cancelling one ticket and then
 * another refunds each the same.
 */
export function policyRefundFor(
  tx: DbOrTx,
  input: CancelSomeTicketsInput,
  policy: RefundPolicy,
): { amountPaise: number; feePaise: number } {
  return runSync(policyRefundForSteps(tx, input, policy));
}

/** `policyRefundFor` written once for both engines (ADR 0045). */
export function* policyRefundForSteps(
  tx: DbOrTx,
  input: CancelSomeTicketsInput,
  policy: RefundPolicy,
): Steps<{ amountPaise: number; feePaise: number }> {
  const { bookings, refundParts } = tablesOf(tx);
  const booking = yield* row(tx.select().from(bookings).where(eq(bookings.id, input.bookingId)));
  if (!booking) throw conflict(PART_REFUND_REFUSALS.cancelled);
  const unit = new Map(
    booking.ticketTypes.map((l) => [l.id, l.pricePaise - (l.discountPerTicketPaise ?? 0)]),
  );
  let chosen = 0;
  for (const t of input.tickets) {
    const price = unit.get(t.ticketTypeId);
    if (price === undefined) throw badRequest(PART_REFUND_REFUSALS.unknownTicket);
    chosen += price * t.quantity;
  }
  let bought = booking.ticketTypes.reduce((n, l) => n + (unit.get(l.id) ?? 0) * l.quantity, 0);
  const earlier = yield* rows(
    tx
      .select({ lines: refundParts.cancelledTickets })
      .from(refundParts)
      .where(eq(refundParts.bookingId, booking.id)),
  );
  for (const part of earlier) for (const l of part.lines) bought += l.unitPaise * l.quantity;
  if (bought <= 0) return { amountPaise: 0, feePaise: 0 };
  const fees = booking.feeAmountPaise + booking.igstAmountPaise;
  // Add-ons (ADR 0041) are not tickets: cancelling some tickets leaves them bought.
  const tickets = booking.totalAmountPaise - fees - (yield* addOnsPaiseOfBookingSteps(tx, booking.id));
  const ticketShare = Math.floor((tickets * chosen) / bought);
  const feeShare = policy.rule === 'minus_fee' ? 0 : Math.floor((fees * chosen) / bought);
  const percent = policy.rule === 'percent' ? (policy.percent ?? 100) : 100;
  const admission = Math.floor((ticketShare * percent) / 100);
  const fee = Math.floor((feeShare * percent) / 100);
  return { amountPaise: admission + fee, feePaise: fee };
}
