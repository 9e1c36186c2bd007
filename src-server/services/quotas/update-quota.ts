import { and, eq } from 'drizzle-orm';
import { QUOTA_MESSAGES, type QuotaFields } from '../../../shared/quota-schemas.ts';
import type { Db } from '../../db/client.ts';
import { quotas } from '../../db/schema/quotas.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';
import { checkQuotaFields, setQuotaMembers } from './quota-members.ts';

/**
 * Changes a quota's name, capacity or ticket types. Its `available` is counted again from its types'
 * sold and held seats under the write lock, so no hold in flight can be lost between the count and the
 * write; a capacity below them is refused.
 */
export function updateQuota(
  db: Db,
  eventId: string,
  quotaId: string,
  fields: QuotaFields,
  now: Date,
): Promise<{ id: string }> {
  return writeTransaction(db, (tx) => {
    const quota = tx
      .select({ id: quotas.id })
      .from(quotas)
      .where(and(eq(quotas.id, quotaId), eq(quotas.eventId, eventId)))
      .get();
    if (!quota) throw notFound(QUOTA_MESSAGES.quotaNotFound);
    const { ticketTypeIds, available } = checkQuotaFields(tx, eventId, fields);
    tx.update(quotas)
      .set({ name: fields.name, capacity: fields.capacity, available, updatedAt: now.toISOString() })
      .where(eq(quotas.id, quotaId))
      .run();
    setQuotaMembers(tx, quotaId, ticketTypeIds);
    return { id: quotaId };
  });
}
