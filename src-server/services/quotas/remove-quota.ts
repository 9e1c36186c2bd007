import { and, eq } from 'drizzle-orm';
import { QUOTA_MESSAGES } from '../../../shared/quota-schemas.ts';
import type { Db } from '../../db/client.ts';
import { quotas } from '../../db/schema/quotas.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';

/**
 * Removes a shared capacity: its ticket types keep their own counts and sell up to them. Sold and held
 * seats stay as they are (they were taken from the types too).
 */
export function removeQuota(db: Db, eventId: string, quotaId: string): Promise<{ id: string }> {
  return writeTransaction(db, (tx) => {
    const removed = tx
      .delete(quotas)
      .where(and(eq(quotas.id, quotaId), eq(quotas.eventId, eventId)))
      .run();
    if (removed.changes !== 1) throw notFound(QUOTA_MESSAGES.quotaNotFound);
    return { id: quotaId };
  });
}
