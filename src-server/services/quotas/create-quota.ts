import { randomUUID } from 'node:crypto';
import type { QuotaFields } from '../../../shared/quota-schemas.ts';
import type { Db } from '../../db/client.ts';
import { quotas } from '../../db/schema/quotas.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { checkQuotaFields, setQuotaMembers } from './quota-members.ts';

/** A new shared capacity for the event (the editor's "Shared capacity" section). */
export function createQuota(
  db: Db,
  eventId: string,
  fields: QuotaFields,
  now: Date,
): Promise<{ id: string }> {
  return writeTransaction(db, (tx) => {
    const { ticketTypeIds, available } = checkQuotaFields(tx, eventId, fields);
    const id = `qt-${randomUUID()}`;
    tx.insert(quotas)
      .values({
        id,
        eventId,
        name: fields.name,
        capacity: fields.capacity,
        available,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    setQuotaMembers(tx, id, ticketTypeIds);
    return { id };
  });
}
