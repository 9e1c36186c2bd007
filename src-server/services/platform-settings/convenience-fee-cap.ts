import { and, eq, gt, ne, sql } from 'drizzle-orm';
import { DEFAULT_PLATFORM_FEE_RATE, MAX_CONVENIENCE_FEE_RATE } from '../../../shared/pricing.ts';
import type { Db } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

/** The most an event's convenience fee may be on this installation, in percent (on either engine). */
export function readConvenienceFeeCap(db: Db): Promise<number> {
  return runStatements(db, (d) => convenienceFeeCapSteps(d as Db));
}

/** `readConvenienceFeeCap` as a step, on either engine (ADR 0045): the event editor reads it in its edit. */
export function* convenienceFeeCapSteps(db: Db | WriteTx): Steps<number> {
  const { platformSettings } = tablesOf(db);
  const found = yield* row(
    db
      .select({ cap: platformSettings.convenienceFeeCap })
      .from(platformSettings)
      .where(eq(platformSettings.id, 1)),
  );
  return found?.cap ?? MAX_CONVENIENCE_FEE_RATE;
}

/**
 * An admin caps the convenience fee for every event. Events charging more (their own rate, or the
 * platform default when they set none) are lowered to the cap in the same transaction, so checkout,
 * which reads the event's rate, never charges above it; no event's version moves (an organiser's open
 * editor saves again under the new cap). Holds already priced keep their price: a fee change, like a
 * price change, applies to new orders. Cancelled events are left as they were. Written once for both
 * engines (ADR 0045).
 */
export function setConvenienceFeeCap(
  db: Db,
  change: { percent: number; adminId: string },
  now: Date,
): Promise<{ cap: number; lowered: number }> {
  return runnerFor(db).write(function* (tx) {
    const { events, platformSettings } = tablesOf(tx);
    const values = {
      convenienceFeeCap: change.percent,
      updatedAt: now.toISOString(),
      updatedBy: change.adminId,
    };
    yield* changes(
      tx
        .insert(platformSettings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: platformSettings.id, set: values }),
    );
    const lowered = yield* changes(
      tx
        .update(events)
        .set({ platformFeeRate: change.percent })
        .where(
          and(
            ne(events.status, 'cancelled'),
            gt(sql`coalesce(${events.platformFeeRate}, ${DEFAULT_PLATFORM_FEE_RATE})`, change.percent),
          ),
        ),
    );
    return { cap: change.percent, lowered };
  });
}

/**
 * The rate the editor stores for what the organiser typed: above the cap is refused beside the field;
 * no rate (the platform default) is stored as the cap when the default itself is above it.
 */
export function cappedFeeRate(
  rate: number | null,
  cap: number,
): { rate: number | null } | { refused: string } {
  if (rate !== null && rate > cap) return { refused: feeAboveCapMessage(cap) };
  if (rate === null && DEFAULT_PLATFORM_FEE_RATE > cap) return { rate: cap };
  return { rate };
}

export const feeAboveCapMessage = (cap: number) => `Convenience fee can be at most ${cap} % on this site`;
