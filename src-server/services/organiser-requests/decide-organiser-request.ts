import { and, eq } from 'drizzle-orm';
import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { carryRequestToProfileSteps } from '../invoices/organiser-profile.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { accountRoleSteps } from '../roles/get-account-role.ts';
import { writeAccountRoleSteps } from '../roles/set-account-role.ts';
import { requestDecidedMail } from './organiser-request-mails.ts';

/**
 * An admin approves (the requester becomes an organiser) or declines a waiting request; the requester
 * is mailed either way, in the same transaction. Only a waiting request changes, so two admins
 * clicking at once decide it once (on PostgreSQL the second waits on the row, then finds it decided);
 * the second is told it is already decided. Written once for both engines (ADR 0045).
 */
export async function decideOrganiserRequest(
  db: Db,
  decision: { requestId: string; approve: boolean; adminId: string },
  now: Date,
  links: { base: string },
): Promise<{ status: 'approved' | 'declined' }> {
  const status = decision.approve ? 'approved' : 'declined';
  await runnerFor(db).write(function* (db) {
    const tx = db as WriteTx;
    const { organiserRequests, users } = tablesOf(tx);
    const decided = yield* row(
      tx
        .update(organiserRequests)
        .set({ status, decidedBy: decision.adminId, decidedAt: now.toISOString() })
        .where(and(eq(organiserRequests.id, decision.requestId), eq(organiserRequests.status, 'pending')))
        .returning({
          userId: organiserRequests.userId,
          organisationName: organiserRequests.organisationName,
          city: organiserRequests.city,
          gstin: organiserRequests.gstin,
        }),
    );
    if (!decided) {
      const exists = yield* row(
        tx
          .select({ id: organiserRequests.id })
          .from(organiserRequests)
          .where(eq(organiserRequests.id, decision.requestId)),
      );
      throw exists
        ? conflict(ORGANISER_MESSAGES.requestDecided)
        : notFound(ORGANISER_MESSAGES.requestNotFound);
    }
    // An admin who asked keeps being an admin (read in this transaction).
    if (decision.approve && (yield* accountRoleSteps(tx, decided.userId)) === 'none') {
      yield* writeAccountRoleSteps(tx, decided.userId, 'organiser', decision.adminId, now);
    }
    // What the request said (GSTIN, organisation, state) becomes the invoicing profile's defaults.
    if (decision.approve) yield* carryRequestToProfileSteps(tx, decided, now);
    const requester = (yield* row(
      tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, decided.userId)),
    ))!;
    yield* enqueueMailSteps(
      tx,
      requestDecidedMail({
        to: requester.email,
        name: requester.name,
        requestId: decision.requestId,
        organisationName: decided.organisationName,
        approved: decision.approve,
        consoleUrl: `${links.base}/organiser`,
      }),
      now,
    );
  });
  return { status };
}
