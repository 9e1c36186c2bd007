import { and, eq } from 'drizzle-orm';
import { QUOTA_MESSAGES, type QuotaFields } from '../../../shared/quota-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import { checkQuotaFieldsSteps, setQuotaMembersSteps } from './quota-members.ts';

/**
 * Changes a quota's name, capacity or ticket types. Its `available` is counted again from its types'
 * sold and held seats under the write lock (on PostgreSQL, its types' row locks, quota-members.ts), so no hold in flight can be lost between the count and the write; a capacity
 * below them is refused.
 */
export function updateQuota(
  db: Db,
  eventId: string,
  quotaId: string,
  fields: QuotaFields,
  now: Date,
): Promise<{ id: string }> {
  return runnerFor(db).write(function* (tx) {
    const { quotas } = tablesOf(tx);
    const quota = yield* row(
      tx
        .select({ id: quotas.id })
        .from(quotas)
        .where(and(eq(quotas.id, quotaId), eq(quotas.eventId, eventId))),
    );
    if (!quota) throw notFound(QUOTA_MESSAGES.quotaNotFound);
    const { ticketTypeIds, available } = yield* checkQuotaFieldsSteps(tx, eventId, fields);
    yield* changes(
      tx
        .update(quotas)
        .set({ name: fields.name, capacity: fields.capacity, available, updatedAt: now.toISOString() })
        .where(eq(quotas.id, quotaId)),
    );
    yield* setQuotaMembersSteps(tx, quotaId, ticketTypeIds);
    return { id: quotaId };
  });
}
