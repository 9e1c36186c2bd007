import { randomUUID } from 'node:crypto';
import type { DiscountFields } from '../../../shared/discount-schemas.ts';
import type { Db } from '../../db/client.ts';
import { discountCodes } from '../../db/schema/discounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { discountCodeColumns } from './discount-code-fields.ts';

/** A new discount code for the event (the console's "Discount codes" section), active at once. */
export function createDiscountCode(
  db: Db,
  eventId: string,
  fields: DiscountFields,
  now: Date,
): Promise<{ id: string }> {
  return writeTransaction(db, (tx) => {
    const id = `dc-${randomUUID()}`;
    tx.insert(discountCodes)
      .values({
        id,
        eventId,
        ...discountCodeColumns(tx, eventId, fields),
        uses: 0,
        isActive: true,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    return { id };
  });
}
