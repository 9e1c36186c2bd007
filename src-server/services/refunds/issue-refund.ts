import { and, eq, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { refunds } from '../../db/schema/payments.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { payerOfSteps } from '../bookings/payer.ts';
import { enqueueMailSteps, type OutgoingMail } from '../mail/outbox.ts';
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
  // One statement on its own (SQLite runs it as its own transaction): the claim commits before the
  // gateway is called, as on PostgreSQL, where no transaction is ever open across a network call.
  // On either engine (ADR 0045): a buyer's cancellation issues its refund right away on PostgreSQL too.
  const claimed = await runStatements(deps.db, (db) => claimRefundSteps(db, refundId, deps.clock.now()));
  if (!claimed) return;
  await askGatewayOnce(deps, claimed, {
    refundedBefore: 0,
    notes: { reason: claimed.reason },
    processed: (gatewayRefundId) =>
      runnerFor(deps.db).write((tx) =>
        markRefundProcessedSteps(
          tx as WriteTx,
          deps,
          (table) => eq(table.id, claimed.id),
          gatewayRefundId,
          deps.clock.now(),
        ),
      ),
    failed: (message, retryAt, err) => {
      deps.logger.error({ err, refundId, paymentId: claimed.paymentId }, 'refund failed; it will be retried');
      return runStatements(deps.db, (db) =>
        recordRefundFailureSteps(db, refundId, message, retryAt, deps.clock.now()),
      );
    },
  });
}

/**
 * The claim, written once for both engines (ADR 0045): one conditional UPDATE … RETURNING takes the
 * lease. On PostgreSQL a second runner's UPDATE waits for the first one's row lock and then finds the
 * refund no longer due (its lease is in the future), so it gets nothing: one runner calls the gateway.
 */
export function* claimRefundSteps(
  tx: DbOrTx,
  refundId: string,
  now: Date,
): Steps<typeof refunds.$inferSelect | undefined> {
  const { refunds } = tablesOf(tx);
  return yield* row(
    tx
      .update(refunds)
      .set({
        attempts: sql`${refunds.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + REFUND_LEASE_MS).toISOString(),
        updatedAt: now.toISOString(),
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending'), isDue(now, refunds)))
      .returning(),
  );
}

/** A failed gateway call, recorded after it (never inside a transaction around it): the error and the next try. */
export function* recordRefundFailureSteps(
  tx: DbOrTx,
  refundId: string,
  message: string,
  retryAt: string,
  now: Date,
): Steps<void> {
  const { refunds } = tablesOf(tx);
  yield* changes(
    tx
      .update(refunds)
      .set({ lastError: message, nextAttemptAt: retryAt, updatedAt: now.toISOString() })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending'))),
  );
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
    /** Records the failure; its promise is awaited, so the record is written on either engine before this returns. */
    failed: (message: string, retryAt: string, err: unknown) => Promise<unknown>;
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
    await how.failed(message, retryAt, err);
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
export function isDue(now: Date, table: Pick<typeof refunds, 'nextAttemptAt'> = refunds) {
  return or(isNull(table.nextAttemptAt), lte(table.nextAttemptAt, now.toISOString()));
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
  return runnerFor(deps.db).write((tx) =>
    markRefundProcessedSteps(tx as WriteTx, deps, () => which, gatewayRefundId, deps.clock.now()),
  );
}

/**
 * `markRefundProcessed` written once for both engines (ADR 0045). `which` picks the refund by the
 * engine's own table (its id, or its payment's id for a webhook).
 */
export function* markRefundProcessedSteps(
  tx: WriteTx,
  deps: Pick<AppDeps, 'env'>,
  which: (table: typeof refunds) => SQL | undefined,
  gatewayRefundId: string | null,
  now: Date,
): Steps<boolean> {
  const { refunds } = tablesOf(tx);
  const done = yield* row(
    tx
      .update(refunds)
      .set({
        status: 'processed',
        ...(gatewayRefundId ? { gatewayRefundId } : {}),
        lastError: null,
        nextAttemptAt: null,
        updatedAt: now.toISOString(),
      })
      .where(and(which(refunds), eq(refunds.status, 'pending')))
      .returning(),
  );
  if (!done) return false;
  yield* enqueueMailSteps(tx, yield* refundMailSteps(deps, tx, done), now);
  if (done.bookingId)
    yield* recordBookingEventSteps(tx, {
      bookingId: done.bookingId,
      kind: 'refund_issued',
      actor: 'system',
      actorUserId: null,
      at: now,
      details: { amountPaise: done.amountPaise },
    });
  return true;
}

/** The buyer's mail for a finished refund: a cancelled booking's, or a payment that never became one. */
function* refundMailSteps(
  deps: Pick<AppDeps, 'env'>,
  tx: WriteTx,
  refund: typeof refunds.$inferSelect,
): Steps<OutgoingMail> {
  const { bookings, holds, paymentOrders, events } = tablesOf(tx);
  const supportEmail = deps.env.SUPPORT_EMAIL;
  if (refund.bookingId) {
    const booking = yield* row(
      tx
        .select({
          id: bookings.id,
          userName: bookings.userName,
          userEmail: bookings.userEmail,
          eventName: bookings.eventName,
          userId: bookings.userId,
          paidByUserId: bookings.paidByUserId,
        })
        .from(bookings)
        .where(eq(bookings.id, refund.bookingId)),
    );
    if (booking) {
      // The money went back to whoever paid, so the mail goes to them too (ADR 0025).
      const payer = yield* payerOfSteps(tx, booking);
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
  const hold = yield* row(
    tx
      .select({ details: holds.details, eventName: events.name })
      .from(paymentOrders)
      .innerJoin(holds, eq(holds.id, paymentOrders.holdId))
      .innerJoin(events, eq(events.id, holds.eventId))
      .where(eq(paymentOrders.id, refund.orderId)),
  );
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
