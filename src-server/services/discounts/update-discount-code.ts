import { and, eq } from 'drizzle-orm';
import { DISCOUNT_MESSAGES, type DiscountFields } from '../../../shared/discount-schemas.ts';
import type { Db } from '../../db/client.ts';
import { discountCodes } from '../../db/schema/discounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';
import { discountCodeColumns } from './discount-code-fields.ts';

/**
 * Changes a code's terms. Orders already priced with it keep what they were charged (their lines carry
 * the discount); its uses stay counted, so a lower limit than its uses only stops new ones.
 */
export function updateDiscountCode(
  db: Db,
  eventId: string,
  discountCodeId: string,
  fields: DiscountFields,
  now: Date,
): Promise<{ id: string }> {
  return writeTransaction(db, (tx) => {
    const changed = tx
      .update(discountCodes)
      .set({ ...discountCodeColumns(tx, eventId, fields, discountCodeId), updatedAt: now.toISOString() })
      .where(and(eq(discountCodes.id, discountCodeId), eq(discountCodes.eventId, eventId)))
      .run();
    // Another event's code answers like one that does not exist.
    if (changed.changes !== 1) throw notFound(DISCOUNT_MESSAGES.codeNotFound);
    return { id: discountCodeId };
  });
}
