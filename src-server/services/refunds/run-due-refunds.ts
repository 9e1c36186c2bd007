import { and, asc, eq } from 'drizzle-orm';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { runDueRefundParts } from '../partial-refunds/issue-refund-part.ts';
import { isDue, issueRefund } from './issue-refund.ts';

/** Refunds asked about per run: a large cancellation is worked through over several runs. */
const BATCH = 50;

/**
 * Calls the gateway for every refund that is due (new, or past its back-off or a dead runner's lease),
 * oldest first. Everything it needs is in the database, so after a restart the first run picks up
 * whatever was left. Returns how many it tried. The read is awaited on either engine (ADR 0045).
 */
export async function runDueRefunds(deps: AppDeps, limit = BATCH): Promise<number> {
  const { refunds } = tablesOf(deps.db);
  const due = await deps.db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, 'pending'), isDue(deps.clock.now(), refunds)))
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .limit(limit);
  for (const refund of due) await issueRefund(deps, refund.id);
  // Part refunds (ADR 0043) go through the same job.
  return due.length + (await runDueRefundParts(deps, limit));
}
