import { and, eq } from 'drizzle-orm';
import { DISCOUNT_MESSAGES, type DiscountFields } from '../../../shared/discount-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import { codeTakenOr, discountCodeColumnsSteps } from './discount-code-fields.ts';

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
  return codeTakenOr(
    runnerFor(db).write(function* (tx) {
      const { discountCodes } = tablesOf(tx);
      const columns = yield* discountCodeColumnsSteps(tx, eventId, fields, discountCodeId);
      const changed = yield* changes(
        tx
          .update(discountCodes)
          .set({ ...columns, updatedAt: now.toISOString() })
          .where(and(eq(discountCodes.id, discountCodeId), eq(discountCodes.eventId, eventId))),
      );
      // Another event's code answers like one that does not exist.
      if (changed !== 1) throw notFound(DISCOUNT_MESSAGES.codeNotFound);
      return { id: discountCodeId };
    }),
  );
}
