import { and, eq } from 'drizzle-orm';
import { DISCOUNT_MESSAGES } from '../../../shared/discount-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';

/**
 * Deactivates a code (buyers are told it does not exist) or turns it back on. Codes are never deleted:
 * bookings, invoices and the export name them.
 */
export function setDiscountCodeActive(
  db: Db,
  eventId: string,
  discountCodeId: string,
  isActive: boolean,
  now: Date,
): Promise<{ id: string; isActive: boolean }> {
  return runnerFor(db).write(function* (tx) {
    const { discountCodes } = tablesOf(tx);
    const changed = yield* changes(
      tx
        .update(discountCodes)
        .set({ isActive, updatedAt: now.toISOString() })
        .where(and(eq(discountCodes.id, discountCodeId), eq(discountCodes.eventId, eventId))),
    );
    if (changed !== 1) throw notFound(DISCOUNT_MESSAGES.codeNotFound);
    return { id: discountCodeId, isActive };
  });
}
