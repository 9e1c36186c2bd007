import { and, eq } from 'drizzle-orm';
import type { RefundPartValues } from '../../../shared/partial-refund-schemas.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { EVENT_BOOKING_NOT_FOUND } from '../bookings/cancel-booking.ts';
import { issueRefundPart } from './issue-refund-part.ts';
import { refundPartSteps } from './refund-part-in.ts';

/**
 * The organiser's "Refund part" of one booking of their event (issue 40): an amount (or everything but
 * the fee), a reason, and optionally some tickets to cancel. Recorded, credited and mailed in one write
 * transaction (refund-part-in.ts); the gateway is asked after commit, and the refund job retries it if
 * that fails. A booking of another event answers NOT_FOUND, like one that does not exist.
 */
export async function refundBookingPart(
  deps: AppDeps,
  eventId: string,
  input: Omit<RefundPartValues, 'eventId'>,
  actorUserId: string,
): Promise<{ refundPartId: string; amountPaise: number }> {
  // Written once for both engines (ADR 0045); refundPartSteps serialises on the booking.
  const result = await runnerFor(deps.db).write(function* (tx) {
    const { bookings } = tablesOf(tx);
    const booking = yield* row(
      tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.id, input.bookingId), eq(bookings.eventId, eventId))),
    );
    if (!booking) throw notFound(EVENT_BOOKING_NOT_FOUND);
    return yield* refundPartSteps(
      tx as WriteTx,
      deps,
      booking.id,
      {
        kind: 'organiser',
        amountPaise: input.allButFee ? null : (input.amountPaise ?? null),
        reason: input.reason,
        cancelTickets: input.cancelTickets,
        actorUserId,
      },
      deps.clock.now(),
    );
  });
  await issueRefundPart(deps, result.refundPartId);
  return { refundPartId: result.refundPartId, amountPaise: result.amountPaise };
}
