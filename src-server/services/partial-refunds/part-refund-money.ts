import { and, gte, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/** Part refunds of some events (ADR 0043), pending included, in a period when one is given (by when recorded). */
export interface PartRefundMoney {
  refundedPaise: number;
  pendingPaise: number;
  /** Of it, what came out of the convenience fee and its GST (the platform's). */
  feePaise: number;
}

/** The part refunds' money of some events, written once for both engines (ADR 0045): event-money.ts reads it. */
export function* partRefundMoneySteps(
  db: DbOrTx,
  eventIds: readonly string[],
  period?: { from: string; to: string },
): Steps<Map<string, PartRefundMoney>> {
  const { bookings, refundParts } = tablesOf(db);
  const result = new Map<string, PartRefundMoney>();
  if (eventIds.length === 0) return result;
  const found = yield* rows(
    db
      .select({
        eventId: bookings.eventId,
        refunded: sql<number>`coalesce(sum(${refundParts.amountPaise}), 0)`,
        pending: sql<number>`coalesce(sum(case when ${refundParts.status} = 'pending' then ${refundParts.amountPaise} else 0 end), 0)`,
        fee: sql<number>`coalesce(sum(${refundParts.feePaise}), 0)`,
      })
      .from(refundParts)
      .innerJoin(bookings, sql`${bookings.id} = ${refundParts.bookingId}`)
      .where(
        and(
          inArray(bookings.eventId, [...eventIds]),
          period ? gte(refundParts.createdAt, period.from) : undefined,
          period ? lt(refundParts.createdAt, period.to) : undefined,
        ),
      )
      .groupBy(bookings.eventId),
  );
  // PostgreSQL answers a sum as text (numeric).
  for (const r of found)
    result.set(r.eventId, {
      refundedPaise: Number(r.refunded),
      pendingPaise: Number(r.pending),
      feePaise: Number(r.fee),
    });
  return result;
}
