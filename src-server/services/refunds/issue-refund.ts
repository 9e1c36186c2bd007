import { and, eq, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema/bookings.ts';
import { events } from '../../db/schema/catalog.ts';
import { holds, paymentOrders, refunds } from '../../db/schema/payments.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { recordBookingEvent } from '../bookings/booking-history.ts';
import { payerOf } from '../bookings/payer.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { paymentGatewayOf } from '../payments/gateway-of.ts';
import { bookingRefundedMail, paymentRefundedMail } from './refund-mails.ts';

/**
 * How long one runner owns a refund while it talks to the gateway: another runner (the job in a second
 * process, the reconciler, a cancel racing the job) skips it until then. A runner that died mid-call
 * leaves the refund to whoever comes after the lease, who checks the payment first.
 */
export const REFUND_LEASE_MS = 120_000;
/** Wait after the n-th failed attempt: 30 s, 1 min, 2 min, … at most an hour. Retries never stop. */
export function refundBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}

/**
 * The one refund path: asks the gateway to refund a recorded refund, once. The refund is claimed with
 * a lease in one conditional UPDATE (two runners cannot both call the gateway for it); the gateway gets
 * the refund's id as idempotency key, and before any retry the payment is fetched, so a refund whose
 * answer was lost is never issued twice. Success marks it processed and queues the buyer's mail in the
 * same transaction; failure records the error and when to try again.
 */
export async function issueRefund(deps: AppDeps, refundId: string): Promise<void> {
  const now = deps.clock.now();
  const claimed = deps.db
    .update(refunds)
    .set({
      attempts: sql`${refunds.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + REFUND_LEASE_MS).toISOString(),
      updatedAt: now.toISOString(),
    })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending'), isDue(now)))
    .returning()
    .get();
  if (!claimed) return;
  await askGatewayOnce(deps, claimed, {
    refundedBefore: 0,
    notes: { reason: claimed.reason },
    processed: (gatewayRefundId) => markRefundProcessed(deps, eq(refunds.id, claimed.id), gatewayRefundId),
    failed: (message, retryAt, err) => {
      deps.logger.error({ err, refundId, paymentId: claimed.paymentId }, 'refund failed; it will be retried');
      deps.db
        .update(refunds)
        .set({ lastError: message, nextAttemptAt: retryAt, updatedAt: deps.clock.now().toISOString() })
        .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending')))
        .run();
    },
  });
}

/**
 * The gateway's side of a claimed refund, whole or part (partial-refunds/issue-refund-part.ts): after a
 * first attempt the payment is fetched, and when the gateway has already refunded `refundedBefore` plus
 * this amount the lost answer was a success and nothing is asked again; otherwise the gateway is asked
 * with the refund's idempotency key. `processed` records success; `failed` gets the error (at most 500
 * characters) and when to try again (the back-off after this attempt).
 */
export async function askGatewayOnce(
  deps: AppDeps,
  claimed: {
    id: string;
    paymentId: string;
    amountPaise: number;
    attempts: number;
    gatewayRefundId: string | null;
  },
  how: {
    refundedBefore: number;
    notes: Record<string, string>;
    processed: (gatewayRefundId: string | null) => Promise<unknown>;
    failed: (message: string, retryAt: string, err: unknown) => void;
  },
): Promise<void> {
  const gateway = paymentGatewayOf(deps);
  try {
    let gatewayRefundId: string | null = null;
    const payment = claimed.attempts > 1 ? await gateway.fetchPayment(claimed.paymentId) : null;
    if (!payment || payment.amountRefundedPaise < how.refundedBefore + claimed.amountPaise) {
      const issued = await gateway.refundPayment(claimed.paymentId, claimed.amountPaise, how.notes, {
        idempotencyKey: idempotencyKeyOf(claimed),
      });
      gatewayRefundId = issued.id;
    }
    await how.processed(gatewayRefundId);
  } catch (err) {
    const message = ((err as Error)?.message ?? String(err)).slice(0, 500);
    const retryAt = new Date(deps.clock.now().getTime() + refundBackoffMs(claimed.attempts)).toISOString();
    how.failed(message, retryAt, err);
  }
}

/**
 * The key the gateway deduplicates on: the refund's id, so retries after a lost answer never refund
 * twice. A refund the bank returned (refund.failed) must be issued anew, so after that the key also
 * names the returned refund.
 */
export function idempotencyKeyOf(refund: { id: string; gatewayRefundId: string | null }): string {
  return refund.gatewayRefundId
    ? `refund-${refund.id}-after-${refund.gatewayRefundId}`
    : `refund-${refund.id}`;
}

/** Refunds the gateway may be asked about now: pending, and past their lease or back-off. */
export function isDue(now: Date) {
  return or(isNull(refunds.nextAttemptAt), lte(refunds.nextAttemptAt, now.toISOString()));
}

/**
 * Marks a pending refund processed (the gateway accepted it: its answer, or its refund.processed
 * webhook) and queues the buyer's mail in the same transaction. Returns whether one was pending.
 */
export async function markRefundProcessed(
  deps: AppDeps,
  which: SQL | undefined,
  gatewayRefundId: string | null,
): Promise<boolean> {
  return writeTransaction(deps.db, (tx) => {
    const now = deps.clock.now();
    const done = tx
      .update(refunds)
      .set({
        status: 'processed',
        ...(gatewayRefundId ? { gatewayRefundId } : {}),
        lastError: null,
        nextAttemptAt: null,
        updatedAt: now.toISOString(),
      })
      .where(and(which, eq(refunds.status, 'pending')))
      .returning()
      .get();
    if (done) enqueueMail(tx, refundMail(deps, tx, done), now);
    if (done?.bookingId)
      recordBookingEvent(tx, {
        bookingId: done.bookingId,
        kind: 'refund_issued',
        actor: 'system',
        actorUserId: null,
        at: now,
        details: { amountPaise: done.amountPaise },
      });
    return done !== undefined;
  });
}

/** The buyer's mail for a finished refund: a cancelled booking's, or a payment that never became one. */
function refundMail(deps: AppDeps, tx: DbOrTx, refund: typeof refunds.$inferSelect) {
  const supportEmail = deps.env.SUPPORT_EMAIL;
  if (refund.bookingId) {
    const booking = tx
      .select({
        id: bookings.id,
        userName: bookings.userName,
        userEmail: bookings.userEmail,
        eventName: bookings.eventName,
        userId: bookings.userId,
        paidByUserId: bookings.paidByUserId,
      })
      .from(bookings)
      .where(eq(bookings.id, refund.bookingId))
      .get();
    if (booking) {
      // The money went back to whoever paid, so the mail goes to them too (ADR 0025).
      const payer = payerOf(tx, booking);
      return bookingRefundedMail({
        userName: payer ? (payer.name ?? '') : booking.userName,
        userEmail: payer ? payer.email : booking.userEmail,
        eventName: booking.eventName,
        bookingId: booking.id,
        paymentId: refund.paymentId,
        amountPaise: refund.amountPaise,
        supportEmail,
      });
    }
  }
  const hold = tx
    .select({ details: holds.details, eventName: events.name })
    .from(paymentOrders)
    .innerJoin(holds, eq(holds.id, paymentOrders.holdId))
    .innerJoin(events, eq(events.id, holds.eventId))
    .where(eq(paymentOrders.id, refund.orderId))
    .get();
  // Same idempotency key as the mail queued when the late payment was recorded: it is not sent twice.
  return paymentRefundedMail({
    paymentId: refund.paymentId,
    userName: hold?.details.name ?? '',
    userEmail: hold?.details.email ?? '',
    eventName: hold?.eventName ?? 'your event',
    amountPaise: refund.amountPaise,
    supportEmail,
    cancelled: refund.reason === 'slot_cancelled',
  });
}
