import { and, eq } from 'drizzle-orm';
import { QUOTA_MESSAGES } from '../../../shared/quota-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';

/**
 * Removes a shared capacity: its ticket types keep their own counts and sell up to them. Sold and held
 * seats stay as they are (they were taken from the types too).
 */
export function removeQuota(db: Db, eventId: string, quotaId: string): Promise<{ id: string }> {
  return runnerFor(db).write(function* (tx) {
    const { quotas } = tablesOf(tx);
    const removed = yield* changes(
      tx.delete(quotas).where(and(eq(quotas.id, quotaId), eq(quotas.eventId, eventId))),
    );
    if (removed !== 1) throw notFound(QUOTA_MESSAGES.quotaNotFound);
    return { id: quotaId };
  });
}
