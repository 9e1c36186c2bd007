import { randomUUID } from 'node:crypto';
import type { QuotaFields } from '../../../shared/quota-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { checkQuotaFieldsSteps, setQuotaMembersSteps } from './quota-members.ts';

/** A new shared capacity for the event (the editor's "Shared capacity" section), on either engine. */
export function createQuota(
  db: Db,
  eventId: string,
  fields: QuotaFields,
  now: Date,
): Promise<{ id: string }> {
  return runnerFor(db).write(function* (tx) {
    const { quotas } = tablesOf(tx);
    const { ticketTypeIds, available } = yield* checkQuotaFieldsSteps(tx, eventId, fields);
    const id = `qt-${randomUUID()}`;
    yield* changes(
      tx.insert(quotas).values({
        id,
        eventId,
        name: fields.name,
        capacity: fields.capacity,
        available,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      }),
    );
    yield* setQuotaMembersSteps(tx, id, ticketTypeIds);
    return { id };
  });
}
