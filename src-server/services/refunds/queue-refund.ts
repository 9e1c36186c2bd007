import { randomUUID } from 'node:crypto';
import { refunds } from '../../db/schema/payments.ts';
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
  // Nothing left to send (part refunds gave it all back, ADR 0043): the gateway is never asked for 0.
  if (request.amountPaise <= 0) return null;
  const at = now.toISOString();
  const id = randomUUID();
  const inserted = tx
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
    .onConflictDoNothing({ target: refunds.paymentId })
    .run();
  return inserted.changes === 1 ? id : null;
}
