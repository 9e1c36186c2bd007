import { randomUUID } from 'node:crypto';
import type { DiscountFields } from '../../../shared/discount-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { codeTakenOr, discountCodeColumnsSteps } from './discount-code-fields.ts';

/** A new discount code for the event (the console's "Discount codes" section), active at once. */
export function createDiscountCode(
  db: Db,
  eventId: string,
  fields: DiscountFields,
  now: Date,
): Promise<{ id: string }> {
  return codeTakenOr(
    runnerFor(db).write(function* (tx) {
      const { discountCodes } = tablesOf(tx);
      const id = `dc-${randomUUID()}`;
      const columns = yield* discountCodeColumnsSteps(tx, eventId, fields);
      yield* changes(
        tx.insert(discountCodes).values({
          id,
          eventId,
          ...columns,
          uses: 0,
          isActive: true,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        }),
      );
      return { id };
    }),
  );
}
