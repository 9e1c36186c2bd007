import { and, eq } from 'drizzle-orm';
import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runSync } from '../../db/engine/steps.ts';
import { users } from '../../db/schema/accounts.ts';
import { organiserRequests } from '../../db/schema/roles.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { carryRequestToProfile } from '../invoices/organiser-profile.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { accountRoleSteps } from '../roles/get-account-role.ts';
import { writeAccountRole } from '../roles/set-account-role.ts';
import { requestDecidedMail } from './organiser-request-mails.ts';

/**
 * An admin approves (the requester becomes an organiser) or declines a waiting request; the requester
 * is mailed either way, in the same transaction. Only a waiting request changes, so two admins
 * clicking at once decide it once; the second is told it is already decided.
 */
export async function decideOrganiserRequest(
  db: Db,
  decision: { requestId: string; approve: boolean; adminId: string },
  now: Date,
  links: { base: string },
): Promise<{ status: 'approved' | 'declined' }> {
  const status = decision.approve ? 'approved' : 'declined';
  await writeTransaction(db, (tx) => {
    const decided = tx
      .update(organiserRequests)
      .set({ status, decidedBy: decision.adminId, decidedAt: now.toISOString() })
      .where(and(eq(organiserRequests.id, decision.requestId), eq(organiserRequests.status, 'pending')))
      .returning({
        userId: organiserRequests.userId,
        organisationName: organiserRequests.organisationName,
        city: organiserRequests.city,
        gstin: organiserRequests.gstin,
      })
      .get();
    if (!decided) {
      const exists = tx
        .select({ id: organiserRequests.id })
        .from(organiserRequests)
        .where(eq(organiserRequests.id, decision.requestId))
        .get();
      throw exists
        ? conflict(ORGANISER_MESSAGES.requestDecided)
        : notFound(ORGANISER_MESSAGES.requestNotFound);
    }
    // An admin who asked keeps being an admin. (The read goes through the same connection, so it sees
    // this transaction.)
    if (decision.approve && runSync(accountRoleSteps(db, decided.userId)) === 'none') {
      writeAccountRole(tx, decided.userId, 'organiser', decision.adminId, now);
    }
    // What the request said (GSTIN, organisation, state) becomes the invoicing profile's defaults.
    if (decision.approve) carryRequestToProfile(tx, decided, now);
    const requester = tx
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, decided.userId))
      .get()!;
    enqueueMail(
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
