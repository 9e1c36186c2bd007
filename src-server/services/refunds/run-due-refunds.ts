import { and, asc, eq } from 'drizzle-orm';
import { runStatements } from '../../db/engine/reads.ts';
import { rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { runDueRefundParts } from '../partial-refunds/issue-refund-part.ts';
import { isDue, issueRefund } from './issue-refund.ts';

/** Refunds asked about per run: a large cancellation is worked through over several runs. */
const BATCH = 50;

/**
 * Calls the gateway for every refund that is due (new, or past its back-off or a dead runner's lease),
 * oldest first. Everything it needs is in the database, so after a restart the first run picks up
 * whatever was left. Returns how many it tried.
 */
export async function runDueRefunds(deps: AppDeps, limit = BATCH): Promise<number> {
  const due = await runStatements(deps.db, (db) => {
    const { refunds } = tablesOf(db);
    return rows(
      db
        .select({ id: refunds.id })
        .from(refunds)
        .where(and(eq(refunds.status, 'pending'), isDue(deps.clock.now(), refunds)))
        .orderBy(asc(refunds.createdAt))
        .limit(limit),
    );
  });
  for (const refund of due) await issueRefund(deps, refund.id);
  // Part refunds (ADR 0043) go through the same job.
  return due.length + (await runDueRefundParts(deps, limit));
}
