import { and, eq } from 'drizzle-orm';
import { DISCOUNT_MESSAGES } from '../../../shared/discount-schemas.ts';
import type { Db } from '../../db/client.ts';
import { discountCodes } from '../../db/schema/discounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
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
  return writeTransaction(db, (tx) => {
    const changed = tx
      .update(discountCodes)
      .set({ isActive, updatedAt: now.toISOString() })
      .where(and(eq(discountCodes.id, discountCodeId), eq(discountCodes.eventId, eventId)))
      .run();
    if (changed.changes !== 1) throw notFound(DISCOUNT_MESSAGES.codeNotFound);
    return { id: discountCodeId, isActive };
  });
}
