import { randomUUID } from 'node:crypto';
import { changes, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { DbOrTx } from '../inventory/holds.ts';

export interface RefundRequest {
  paymentId: string;
  orderId: string;
  userId: string;
  amountPaise: number;
  /** Why the money goes back: 'seats_unavailable', 'duplicate_payment', 'amount_mismatch', 'slot_cancelled', 'booking_cancelled', 'buyer_cancelled'. */
  reason: string;
  /** The cancelled booking, when it is one. */
  bookingId?: string;
}

/**
 * Records that a payment is to be refunded, inside the caller's transaction (the cancellation or the
 * settlement that decided it). `refunds.payment_id` is unique, so asking twice for the same payment,
 * from any path and any process, records one refund: the second call returns null. The gateway is
 * called after commit by the refund job (issue-refund.ts).
 */
export function queueRefund(tx: DbOrTx, request: RefundRequest, now: Date): string | null {
  return runSync(queueRefundSteps(tx as WriteTx, request, now));
}

/**
 * `queueRefund` written once for both engines (ADR 0045). On PostgreSQL the unique index decides too:
 * a second transaction inserting for the same payment waits for the first and then inserts nothing.
 */
export function* queueRefundSteps(tx: WriteTx, request: RefundRequest, now: Date): Steps<string | null> {
  const { refunds } = tablesOf(tx);
  // Nothing left to send (part refunds gave it all back, ADR 0043): the gateway is never asked for 0.
  if (request.amountPaise <= 0) return null;
  const at = now.toISOString();
  const id = randomUUID();
  const inserted = yield* changes(
    tx
      .insert(refunds)
      .values({
        id,
        paymentId: request.paymentId,
        orderId: request.orderId,
        userId: request.userId,
        amountPaise: request.amountPaise,
        reason: request.reason,
        bookingId: request.bookingId ?? null,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing({ target: refunds.paymentId }),
  );
  return inserted === 1 ? id : null;
}
