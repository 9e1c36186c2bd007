import { and, asc, eq, isNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { refundParts } from '../../db/schema/partial-refunds.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { askGatewayOnce, REFUND_LEASE_MS } from '../refunds/issue-refund.ts';

/** The gateway's refund notes name the part, so its webhooks find the part and not the payment's whole refund. */
export const REFUND_PART_NOTE = 'refund_part';

/**
 * Asks the gateway to refund one part refund, once: the same claim (a lease in one conditional UPDATE),
 * idempotency key and back-off as a whole refund (refunds/issue-refund.ts). Before a retry the payment
 * is fetched: when the gateway has already refunded everything processed before plus this part, the
 * lost answer was a success and nothing is asked again.
 */
export async function issueRefundPart(deps: AppDeps, refundPartId: string): Promise<void> {
  // Claimed on its own, committed before the gateway is called (as a whole refund's claim), on either
  // engine (ADR 0045): one statement, so SQLite runs it as its own transaction.
  const claimed = await runStatements(deps.db, (db) =>
    claimRefundPartSteps(db, refundPartId, deps.clock.now()),
  );
  if (!claimed) return;
  await askGatewayOnce(deps, claimed, {
    refundedBefore: await runStatements(deps.db, (db) => processedBeforeSteps(db, claimed)),
    notes: { reason: 'partial_refund', [REFUND_PART_NOTE]: claimed.id },
    processed: (gatewayRefundId) =>
      markRefundPartProcessed(deps, (table) => eq(table.id, claimed.id), gatewayRefundId),
    failed: (message, retryAt, err) => {
      deps.logger.error(
        { err, refundPartId, paymentId: claimed.paymentId },
        'part refund failed; it will be retried',
      );
      // Awaited (by askGatewayOnce) on either engine: the part's error and back-off are recorded before
      // the organiser's request answers or the job's run ends. A failure to record it only leaves the
      // lease to expire, so it is logged, not thrown.
      return runStatements(deps.db, (db) =>
        recordRefundPartFailureSteps(db, refundPartId, message, retryAt, deps.clock.now()),
      ).catch((error: unknown) =>
        deps.logger.error({ err: error, refundPartId }, 'part refund failure not recorded'),
      );
    },
  });
}

/**
 * The part's claim, written once for both engines (ADR 0045): one conditional UPDATE … RETURNING takes
 * the lease, so of two runners (two processes, on either engine) one gets the part and calls the gateway.
 */
export function* claimRefundPartSteps(
  tx: DbOrTx,
  refundPartId: string,
  now: Date,
): Steps<typeof refundParts.$inferSelect | undefined> {
  const { refundParts } = tablesOf(tx);
  return yield* row(
    tx
      .update(refundParts)
      .set({
        attempts: sql`${refundParts.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + REFUND_LEASE_MS).toISOString(),
        updatedAt: now.toISOString(),
      })
      .where(
        and(eq(refundParts.id, refundPartId), eq(refundParts.status, 'pending'), isPartDue(now, refundParts)),
      )
      .returning(),
  );
}

/** A failed gateway call for a part, recorded after it: the error and when to try again. */
export function* recordRefundPartFailureSteps(
  tx: DbOrTx,
  refundPartId: string,
  message: string,
  retryAt: string,
  now: Date,
): Steps<void> {
  const { refundParts } = tablesOf(tx);
  yield* changes(
    tx
      .update(refundParts)
      .set({ lastError: message, nextAttemptAt: retryAt, updatedAt: now.toISOString() })
      .where(and(eq(refundParts.id, refundPartId), eq(refundParts.status, 'pending'))),
  );
}

/** Calls the gateway for every part refund that is due, oldest first; returns how many it tried. */
export async function runDueRefundParts(deps: AppDeps, limit: number): Promise<number> {
  const due = await runStatements(deps.db, function* (db) {
    const { refundParts } = tablesOf(db);
    return yield* rows(
      db
        .select({ id: refundParts.id })
        .from(refundParts)
        .where(and(eq(refundParts.status, 'pending'), isPartDue(deps.clock.now(), refundParts)))
        .orderBy(asc(refundParts.createdAt))
        .limit(limit),
    );
  });
  for (const part of due) await issueRefundPart(deps, part.id);
  return due.length;
}

/** Marks a pending part processed and records it in the order history, in one transaction. */
export async function markRefundPartProcessed(
  deps: AppDeps,
  which: (table: typeof refundParts) => SQL | undefined,
  gatewayRefundId: string | null,
): Promise<boolean> {
  return runnerFor(deps.db).write((tx) =>
    markRefundPartProcessedSteps(tx as WriteTx, which, gatewayRefundId, deps.clock.now()),
  );
}

/** `markRefundPartProcessed` written once for both engines (ADR 0045); `which` picks the part by the engine's table. */
export function* markRefundPartProcessedSteps(
  tx: WriteTx,
  which: (table: typeof refundParts) => SQL | undefined,
  gatewayRefundId: string | null,
  now: Date,
): Steps<boolean> {
  const { refundParts } = tablesOf(tx);
  const done = yield* row(
    tx
      .update(refundParts)
      .set({
        status: 'processed',
        ...(gatewayRefundId ? { gatewayRefundId } : {}),
        lastError: null,
        nextAttemptAt: null,
        updatedAt: now.toISOString(),
      })
      .where(and(which(refundParts), eq(refundParts.status, 'pending')))
      .returning(),
  );
  if (!done) return false;
  yield* recordBookingEventSteps(tx, {
    bookingId: done.bookingId,
    kind: 'refund_issued',
    actor: 'system',
    actorUserId: null,
    at: now,
    details: { amountPaise: done.amountPaise, part: true },
  });
  return true;
}

/**
 * A gateway webhook about a part refund (its notes name the part): processed marks it done; failed (the
 * bank returned it) puts it back to pending for a new refund. Returns null when the refund is not a part.
 */
export async function handleRefundPartWebhook(
  deps: AppDeps,
  event: 'refund.processed' | 'refund.failed',
  refund: { id?: string; notes?: Record<string, unknown> | unknown[] },
): Promise<boolean | null> {
  const notes = refund.notes && !Array.isArray(refund.notes) ? refund.notes : {};
  const partId = notes[REFUND_PART_NOTE];
  if (typeof partId !== 'string') return null;
  if (event === 'refund.processed')
    return markRefundPartProcessed(deps, (table) => eq(table.id, partId), refund.id ?? null);
  const changed = await runStatements(deps.db, function* (db) {
    const { refundParts } = tablesOf(db);
    return yield* changes(
      db
        .update(refundParts)
        .set({
          status: 'pending',
          lastError: `The gateway reported refund ${refund.id ?? ''} as failed`.trim(),
          nextAttemptAt: null,
          ...(refund.id ? { gatewayRefundId: refund.id } : {}),
          updatedAt: deps.clock.now().toISOString(),
        })
        .where(
          and(
            eq(refundParts.id, partId),
            or(isNull(refundParts.gatewayRefundId), eq(refundParts.gatewayRefundId, refund.id ?? '')),
          ),
        ),
    );
  });
  return changed > 0;
}

function isPartDue(now: Date, table: Pick<typeof refundParts, 'nextAttemptAt'>) {
  return or(isNull(table.nextAttemptAt), lte(table.nextAttemptAt, now.toISOString()));
}

/** Paise the gateway should already show refunded on the payment before this part: everything processed. */
function* processedBeforeSteps(db: DbOrTx, part: { id: string; paymentId: string }): Steps<number> {
  const { refundParts, refunds } = tablesOf(db);
  const parts = yield* row(
    db
      .select({ paise: sql<number>`coalesce(sum(${refundParts.amountPaise}), 0)` })
      .from(refundParts)
      .where(
        and(
          eq(refundParts.paymentId, part.paymentId),
          eq(refundParts.status, 'processed'),
          ne(refundParts.id, part.id),
        ),
      ),
  );
  const whole = yield* row(
    db
      .select({ paise: refunds.amountPaise })
      .from(refunds)
      .where(and(eq(refunds.paymentId, part.paymentId), eq(refunds.status, 'processed'))),
  );
  // PostgreSQL answers a sum as text (numeric).
  return Number(parts?.paise ?? 0) + (whole?.paise ?? 0);
}
