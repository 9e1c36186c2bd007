import { and, eq, inArray } from 'drizzle-orm';
import { formatDateTime } from '../../../shared/dates.ts';
import { describeRefundPolicy, type RefundPolicy, refundAmountPaise } from '../../../shared/refund-policy.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { row as rowOf, rows, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict, notFound } from '../../errors.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';
import { creditShareFor, WHOLE_CREDIT } from '../invoices/issue-credit-note.ts';
import { partRefundedPaiseSteps } from '../partial-refunds/refund-part-in.ts';
import { issueRefund } from '../refunds/issue-refund.ts';
import { bookingLockKey } from './booking-lock.ts';
import { cancelBookingSteps } from './cancel-booking-in.ts';
import { BOOKING_NOT_FOUND_MESSAGE } from './owner-bookings.ts';

/** Why a buyer cannot cancel, in the words My Bookings shows. */
export const CANCEL_REFUSALS = {
  alreadyCancelled: 'This booking is already cancelled.',
  notRefundable: 'This booking has tickets that are not refundable, so it cannot be cancelled.',
  checkedIn: 'Someone has already checked in with this booking, so it cannot be cancelled.',
  showCancelled: 'This show has been cancelled by the organiser; your refund is on its way.',
  transferred:
    'This ticket was transferred to you, so it cannot be cancelled here: a refund would go to the person who paid.',
  started: 'This show has already started, so the booking cannot be cancelled.',
  pastCutoff: (hours: number) =>
    `Cancellation closed ${hours} ${hours === 1 ? 'hour' : 'hours'} before the show, so this booking can no longer be cancelled.`,
} as const;

/** What the booking says about cancelling once its show moved to another date. */
const MOVED_POLICY_TEXT = (until: string) =>
  `The organiser moved this show to a new date. If you cannot make it, you may cancel for a full refund until ${formatDateTime(until)} (India time), even if your tickets were not refundable.`;

export type CancellationQuote =
  | {
      cancellable: true;
      refundAmountPaise: number;
      cutoffAt: string;
      /** The show moved to another date: a full refund whatever the policy (reschedule-slot.ts). */
      rescheduled: boolean;
      policy: RefundPolicy;
      policyText: string;
    }
  | { cancellable: false; reason: string; policy: RefundPolicy; policyText: string };

/**
 * What cancelling the caller's own booking would refund now, or why it cannot be cancelled: every ticket
 * type in it must be refundable, nobody ever admitted with it (an undone admission still counts), the slot
 * and event not cancelled, and now before the event's cut-off (refund_cutoff_hours before the slot starts).
 * When the organiser moved the show to another date, the holder who paid may cancel for a full refund until
 * the new start instead, refundable tickets or not (the refund an organiser's cancellation gives). Decided
 * here, never by the client.
 */
export function quoteOwnCancellation(
  db: DbOrTx,
  userId: string,
  bookingId: string,
  now: Date,
): Promise<CancellationQuote> {
  return runStatements(db, (d) => quoteOwnCancellationSteps(d, userId, bookingId, now));
}

/**
 * `quoteOwnCancellation` written once for both engines (ADR 0045): read on its own for the quote, and
 * again inside the write transaction that cancels (or cancels some tickets).
 */
export function* quoteOwnCancellationSteps(
  db: DbOrTx,
  userId: string,
  bookingId: string,
  now: Date,
): Steps<CancellationQuote> {
  const { bookings, events, slots } = tablesOf(db);
  const row = yield* rowOf(
    db
      .select({
        status: bookings.status,
        ticketSlot: bookings.ticketSlot,
        ticketTypes: bookings.ticketTypes,
        ticketType: bookings.ticketType,
        // Ever, not now: an undo at the gate lowers today's count, never what walked in (issue 35).
        used: everAdmitted(bookings),
        totalAmountPaise: bookings.totalAmountPaise,
        feeAmountPaise: bookings.feeAmountPaise,
        igstAmountPaise: bookings.igstAmountPaise,
        eventStatus: events.status,
        cutoffHours: events.refundCutoffHours,
        rule: events.refundRule,
        percent: events.refundPercent,
        slotCancelledAt: slots.cancelledAt,
        paidByUserId: bookings.paidByUserId,
        rescheduleRefundUntil: bookings.rescheduleRefundUntil,
      })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .leftJoin(slots, eq(slots.id, bookings.slotId))
      .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId))),
  );
  if (!row) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
  const policy: RefundPolicy = { cutoffHours: row.cutoffHours, rule: row.rule, percent: row.percent };
  const base = { policy, policyText: describeRefundPolicy(policy) };
  const refuse = (reason: string) => ({ ...base, cancellable: false as const, reason });

  if (row.status !== 'confirmed') return refuse(CANCEL_REFUSALS.alreadyCancelled);
  if (row.eventStatus === 'cancelled' || row.slotCancelledAt) return refuse(CANCEL_REFUSALS.showCancelled);
  // The refund goes back to the payment it came from: not the recipient's to ask for (ADR 0025).
  if (row.paidByUserId && row.paidByUserId !== userId) return refuse(CANCEL_REFUSALS.transferred);
  if (row.used) return refuse(CANCEL_REFUSALS.checkedIn);
  const start = Date.parse(row.ticketSlot);
  if (now.getTime() >= start) return refuse(CANCEL_REFUSALS.started);
  const movedUntil = row.rescheduleRefundUntil ? Date.parse(row.rescheduleRefundUntil) : 0;
  if (now.getTime() < Math.min(movedUntil, start)) {
    return {
      ...base,
      policyText: MOVED_POLICY_TEXT(new Date(movedUntil).toISOString()),
      cancellable: true,
      rescheduled: true,
      refundAmountPaise: Math.max(
        0,
        row.totalAmountPaise - (yield* partRefundedPaiseSteps(db, bookingId)).amount,
      ),
      cutoffAt: new Date(movedUntil).toISOString(),
    };
  }
  if (!(yield* allRefundable(db, row.ticketTypes, row.ticketType)))
    return refuse(CANCEL_REFUSALS.notRefundable);
  const cutoff = start - row.cutoffHours * 3_600_000;
  if (now.getTime() >= cutoff) return refuse(CANCEL_REFUSALS.pastCutoff(row.cutoffHours));
  return {
    ...base,
    cancellable: true,
    rescheduled: false,
    // Less what part refunds gave back already (ADR 0043).
    refundAmountPaise: Math.max(
      0,
      refundAmountPaise(policy, row) - (yield* partRefundedPaiseSteps(db, bookingId)).amount,
    ),
    cutoffAt: new Date(cutoff).toISOString(),
  };
}

/**
 * Every line's ticket type must be refundable. A type the organiser has since removed answers from the
 * snapshot kept on the booking when it is that one, and is not refundable otherwise.
 */
function* allRefundable(
  db: DbOrTx,
  lines: { id: string }[],
  snapshot: { id: string; isRefundable: boolean },
): Steps<boolean> {
  const ids = [...new Set(lines.map((l) => l.id))];
  if (ids.length === 0) return snapshot.isRefundable;
  const { ticketTypes } = tablesOf(db);
  const types = yield* rows(
    db
      .select({ id: ticketTypes.id, isRefundable: ticketTypes.isRefundable })
      .from(ticketTypes)
      .where(inArray(ticketTypes.id, ids)),
  );
  const known = new Map(types.map((r) => [r.id, r.isRefundable]));
  return ids.every((id) => known.get(id) ?? (id === snapshot.id && snapshot.isRefundable));
}

/**
 * The buyer cancels their own booking under the event's refund policy. The quote is decided again inside
 * the write transaction, so a cancel racing a check-in or the cut-off cannot pass. Cancelling twice
 * refunds once: the second call finds the booking cancelled and answers `cancelled: false`.
 */
export async function cancelOwnBooking(
  deps: AppDeps,
  userId: string,
  bookingId: string,
): Promise<{ cancelled: boolean; refundAmountPaise: number }> {
  const result = await runnerFor(deps.db).write(function* (tx) {
    const now = deps.clock.now();
    // On PostgreSQL the quote reads under the booking's lock, which a gate scan and a transfer's
    // acceptance also take: neither can slip in between the quote and the cancellation.
    yield* serialize(bookingLockKey(bookingId));
    const quote = yield* quoteOwnCancellationSteps(tx, userId, bookingId, now);
    if (!quote.cancellable) {
      if (quote.reason === CANCEL_REFUSALS.alreadyCancelled) return null;
      throw conflict(quote.reason);
    }
    // The quote was read in this same transaction: its amount is the booking's under the policy.
    return yield* cancelBookingSteps(tx as WriteTx, deps, bookingId, 'buyer', now, {
      partial: {
        refundAmountPaise: quote.refundAmountPaise,
        credit: quote.rescheduled ? WHOLE_CREDIT : creditShareFor(quote.policy),
      },
      actorUserId: userId,
    });
  });
  if (!result) return { cancelled: false, refundAmountPaise: 0 };
  if (result.refundId) await issueRefund(deps, result.refundId);
  return { cancelled: true, refundAmountPaise: result.amountPaise };
}
